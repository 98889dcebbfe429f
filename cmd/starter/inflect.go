package main

import (
	"fmt"
	"go/token"
	"strings"

	"github.com/gertd/go-pluralize"
)

// singularName returns the singular, in snake_case, of the resource name
// (a plural in snake_case): given is the --singular flag, "" when it was
// not given. Without it, the last word of name is made singular by
// go-pluralize's English rules (statuses → status, people → person,
// categories → category), and a name whose singular is the same word
// (news, sheep, series, or a singular such as order) is refused: the
// model and the list would then share their Go names, and a singular
// name is most likely a mistake for its plural.
func singularName(name, given string) (string, error) {
	if given != "" {
		if !resourceName.MatchString(given) {
			return "", fmt.Errorf("--singular %q: want a lower-case snake_case name, such as order or order_item", given)
		}
		if err := checkSingular(given); err != nil {
			return "", fmt.Errorf("--singular %q: %w", given, err)
		}
		return given, nil
	}
	prefix, last := "", name
	if i := strings.LastIndexByte(name, '_'); i >= 0 {
		prefix, last = name[:i+1], name[i+1:]
	}
	words := pluralize.NewClient()
	one := words.Singular(last)
	if one == last {
		if many := words.Plural(last); many != last {
			return "", fmt.Errorf("name %q: want a plural, such as %s%s (if %q is the plural, give its singular with --singular)", name, prefix, many, name)
		}
		return "", fmt.Errorf("name %q: its singular and plural are the same word, so the model and the list would share their names; "+
			"say the singular with --singular (--singular %s keeps one word for both)", name, name)
	}
	if !resourceName.MatchString(one) {
		return "", fmt.Errorf("name %q: its singular %q is not a snake_case name; give it with --singular", name, one)
	}
	s := prefix + one
	if err := checkSingular(s); err != nil {
		return "", fmt.Errorf("name %q: its singular %q: %w", name, s, err)
	}
	return s, nil
}

// checkSingular refuses a singular the generated Go code cannot use. It
// names Go types and files only, never a table or a column, so SQL's
// reserved words (order, user) are fine.
func checkSingular(s string) error {
	switch {
	case token.IsKeyword(s):
		return fmt.Errorf("%q is a Go keyword", s)
	case strings.Contains(s, "__") || strings.HasSuffix(s, "_"):
		return fmt.Errorf("%q has an empty word between underscores", s)
	}
	return nil
}
