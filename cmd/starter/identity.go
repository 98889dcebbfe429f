package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"io"
	"strings"
	"unicode"
)

// renameOptions are the flags of rename: how the service names itself to
// its users. An empty field is derived from the project name (the module
// path's last element) when the module path changes, and left as it is
// otherwise.
type renameOptions struct {
	// Title is the docs UI's title: "Orders API" for orders. The docs
	// description is made from it.
	Title string
	// Issuer is the iss claim of the access tokens: "orders".
	Issuer string
	// Audience is the aud claim of the access tokens: "orders-api".
	Audience string
	// Verbose lists every file rewritten (-v), not only how many.
	Verbose bool
	// Library makes the service in library mode (--library): it requires
	// the platform at PlatformVersion instead of owning a copy of it.
	Library bool
	// PlatformVersion is the platform's version library mode requires
	// (--platform-version); "" is the newest release its changelog names.
	PlatformVersion string
	// WithoutAccounts removes the accounts example too (--auth issuer),
	// within library mode's all-or-nothing change.
	WithoutAccounts bool
	// settle runs go mod tidy and writes the contract and the clients again
	// once library mode's files are in place; nil runs settleLibrary. A
	// failure undoes the change.
	settle func(root string, modules []string, out io.Writer) error
}

// check refuses a title on more than one line, and an issuer or audience
// with spaces in it.
func (o renameOptions) check() error {
	if o.Title != "" && (strings.TrimSpace(o.Title) == "" || strings.IndexFunc(o.Title, unicode.IsControl) >= 0) {
		return fmt.Errorf("--title %q: want one line of text, such as \"Orders API\"", o.Title)
	}
	for flag, v := range map[string]string{"--issuer": o.Issuer, "--audience": o.Audience} {
		if strings.IndexFunc(v, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0 {
			return fmt.Errorf("%s %q: want a name without spaces, such as orders", flag, v)
		}
	}
	return nil
}

// site is a string literal of a Go file that rename sets to a value of
// its own, found by the code around it rather than by its old text, so
// that a later rename finds it again.
type site struct {
	// file is the file's slash path from the root.
	file string
	// what names the site in messages.
	what string
	// find returns the literal in the parsed file, or nil.
	find func(*ast.File) *ast.BasicLit
	// value is the text the literal is set to.
	value string
	// explicit sites were asked for on the command line: not finding one
	// is an error, not a note.
	explicit bool
}

// identitySites are the sites that name the service, for the project name
// name: the docs title and description (cmd/api/serve.go) and the token
// issuer and audience (app/app.go). A site is set when its flag was given,
// or from name when the module path changes.
func identitySites(o renameOptions, name string, moduleChanged bool) []site {
	title, issuer, audience := o.Title, o.Issuer, o.Audience
	if title == "" {
		title = titleOf(name)
	}
	if issuer == "" {
		issuer = name
	}
	if audience == "" {
		audience = strings.TrimSuffix(name, "-api") + "-api"
	}
	all := []site{
		{"cmd/api/serve.go", "docs title (router.APIDocs Name)", apiDocsField("Name"), title, o.Title != ""},
		{"cmd/api/serve.go", "docs description (router.APIDocs Description)", apiDocsField("Description"),
			title + ": users with login, CRUD and paging.", o.Title != ""},
		{"app/app.go", "token issuer (const DefaultIssuer)", constValue("DefaultIssuer"), issuer, o.Issuer != ""},
		{"app/app.go", "token audience (const DefaultAudience)", constValue("DefaultAudience"), audience, o.Audience != ""},
	}
	var sites []site
	for _, s := range all {
		if s.explicit || moduleChanged {
			sites = append(sites, s)
		}
	}
	return sites
}

// titleOf is the docs title of a project name: "order-books" is "Order
// Books API".
func titleOf(name string) string {
	words := strings.Split(name, "-")
	for i, w := range words {
		if up := strings.ToUpper(w); initialisms[up] {
			words[i] = up
		} else if w != "" {
			words[i] = strings.ToUpper(w[:1]) + w[1:]
		}
	}
	if words[len(words)-1] != "API" {
		words = append(words, "API")
	}
	return strings.Join(words, " ")
}

// apiDocsField finds the string value of field in a router.APIDocs
// composite literal.
func apiDocsField(field string) func(*ast.File) *ast.BasicLit {
	return func(f *ast.File) *ast.BasicLit {
		var found *ast.BasicLit
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || found != nil {
				return found == nil
			}
			if sel, ok := lit.Type.(*ast.SelectorExpr); !ok || sel.Sel.Name != "APIDocs" {
				return true
			}
			for _, e := range lit.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if key, ok := kv.Key.(*ast.Ident); ok && key.Name == field {
						found = stringLit(kv.Value)
					}
				}
			}
			return false
		})
		return found
	}
}

// constValue finds the string value of the package-level constant name.
func constValue(name string) func(*ast.File) *ast.BasicLit {
	return func(f *ast.File) *ast.BasicLit {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					if n.Name == name && i < len(vs.Values) {
						return stringLit(vs.Values[i])
					}
				}
			}
		}
		return nil
	}
}

// stringLit returns e when it is a string literal.
func stringLit(e ast.Expr) *ast.BasicLit {
	if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
		return lit
	}
	return nil
}
