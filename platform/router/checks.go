package router

import (
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/problem"
)

// checkPlan is the validation of an input type prepared at start-up. The
// common rules on scalar path and query fields (required, omitempty, oneof,
// min, max, len, gte, gt, lte, lt) are compiled into closures over field
// offsets, so a request pays no reflection for them; the body, and any input
// using other rules, goes through go-playground/validator with the same
// semantics and messages.
type checkPlan struct {
	fields []fieldCheck
	// full validates the whole input with the validator instead.
	full bool
	// bodyOffset and bodyType locate a body the validator checks on its own.
	bodyOffset uintptr
	bodyType   reflect.Type
}

// fieldCheck holds the compiled rules of one field.
type fieldCheck struct {
	name      string
	offset    uintptr
	omitEmpty bool
	isZero    func(p unsafe.Pointer) bool
	rules     []rule
}

// rule is one compiled validate rule and the message it fails with.
type rule struct {
	ok      func(p unsafe.Pointer) bool
	message string
}

// newCheckPlan compiles the validation of t, nil when nothing is checked.
func newCheckPlan(t reflect.Type) *checkPlan {
	if !openapi.HasRules(t) {
		return nil
	}
	cp := &checkPlan{}
	if !cp.compile(t, 0) {
		return &checkPlan{full: true}
	}
	return cp
}

func (cp *checkPlan) compile(t reflect.Type, base uintptr) bool {
	for i := range t.NumField() {
		f := t.Field(i)
		off := base + f.Offset
		tag := f.Tag.Get("validate")
		switch {
		case f.Name == "Body" && base == 0:
			if !openapi.HasRules(f.Type) {
				continue
			}
			if f.Type.Kind() != reflect.Struct {
				return false
			}
			cp.bodyOffset, cp.bodyType = off, f.Type
		case f.Anonymous && f.Type.Kind() == reflect.Struct && tag == "":
			if !cp.compile(f.Type, off) {
				return false
			}
		case tag == "" || tag == "-":
			if openapi.HasRules(f.Type) {
				return false
			}
		default:
			fc, ok := compileField(f, off, tag)
			if !ok {
				return false
			}
			cp.fields = append(cp.fields, fc)
		}
	}
	return true
}

// compileField compiles the rules of a scalar field; false when a rule or
// the kind is beyond the compiled subset.
func compileField(f reflect.StructField, off uintptr, tag string) (fieldCheck, bool) {
	fc := fieldCheck{name: clientName(f), offset: off}
	kind := f.Type.Kind()
	num, isZero, ok := numberReader(kind)
	if !ok {
		return fc, false
	}
	fc.isZero = isZero
	for _, r := range strings.Split(tag, ",") {
		name, param, _ := strings.Cut(r, "=")
		var ok func(p unsafe.Pointer) bool
		switch name {
		case "omitempty":
			fc.omitEmpty = true
			continue
		case "required":
			ok = func(p unsafe.Pointer) bool { return !isZero(p) }
		case "oneof":
			if strings.ContainsRune(param, '\'') {
				return fc, false
			}
			allowed := strings.Fields(param)
			if kind == reflect.String {
				ok = func(p unsafe.Pointer) bool {
					s := *(*string)(p)
					for _, a := range allowed {
						if s == a {
							return true
						}
					}
					return false
				}
				break
			}
			if kind == reflect.Bool {
				return fc, false
			}
			values := make([]float64, len(allowed))
			for i, a := range allowed {
				v, err := strconv.ParseFloat(a, 64)
				if err != nil {
					return fc, false
				}
				values[i] = v
			}
			ok = func(p unsafe.Pointer) bool {
				n := num(p)
				for _, v := range values {
					if n == v {
						return true
					}
				}
				return false
			}
		case "min", "max", "len", "gte", "gt", "lte", "lt":
			if kind == reflect.Bool {
				return fc, false
			}
			limit, err := strconv.ParseFloat(param, 64)
			if err != nil {
				return fc, false
			}
			cmp := comparison(name)
			ok = func(p unsafe.Pointer) bool { return cmp(num(p), limit) }
		default:
			return fc, false
		}
		fc.rules = append(fc.rules, rule{ok: ok, message: ruleMessage(name, param, kind)})
	}
	return fc, true
}

