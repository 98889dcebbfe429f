package router

import (
	"encoding"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"unsafe"
)

var textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()

// setter converts a raw value into the field at p.
type setter func(p unsafe.Pointer, raw []byte) error

// multiSetter converts repeated raw values into the slice field at p.
type multiSetter func(p unsafe.Pointer, raw [][]byte) error

// scalarSetter returns the setter of a single value of type t.
func scalarSetter(t reflect.Type) (setter, error) {
	if reflect.PointerTo(t).Implements(textUnmarshalerType) {
		return func(p unsafe.Pointer, raw []byte) error {
			return reflect.NewAt(t, p).Interface().(encoding.TextUnmarshaler).UnmarshalText(raw)
		}, nil
	}
	switch t.Kind() {
	case reflect.String:
		return func(p unsafe.Pointer, raw []byte) error {
			*(*string)(p) = string(raw)
			return nil
		}, nil
	case reflect.Bool:
		return func(p unsafe.Pointer, raw []byte) error {
			v, err := strconv.ParseBool(string(raw))
			if err != nil {
				return errors.New("must be true or false")
			}
			*(*bool)(p) = v
			return nil
		}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := t.Bits()
		store := intStore(t.Kind())
		return func(p unsafe.Pointer, raw []byte) error {
			v, err := strconv.ParseInt(string(raw), 10, bits)
			if err != nil {
				return fmt.Errorf("must be a base-10 integer that fits %d bits", bits)
			}
			store(p, v)
			return nil
		}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		bits := t.Bits()
		store := uintStore(t.Kind())
		return func(p unsafe.Pointer, raw []byte) error {
			v, err := strconv.ParseUint(string(raw), 10, bits)
			if err != nil {
				return fmt.Errorf("must be a non-negative base-10 integer that fits %d bits", bits)
			}
			store(p, v)
			return nil
		}, nil
	case reflect.Float32, reflect.Float64:
		bits := t.Bits()
		return func(p unsafe.Pointer, raw []byte) error {
			v, err := strconv.ParseFloat(string(raw), bits)
			if err != nil {
				return errors.New("must be a number")
			}
			if bits == 32 {
				*(*float32)(p) = float32(v)
			} else {
				*(*float64)(p) = v
			}
			return nil
		}, nil
	case reflect.Pointer:
		elem := t.Elem()
		inner, err := scalarSetter(elem)
		if err != nil {
			return nil, err
		}
		return func(p unsafe.Pointer, raw []byte) error {
			v := reflect.New(elem).UnsafePointer()
			if err := inner(v, raw); err != nil {
				return err
			}
			// A pointer field is one pointer word: store the new value's
			// address in it.
			*(*unsafe.Pointer)(p) = v
			return nil
		}, nil
	}
	return nil, fmt.Errorf("unsupported type %s", t)
}

// intStore writes a parsed signed integer into a field of kind k; the
// parser already checked that it fits.
func intStore(k reflect.Kind) func(p unsafe.Pointer, v int64) {
	switch k {
	case reflect.Int8:
		return func(p unsafe.Pointer, v int64) { *(*int8)(p) = int8(v) }
	case reflect.Int16:
		return func(p unsafe.Pointer, v int64) { *(*int16)(p) = int16(v) }
	case reflect.Int32:
		return func(p unsafe.Pointer, v int64) { *(*int32)(p) = int32(v) }
	case reflect.Int64:
		return func(p unsafe.Pointer, v int64) { *(*int64)(p) = v }
	default:
		return func(p unsafe.Pointer, v int64) { *(*int)(p) = int(v) }
	}
}

// uintStore writes a parsed unsigned integer into a field of kind k.
func uintStore(k reflect.Kind) func(p unsafe.Pointer, v uint64) {
	switch k {
	case reflect.Uint8:
		return func(p unsafe.Pointer, v uint64) { *(*uint8)(p) = uint8(v) }
	case reflect.Uint16:
		return func(p unsafe.Pointer, v uint64) { *(*uint16)(p) = uint16(v) }
	case reflect.Uint32:
		return func(p unsafe.Pointer, v uint64) { *(*uint32)(p) = uint32(v) }
	case reflect.Uint64:
		return func(p unsafe.Pointer, v uint64) { *(*uint64)(p) = v }
	default:
		return func(p unsafe.Pointer, v uint64) { *(*uint)(p) = uint(v) }
	}
}

// sliceSetter returns the setter of a slice bound from repeated values.
func sliceSetter(t reflect.Type) (multiSetter, error) {
	elem := t.Elem()
	inner, err := scalarSetter(elem)
	if err != nil {
		return nil, err
	}
	return func(p unsafe.Pointer, raw [][]byte) error {
		s := reflect.MakeSlice(t, len(raw), len(raw))
		for i := range raw {
			if err := inner(s.Index(i).Addr().UnsafePointer(), raw[i]); err != nil {
				return err
			}
		}
		reflect.NewAt(t, p).Elem().Set(s)
		return nil
	}, nil
}
