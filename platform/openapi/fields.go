package openapi

import (
	"fmt"
	"reflect"

	"github.com/asapjs/fiber-template/platform/internal/plan"
)

// field is a struct field that becomes a property, after embedded structs
// are flattened the way encoding/json flattens them.
type field struct {
	// name is the property name, the json name.
	name string
	sf   reflect.StructField
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
	if err := collectFields(t, 0, map[reflect.Type]bool{}, &all); err != nil {
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

func collectFields(t reflect.Type, depth int, visiting map[reflect.Type]bool, out *[]field) error {
	if visiting[t] {
		return nil
	}
	visiting[t] = true
	defer delete(visiting, t)
	for i := range t.NumField() {
		sf := t.Field(i)
		name, tagged, skip := plan.JSONName(sf)
		if skip {
			continue
		}
		if sf.Anonymous && !tagged {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				if err := collectFields(ft, depth+1, visiting, out); err != nil {
					return err
				}
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		*out = append(*out, field{name: name, sf: sf, owner: t, depth: depth})
	}
	return nil
}
