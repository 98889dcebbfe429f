package router

import (
	"encoding"
	"errors"
	"fmt"
	"reflect"
	"strconv"
)

var textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()

// setter parses a raw value into the field v.
type setter func(v reflect.Value, raw []byte) error

// multiSetter parses repeated raw values into the slice field v.
type multiSetter func(v reflect.Value, raw [][]byte) error

// scalarSetter returns the setter of a single value of type t, chosen once
// per field: a TextUnmarshaler, a string, a bool, an integer or float of
// any size (the parser checks that the value fits), or a pointer to one.
func scalarSetter(t reflect.Type) (setter, error) {
	if reflect.PointerTo(t).Implements(textUnmarshalerType) {
		return func(v reflect.Value, raw []byte) error {
			return v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText(raw)
		}, nil
	}
	switch t.Kind() {
	case reflect.String:
		return func(v reflect.Value, raw []byte) error {
			v.SetString(string(raw))
			return nil
		}, nil
	case reflect.Bool:
		return func(v reflect.Value, raw []byte) error {
			// The document's spelling only, as JSON writes it: not 1, t or
			// TRUE, which strconv.ParseBool takes.
			switch string(raw) {
			case "true":
				v.SetBool(true)
			case "false":
				v.SetBool(false)
			default:
				return errors.New("must be true or false")
			}
			return nil
		}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		return func(v reflect.Value, raw []byte) error {
			n, err := strconv.ParseInt(string(raw), 10, bits)
			if err != nil || !canonical(raw) {
				return fmt.Errorf("must be a base-10 integer, without + or leading zeros, that fits %d bits", bits)
			}
			v.SetInt(n)
			return nil
		}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		bits := t.Bits()
		return func(v reflect.Value, raw []byte) error {
			n, err := strconv.ParseUint(string(raw), 10, bits)
			if err != nil || !canonical(raw) {
				return fmt.Errorf("must be a non-negative base-10 integer, without + or leading zeros, that fits %d bits", bits)
			}
			v.SetUint(n)
			return nil
		}, nil
	case reflect.Float32, reflect.Float64:
		bits := t.Bits()
		return func(v reflect.Value, raw []byte) error {
			f, err := strconv.ParseFloat(string(raw), bits)
			if err != nil {
				return errors.New("must be a number")
			}
			v.SetFloat(f)
			return nil
		}, nil
	case reflect.Pointer:
		inner, err := scalarSetter(t.Elem())
		if err != nil {
			return nil, err
		}
		return func(v reflect.Value, raw []byte) error {
			p := reflect.New(t.Elem())
			if err := inner(p.Elem(), raw); err != nil {
				return err
			}
			v.Set(p)
			return nil
		}, nil
	}
	return nil, fmt.Errorf("unsupported type %s", t)
}

// canonical reports whether raw, which strconv parsed as an integer, is
// written the one way the document's integers are: no + sign, no leading
// zero and no -0, so that one resource has one URL (/users/2, never
// /users/02 or /users/+2).
func canonical(raw []byte) bool {
	digits := raw
	if digits[0] == '-' {
		digits = digits[1:]
	}
	return raw[0] != '+' && (digits[0] != '0' || len(raw) == 1)
}

// sliceSetter returns the setter of a slice bound from repeated values.
func sliceSetter(t reflect.Type) (multiSetter, error) {
	inner, err := scalarSetter(t.Elem())
	if err != nil {
		return nil, err
	}
	return func(v reflect.Value, raw [][]byte) error {
		s := reflect.MakeSlice(t, len(raw), len(raw))
		for i := range raw {
			if err := inner(s.Index(i), raw[i]); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	}, nil
}
