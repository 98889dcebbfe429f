package openapi

import "reflect"

// HasRules reports whether t, or any type it holds, has a field with
// go-playground validate rules: whether validating a value of t can fail.
// The router validates only such inputs, and only their routes document 422.
func HasRules(t reflect.Type) bool {
	return hasRules(t, map[reflect.Type]bool{})
}

func hasRules(t reflect.Type, seen map[reflect.Type]bool) bool {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return false
	}
	seen[t] = true
	for i := range t.NumField() {
		f := t.Field(i)
		if tag := f.Tag.Get("validate"); tag != "" && tag != "-" {
			return true
		}
		if hasRules(f.Type, seen) {
			return true
		}
	}
	return false
}
