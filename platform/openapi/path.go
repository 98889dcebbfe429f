package openapi

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// operationIDRE is what an explicit operation id may contain: characters
// that need no escaping in a URL, as documentation UIs put ids in links.
var operationIDRE = regexp.MustCompile(`^[A-Za-z0-9._~-]+$`)

// convertPath converts a Fiber route path to an OpenAPI path template and
// lists its parameters in order: "/users/:id" is "/users/{id}". A
// constraint (":id<int>") is dropped. Optional parameters (":id?") and
// wildcards ("*", "+") have no OpenAPI form, so they are errors. A trailing
// slash is dropped, as Fiber matches the path without it by default.
func convertPath(p string) (string, []string, error) {
	if !strings.HasPrefix(p, "/") {
		return "", nil, errors.New("path must start with '/'")
	}
	var b strings.Builder
	var params []string
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
				end := strings.IndexByte(p[j:], '>')
				if end < 0 {
					return "", nil, fmt.Errorf("constraint of parameter %q has no closing '>'", name)
				}
				j += end + 1
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
		case '?', '{', '}':
			return "", nil, fmt.Errorf("path has %q, which an OpenAPI path cannot hold", c)
		default:
			b.WriteByte(c)
			i++
		}
	}
	t := b.String()
	if trimmed := strings.TrimRight(t, "/"); trimmed != "" {
		t = trimmed
	} else {
		t = "/"
	}
	return t, params, nil
}

func isNameByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// serverBase splits a server URL into the base path that route paths are
// documented relative to, and the root to use as the server of paths
// outside that base.
func serverBase(serverURL string) (base, root string) {
	u, err := url.Parse(serverURL)
	if err != nil {
		return "", serverURL
	}
	base = strings.TrimRight(u.Path, "/")
	if u.Scheme != "" || u.Host != "" {
		root = (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
	} else {
		root = "/"
	}
	return base, root
}

// relativePath returns the paths key of a full path template, relative to
// the base path of the server, and whether the path lies outside the base.
func relativePath(template, base string) (string, bool) {
	switch {
	case base == "":
		return template, false
	case template == base:
		return "/", false
	case strings.HasPrefix(template, base+"/"):
		return template[len(base):], false
	}
	return template, true
}

// pathShape is a path template with its parameter names removed: two paths
// of the same shape match the same requests.
func pathShape(template string) string {
	var b strings.Builder
	in := false
	for _, c := range template {
		switch {
		case c == '{':
			in = true
			b.WriteString("{}")
		case c == '}':
			in = false
		case !in:
			b.WriteRune(c)
		}
	}
	return b.String()
}

// wordRE finds the words and parameters of a path template.
var wordRE = regexp.MustCompile(`\{[^}]*\}|[A-Za-z0-9]+`)

// deriveOperationID makes a camelCase operation id of a method and a path
// template: GET /api/users/{id} is "getApiUsersById".
func deriveOperationID(method, template string) string {
	var b strings.Builder
	b.WriteString(strings.ToLower(method))
	words := wordRE.FindAllString(template, -1)
	if len(words) == 0 {
		b.WriteString("Root")
	}
	for _, w := range words {
		if strings.HasPrefix(w, "{") {
			b.WriteString("By")
			for _, part := range wordRE.FindAllString(strings.Trim(w, "{}"), -1) {
				b.WriteString(upperFirst(part))
			}
			continue
		}
		b.WriteString(upperFirst(w))
	}
	return b.String()
}
