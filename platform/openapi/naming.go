package openapi

import (
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// componentName returns the component schema name of a named type: its Go
// name, or for a generic instantiation the base names of its type
// arguments, capitalized, followed by the generic type's name, so
// paging.Page[dto.User] is "UserPage" and Page[int] is "IntPage". The name depends only on the type, so it is the same from run
// to run.
func componentName(t reflect.Type) string {
	return sanitizeName(typeNameOf(t.Name()))
}

// typeNameOf turns a type name as reflect prints it, possibly with package
// paths and type arguments, into a readable identifier.
func typeNameOf(s string) string {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return ""
	case strings.HasPrefix(s, "[]"):
		return typeNameOf(s[2:]) + "List"
	case strings.HasPrefix(s, "*"):
		return typeNameOf(s[1:])
	case strings.HasPrefix(s, "map["):
		end := matchingBracket(s, len("map"))
		if end < 0 {
			return "Map"
		}
		return upperFirst(typeNameOf(s[len("map["):end])) + upperFirst(typeNameOf(s[end+1:])) + "Map"
	case strings.HasPrefix(s, "["):
		end := matchingBracket(s, 0)
		if end < 0 {
			return "Array"
		}
		return typeNameOf(s[end+1:]) + "Array"
	case strings.HasPrefix(s, "interface {") || s == "any":
		return "Any"
	case strings.HasPrefix(s, "struct {"):
		return "Struct"
	case strings.HasPrefix(s, "func("):
		return "Func"
	case strings.HasPrefix(s, "chan ") || strings.HasPrefix(s, "<-chan "):
		return "Chan"
	}
	base, args := s, ""
	if i := strings.IndexByte(s, '['); i >= 0 {
		if end := matchingBracket(s, i); end > i {
			base, args = s[:i], s[i+1:end]
		}
	}
	// Package paths contain dots and slashes; the identifier follows both.
	base = base[strings.LastIndexByte(base, '/')+1:]
	base = base[strings.LastIndexByte(base, '.')+1:]
	var b strings.Builder
	for _, a := range splitTopLevel(args) {
		b.WriteString(upperFirst(typeNameOf(a)))
	}
	b.WriteString(base)
	return b.String()
}

// matchingBracket returns the index of the ']' closing the '[' at open, or
// -1.
func matchingBracket(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// splitTopLevel splits a type argument list at the commas that are not
// nested in brackets, braces or parentheses.
func splitTopLevel(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '{', '(':
			depth++
		case ']', '}', ')':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

// sanitizeName replaces what OpenAPI does not allow in a component name.
func sanitizeName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < utf8.RuneSelf && (r == '_' || r == '.' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return '_'
	}, s)
	if s == "" {
		return "_"
	}
	return s
}

// upperFirst returns s with its first letter in upper case.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// qualifiedName names a Go type with its package path, for error messages
// where two types share a name.
func qualifiedName(t reflect.Type) string {
	if t.PkgPath() == "" {
		return t.String()
	}
	return t.PkgPath() + "." + t.Name()
}
