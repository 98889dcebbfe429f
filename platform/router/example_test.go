package router_test

import (
	"fmt"
	"io"
	"net/http/httptest"

	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/router"
)

// The example of docs/routes.md, kept compiling and answering here.

var ErrBookNotFound = problem.Declare(404, "book_not_found", "Book not found")

type Book struct {
	ID    int64  `json:"id" doc:"Book id"`
	Title string `json:"title" doc:"Title" example:"Dune"`
}

type ListBooksInput struct {
	paging.Query
	Q string `query:"q" doc:"Title contains" validate:"max=100"`
}

type GetBookInput struct {
	ID int64 `path:"id" doc:"Book id"`
}

type CreateBookInput struct {
	Body struct {
		Title string `json:"title" validate:"required,max=200"`
	}
}

type Books struct{}

func (b *Books) BasePath() string { return "/books" }
func (b *Books) Tag() string      { return "Books" }
func (b *Books) Routes() []router.Route {
	return []router.Route{
		router.Get("/", b.list, router.Summary("List books"), router.Auth()),
		router.Get("/:id", b.get, router.Summary("Get a book"), router.Errors(ErrBookNotFound)),
		router.Post("/", b.create, router.Summary("Add a book"), router.Status(201), router.Auth()),
		router.Delete("/:id", b.remove, router.Summary("Remove a book"), router.Auth()),
	}
}

func (b *Books) list(c *router.Ctx, in *ListBooksInput) (*paging.Page[Book], error) {
	p := paging.New([]Book{{ID: 1, Title: "Dune"}}, 1, c.Paging())
	return &p, nil
}

func (b *Books) get(c *router.Ctx, in *GetBookInput) (*Book, error) {
	if in.ID != 1 {
		return nil, ErrBookNotFound.WithDetail("no book with id %d", in.ID)
	}
	return &Book{ID: 1, Title: "Dune"}, nil
}

func (b *Books) create(c *router.Ctx, in *CreateBookInput) (*Book, error) {
	return &Book{ID: 2, Title: in.Body.Title}, nil
}

func (b *Books) remove(c *router.Ctx, in *GetBookInput) (*router.NoContent, error) {
	return nil, nil
}

func Example() {
	r, err := router.New(router.Config{
		BasePath:    "/api",
		JWTSecret:   []byte("example-secret-0123456789abcdef01"),
		Controllers: []router.Controller{&Books{}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, target := range []string{"/api/books/1", "/api/books/7", "/api/books/abc", "/api/books"} {
		resp, _ := r.App().Test(httptest.NewRequest("GET", target, nil), -1)
		body, _ := io.ReadAll(resp.Body)
		fmt.Println(resp.StatusCode, resp.Header.Get("Content-Type"), string(body))
	}
	// Output:
	// 200 application/json {"id":1,"title":"Dune"}
	// 404 application/problem+json {"type":"urn:problem-type:book_not_found","title":"Book not found","status":404,"detail":"no book with id 7","code":"book_not_found"}
	// 400 application/problem+json {"type":"about:blank","title":"Bad Request","status":400,"detail":"Invalid path parameter.","errors":[{"field":"id","message":"must be a base-10 integer, without + or leading zeros, that fits 64 bits"}]}
	// 401 application/problem+json {"type":"urn:problem-type:unauthorized","title":"Unauthorized","status":401,"detail":"A bearer token is required.","code":"unauthorized"}
}
