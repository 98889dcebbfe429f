package openapi

import (
	"errors"
	"fmt"
	"strings"
)

// ParsePath converts a Fiber route path to an OpenAPI path template and
// lists its parameters in order: "/users/:id" is "/users/{id}". Only what
// both Fiber and OpenAPI express is accepted: a constraint (":id<int>"), an
// optional parameter (":id?") and wildcards ("*", "+") are errors, so the
// document never describes a route the router serves differently; declare
// a typed field instead of a constraint (an int64 field rejects "abc" with
// a 400 and documents the integer). A trailing slash is dropped, as Fiber
// matches the path without it.
func ParsePath(p string) (template string, params []string, err error) {
	if !strings.HasPrefix(p, "/") {
		return "", nil, errors.New("path must start with '/'")
	}
	var b strings.Builder
	seen := map[string]bool{}
	for i := 0; i < len(p); {
		switch c := p[i]; c {
		case '\\':
			if i+1 == len(p) {
				return "", nil, errors.New("path ends with an escape")
			}
			if strings.IndexByte("{}?", p[i+1]) >= 0 {
				return "", nil, fmt.Errorf("path has %q, which an OpenAPI path cannot hold", p[i+1])
			}
			b.WriteByte(p[i+1])
			i += 2
		case ':':
			j := i + 1
			for j < len(p) && isNameByte(p[j]) {
				j++
			}
			name := p[i+1 : j]
			if name == "" {
				return "", nil, fmt.Errorf("':' at %d has no parameter name", i)
			}
			if j < len(p) && p[j] == '<' {
				return "", nil, fmt.Errorf("parameter %q has a constraint: give its field a type instead (an integer field rejects other values with a 400 and is documented as an integer)", name)
			}
			if j < len(p) && p[j] == '?' {
				return "", nil, fmt.Errorf("optional parameter %q: OpenAPI path parameters are required; declare one route with it and one without", name)
			}
			if seen[name] {
				return "", nil, fmt.Errorf("parameter %q appears twice", name)
			}
			seen[name] = true
			params = append(params, name)
			b.WriteString("{" + name + "}")
			i = j
		case '*', '+':
			return "", nil, fmt.Errorf("wildcard %q has no OpenAPI form", c)
		case '?', '{', '}', '<', '>':
			return "", nil, fmt.Errorf("path has %q, which an OpenAPI path cannot hold", c)
		default:
			b.WriteByte(c)
			i++
		}
	}
	template = b.String()
	if trimmed := strings.TrimRight(template, "/"); trimmed != "" {
		template = trimmed
	} else {
		template = "/"
	}
	return template, params, nil
}

// isNameByte reports whether c may appear in a parameter name, as Fiber
// reads one.
func isNameByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
