package paging_test

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"slices"

	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/router"
)

// Parse reads the page and limit of a query string; a value out of range
// is a *FieldError naming the parameter, which the router answers as a
// 400 problem naming it too.
func ExampleParse() {
	p, err := paging.Parse([]byte("2"), []byte("50"), 100)
	fmt.Println(p.Page, p.Limit, p.Offset(), err)

	p, _ = paging.Parse(nil, nil, 100)
	fmt.Println(p.Page, p.Limit, "(the defaults)")

	_, err = paging.Parse([]byte("0"), []byte("500"), 100)
	if fe, ok := errors.AsType[*paging.FieldError](err); ok {
		fmt.Println(fe.Field, fe.Message)
	}
	// Output:
	// 2 50 100 <nil>
	// 0 20 (the defaults)
	// limit must be 100 or less
}

// bookKeys names the keys a list of books may be sorted by.
type bookKeys struct{}

func (bookKeys) SortKeys() []string { return []string{"title", "year"} }

type listBooksInput struct {
	paging.Query
	paging.SortQuery[bookKeys]
}

type book struct {
	Title string `json:"title"`
	Year  int    `json:"year"`
}

// A list route's input embeds SortQuery: the router reads sort into
// in.Sort, checked against the keys, and the handler orders by it (here
// in memory; database.WithSort on a table).
func ExampleSortQuery() {
	books := []book{{"Dune", 1965}, {"Emma", 1815}, {"Ulysses", 1922}, {"Beloved", 1987}}
	list := func(c *router.Ctx, in *listBooksInput) (*paging.Page[book], error) {
		sorted := slices.Clone(books)
		slices.SortStableFunc(sorted, func(a, b book) int {
			for _, k := range in.Sort {
				n := cmp.Compare(a.Year, b.Year)
				if k.Column == "title" {
					n = cmp.Compare(a.Title, b.Title)
				}
				if k.Desc {
					n = -n
				}
				if n != 0 {
					return n
				}
			}
			return 0
		})
		p := c.Paging()
		from, to := min(p.Offset(), len(sorted)), min(p.Offset()+p.Limit, len(sorted))
		page := paging.New(sorted[from:to], len(sorted), p)
		return &page, nil
	}
	r, err := router.New(router.Config{Controllers: []router.Controller{router.Group{Path: "/books", Declared: []router.Route{
		router.Get("/", list),
	}}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, target := range []string{"/books?sort=-title&limit=2", "/books?sort=author"} {
		resp, _ := r.App().Test(httptest.NewRequest("GET", target, nil), -1)
		body, _ := io.ReadAll(resp.Body)
		fmt.Println(resp.StatusCode, string(body))
		if link := resp.Header.Get("Link"); link != "" {
			fmt.Println("Link:", link)
		}
	}
	// Output:
	// 200 {"data":[{"title":"Ulysses","year":1922},{"title":"Emma","year":1815}],"page":0,"page_size":2,"max_page":1,"has_prev":false,"has_next":true,"total_elements":4,"total_exact":true}
	// Link: </books?sort=-title&limit=2&page=1>; rel="next", </books?sort=-title&limit=2>; rel="first"
	// 400 {"type":"about:blank","title":"Bad Request","status":400,"detail":"Invalid paging parameter sort: must be keys of title, year, separated by commas, each after a - for a descending order.","errors":[{"field":"sort","message":"must be keys of title, year, separated by commas, each after a - for a descending order"}]}
}
