package openapi

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"github.com/asapjs/fiber-template/platform/paging"
)

// sortKeyRE is what a sort key may be: a column's name.
var sortKeyRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// sorting documents the sort parameter of rt: the keys it declares, each
// ascending or after a - descending, as an array sent as one
// comma-separated value. It returns the parameters to add, and fails on a
// declaration the router could not serve.
func sorting(rt Route, method string, in *input) ([]*Parameter, error) {
	if len(rt.Sort) == 0 {
		return nil, nil
	}
	if method != http.MethodGet || !outputIs(rt.Output, linkedType) {
		return nil, fmt.Errorf("route is sortable, but only a GET that answers a page (paging.Page) is")
	}
	if slices.ContainsFunc(in.params, func(p *Parameter) bool { return p.In == "query" && p.Name == paging.SortParam }) {
		return nil, fmt.Errorf("route is sortable, and its input has a query parameter %q too", paging.SortParam)
	}
	enum := make([]any, 0, 2*len(rt.Sort))
	for i, k := range rt.Sort {
		if !sortKeyRE.MatchString(k) {
			return nil, fmt.Errorf("sort key %q: want a column name (lower case letters, digits and _)", k)
		}
		if slices.Contains(rt.Sort[:i], k) {
			return nil, fmt.Errorf("sort key %q is declared twice", k)
		}
		enum = append(enum, k, "-"+k)
	}
	// A sort that is not one of these is a 400 naming sort.
	in.declared = true
	return []*Parameter{{
		Name: paging.SortParam, In: "query",
		Description: "Order of the list: one or more of " + strings.Join(rt.Sort, ", ") + ", separated by commas, " +
			"each ascending or after a - descending (sort=-" + rt.Sort[0] + " for the largest first); rows equal on " +
			"every key are in id order, in the direction of the last key. Without it, the list is in id order. A cursor belongs to the sort it was " +
			"issued with: send the same sort with it, or it is a 400.",
		Style: "form", Explode: ptr(false),
		Schema: &Schema{
			Type:     "array",
			Items:    &Schema{Type: "string", Enum: enum},
			MinItems: ptr(1), MaxItems: ptr(len(rt.Sort)), UniqueItems: true,
		},
	}}, nil
}