func comparison(op string) func(v, limit float64) bool {
	switch op {
	case "min", "gte":
		return func(v, limit float64) bool { return v >= limit }
	case "max", "lte":
		return func(v, limit float64) bool { return v <= limit }
	case "len":
		return func(v, limit float64) bool { return v == limit }
	case "gt":
		return func(v, limit float64) bool { return v > limit }
	default:
		return func(v, limit float64) bool { return v < limit }
	}
}

// numberReader returns how the rules see a field of kind k: strings by
// their length in runes, as the validator does, numbers by value.
func numberReader(k reflect.Kind) (num func(unsafe.Pointer) float64, isZero func(unsafe.Pointer) bool, ok bool) {
	switch k {
	case reflect.String:
		return func(p unsafe.Pointer) float64 { return float64(utf8.RuneCountInString(*(*string)(p))) },
			func(p unsafe.Pointer) bool { return *(*string)(p) == "" }, true
	case reflect.Bool:
		return nil, func(p unsafe.Pointer) bool { return !*(*bool)(p) }, true
	case reflect.Int:
		return func(p unsafe.Pointer) float64 { return float64(*(*int)(p)) },
			func(p unsafe.Pointer) bool { return *(*int)(p) == 0 }, true
	case reflect.Int32:
		return func(p unsafe.Pointer) float64 { return float64(*(*int32)(p)) },
			func(p unsafe.Pointer) bool { return *(*int32)(p) == 0 }, true
	case reflect.Int64:
		return func(p unsafe.Pointer) float64 { return float64(*(*int64)(p)) },
			func(p unsafe.Pointer) bool { return *(*int64)(p) == 0 }, true
	case reflect.Uint:
		return func(p unsafe.Pointer) float64 { return float64(*(*uint)(p)) },
			func(p unsafe.Pointer) bool { return *(*uint)(p) == 0 }, true
	case reflect.Uint32:
		return func(p unsafe.Pointer) float64 { return float64(*(*uint32)(p)) },
			func(p unsafe.Pointer) bool { return *(*uint32)(p) == 0 }, true
	case reflect.Uint64:
		return func(p unsafe.Pointer) float64 { return float64(*(*uint64)(p)) },
			func(p unsafe.Pointer) bool { return *(*uint64)(p) == 0 }, true
	case reflect.Float64:
		return func(p unsafe.Pointer) float64 { return *(*float64)(p) },
			func(p unsafe.Pointer) bool { return *(*float64)(p) == 0 }, true
	}
	return nil, nil, false
}

// clientName is the name the client sends a field under.
func clientName(f reflect.StructField) string {
	for _, key := range []string{"json", "query", "path", "form"} {
		if tag, ok := f.Tag.Lookup(key); ok {
			if name, _, _ := strings.Cut(tag, ","); name != "" && name != "-" {
				return name
			}
		}
	}
	return f.Name
}

// check validates the input at in and answers a 422 listing every failing
// field, the first broken rule of each.
func (cp *checkPlan) check(r *Router, in any, base unsafe.Pointer) error {
	if cp.full {
		return r.validate(in)
	}
	var p *problem.Problem
	for i := range cp.fields {
		fc := &cp.fields[i]
		ptr := unsafe.Add(base, fc.offset)
		if fc.omitEmpty && fc.isZero(ptr) {
			continue
		}
		for _, ru := range fc.rules {
			if !ru.ok(ptr) {
				if p == nil {
					p = problem.New(http.StatusUnprocessableEntity, validationDetail)
				}
				p.Errors = append(p.Errors, problem.FieldError{Field: fc.name, Message: ru.message})
				break
			}
		}
	}
	if cp.bodyType != nil {
		err := r.validate(reflect.NewAt(cp.bodyType, unsafe.Add(base, cp.bodyOffset)).Interface())
		if bp, ok := err.(*problem.Problem); ok && p != nil {
			p.Errors = append(p.Errors, bp.Errors...)
			return p
		}
		if err != nil {
			return err
		}
	}
	if p != nil {
		return p
	}
	return nil
}
