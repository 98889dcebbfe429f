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

// sorting documents the sort parameter of a route whose input embeds a
// paging.SortQuery: the keys its type names, each ascending or after a -
// descending, as an array sent as one comma-separated value. It returns
// the parameters to add, and fails on a declaration the router could not
// serve.
func sorting(rt Route, method string, in *input) ([]*Parameter, error) {
	if in.plan.Sort == nil {
		return nil, nil
	}
	keys := in.plan.SortKeys
	if method != http.MethodGet || !outputIs(rt.Output, linkedType) {
		return nil, fmt.Errorf("route is sortable, but only a GET that answers a page (paging.Page) is")
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("route is sortable by no key")
	}
	enum := make([]any, 0, 2*len(keys))
	for i, k := range keys {
		if !sortKeyRE.MatchString(k) {
			return nil, fmt.Errorf("sort key %q: want a column name (lower case letters, digits and _)", k)
		}
		if slices.Contains(keys[:i], k) {
			return nil, fmt.Errorf("sort key %q is declared twice", k)
		}
		enum = append(enum, k, "-"+k)
	}
	// A sort that is not one of these is a 400 naming sort.
	in.declared = true
	return []*Parameter{{
		Name: paging.SortParam, In: "query",
		Description: "Order of the list: one or more of " + strings.Join(keys, ", ") + ", separated by commas, " +
			"each ascending or after a - descending (sort=-" + keys[0] + " for the largest first); rows equal on " +
			"every key are in id order, in the direction of the last key. Without it, the list is in id order. A cursor belongs to the sort it was " +
			"issued with: send the same sort with it, or it is a 400.",
		Style: "form", Explode: ptr(false),
		Schema: &Schema{
			Type:     "array",
			Items:    &Schema{Type: "string", Enum: enum},
			MinItems: ptr(1), MaxItems: ptr(len(keys)), UniqueItems: true,
		},
	}}, nil
}
