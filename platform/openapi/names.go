package openapi

import (
	"reflect"
	"strings"
)

// tagName returns the name in the tag key of sf, the part before the first
// comma, and whether sf has one that is not empty or "-". Options after the
// comma ("omitempty") never become part of the name.
func tagName(sf reflect.StructField, key string) (string, bool) {
	v, ok := sf.Tag.Lookup(key)
	name, _, _ := strings.Cut(v, ",")
	if !ok || name == "" || name == "-" {
		return "", false
	}
	return name, true
}

// jsonName names a field as encoding/json does: the json tag's name, else
// the Go name. tagged reports a name from the tag, skip a field tagged "-".
func jsonName(sf reflect.StructField) (name string, tagged, skip bool) {
	tag, ok := sf.Tag.Lookup("json")
	if tag == "-" {
		return "", false, true
	}
	name, _, _ = strings.Cut(tag, ",")
	if !ok || name == "" {
		return sf.Name, false, false
	}
	return name, true, false
}

// formName names a field of a form body (URL-encoded or multipart): the
// form tag's name, else the json name, else the Go name; skip is true for a
// field tagged form:"-".
func formName(sf reflect.StructField) (name string, tagged, skip bool) {
	tag, ok := sf.Tag.Lookup("form")
	if tag == "-" {
		return "", false, true
	}
	name, _, _ = strings.Cut(tag, ",")
	if !ok || name == "" {
		return jsonName(sf)
	}
	return name, true, false
}
