package router

import (
	"github.com/valyala/fasthttp"

	"github.com/asapjs/fiber-template/platform/paging"
)

// listing is how the binder reads the inputs of a list: page and limit,
// when the input embeds paging.Query, and the sort, when it embeds a
// paging.SortQuery (sortKeys are the keys its type names).
type listing struct {
	paged    bool
	maxLimit int
	sortKeys []string
}

// read parses the paging and the sort of a request's query args: each
// sent at most once and not empty, page and limit canonical integers in
// range, sort keys of the route; anything else is a *paging.FieldError
// naming the parameter, a 400. A route that is not a list gets the
// default paging.
func (l listing) read(args *fasthttp.Args) (paging.Paging, []paging.SortKey, error) {
	pg := paging.Paging{Page: paging.DefaultPage, Limit: paging.DefaultLimit, MaxLimit: l.maxLimit}
	if l.paged {
		page, err := nonEmpty(args, paging.PageParam)
		if err != nil {
			return pg, nil, err
		}
		limit, err := nonEmpty(args, paging.LimitParam)
		if err != nil {
			return pg, nil, err
		}
		if pg, err = paging.Parse(page, limit, l.maxLimit); err != nil {
			return pg, nil, err
		}
	}
	if len(l.sortKeys) == 0 {
		return pg, nil, nil
	}
	raw, err := nonEmpty(args, paging.SortParam)
	if err != nil {
		return pg, nil, err
	}
	sort, err := paging.ParseSort(string(raw), l.sortKeys)
	return pg, sort, err
}

// emptyMessage is what an empty query value is told: the document does
// not allow empty values (allowEmptyValue is false), so q= is not "no q".
const emptyMessage = "must not be empty"

// nonEmpty returns the value of the paging query parameter name, nil when
// it is absent; sent empty, it is a *paging.FieldError naming it.
func nonEmpty(args *fasthttp.Args, name string) ([]byte, error) {
	v := args.Peek(name)
	switch {
	case len(v) == 0 && args.Has(name):
		return nil, &paging.FieldError{Field: name, Message: emptyMessage}
	case len(v) > 0 && sentTwice(args, name):
		return nil, &paging.FieldError{Field: name, Message: repeatedMessage}
	}
	return v, nil
}
