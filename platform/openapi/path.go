package openapi

import (
	"net/url"
	"regexp"
	"strings"
)

// operationIDRE is what an explicit operation id may contain: characters
// that need no escaping in a URL, as documentation UIs put ids in links.
var operationIDRE = regexp.MustCompile(`^[A-Za-z0-9._~-]+$`)

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
