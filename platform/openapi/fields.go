package openapi

import (
	"fmt"
	"reflect"
	"slices"
)

// field is a struct field that becomes a property, after embedded structs
// are flattened the way encoding/json flattens them.
type field struct {
	// name is the property name, the json name.
	name string
	sf   reflect.StructField
	// index leads from the outer struct to the field.
	index []int
	// owner is the struct type declaring the field, for error messages.
	owner reflect.Type
	depth int
}

// structFields lists the property fields of struct type t in declaration
// order, with untagged embedded structs flattened into it. A field of the
// outer struct hides a field of the same name in an embedded one; two fields
// of the same name at the same depth are an error rather than silently
// dropped as encoding/json drops them.
func structFields(t reflect.Type) ([]field, error) {
	var all []field
	if err := collectFields(t, &all); err != nil {
		return nil, err
	}
	best := map[string]int{}
	for i, f := range all {
		j, seen := best[f.name]
		switch {
		case !seen || f.depth < all[j].depth:
			best[f.name] = i
		case f.depth == all[j].depth:
			return nil, fmt.Errorf("fields %s.%s and %s.%s both have the name %q",
				all[j].owner, all[j].sf.Name, f.owner, f.sf.Name, f.name)
		}
	}
	out := make([]field, 0, len(best))
	for i, f := range all {
		if best[f.name] == i {
			out = append(out, f)
		}
	}
	return out, nil
}

func collectFields(t reflect.Type, out *[]field) error {
	embed := func(sf reflect.StructField, _ []int) (bool, error) {
		_, tagged, skip := jsonName(sf)
		return !tagged && !skip, nil
	}
	return flatten(t, embed, func(sf reflect.StructField, index []int, depth int, owner reflect.Type) error {
		if name, _, skip := jsonName(sf); !skip && sf.IsExported() {
			*out = append(*out, field{name: name, sf: sf, index: index, owner: owner, depth: depth})
		}
		return nil
	})
}

// Member finds the property name of the JSON object that struct type t
// encodes to, named as the document names properties (untagged embedded
// structs flattened): the field, and the index path to it from t.
func Member(t reflect.Type, name string) (sf reflect.StructField, index []int, err error) {
	fields, err := structFields(t)
	if err != nil {
		return sf, nil, err
	}
	for _, f := range fields {
		if f.name == name {
			return f.sf, f.index, nil
		}
	}
	return sf, nil, fmt.Errorf("%s has no member %s", t, name)
}

// flatten calls visit for every field of struct type t in declaration
// order, descending instead into each embedded struct, or pointer to one,
// that embed accepts, as encoding/json flattens untagged ones. index leads
// from t to the field, depth counts the embeddings passed and owner is the
// struct type declaring the field; a type embedded in itself is entered
// once. Inputs and bodies are flattened by this one walk.
func flatten(t reflect.Type, embed func(sf reflect.StructField, index []int) (bool, error), visit func(sf reflect.StructField, index []int, depth int, owner reflect.Type) error) error {
	visiting := map[reflect.Type]bool{}
	var walk func(t reflect.Type, index []int, depth int) error
	walk = func(t reflect.Type, index []int, depth int) error {
		if visiting[t] {
			return nil
		}
		visiting[t] = true
		defer delete(visiting, t)
		for i := range t.NumField() {
			sf := t.Field(i)
			idx := append(slices.Clone(index), i)
			if et := embeddedStruct(sf); et != nil {
				descend, err := embed(sf, idx)
				if err != nil {
					return err
				}
				if descend {
					if err := walk(et, idx, depth+1); err != nil {
						return err
					}
					continue
				}
			}
			if err := visit(sf, idx, depth, t); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(t, nil, 0)
}

// embeddedStruct is the struct type sf embeds, directly or through a
// pointer, or nil when sf embeds none.
func embeddedStruct(sf reflect.StructField) reflect.Type {
	if !sf.Anonymous {
		return nil
	}
	t := sf.Type
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	return t
}
