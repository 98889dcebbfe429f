package router_test

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/asapjs/fiber-template/platform/etag"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/router"
)

// article is a stored row, whose version raises with every write.
type article struct {
	ID      int64
	Title   string
	Version int64
}

// articleBody is the PUT body of an article.
type articleBody struct {
	Title string `json:"title" validate:"required,max=100"`
}

// articleOut is an article in its API form: its version is its ETag.
type articleOut struct {
	ID      int64  `json:"id"`
	Title   string `json:"title"`
	version int64
}

func (a *articleOut) EntityTag() string { return etag.Version(a.version) }

type putArticleInput struct {
	router.IfMatchHeader
	ID   int64 `path:"id"`
	Body articleBody
}

var errArticleNotFound = problem.Declare(404, "article_not_found", "Article not found")

// staleArticle is the store's StaleWrite: the row was at another version.
type staleArticle struct{ current int64 }

func (e staleArticle) Error() string         { return "article: stale version" }
func (e staleArticle) CurrentVersion() int64 { return e.current }

// articles is a store in memory whose update checks the version, as
// UPDATE … WHERE id = ? AND version = ? does.
type articles struct {
	mu   sync.Mutex
	rows map[int64]article
}

func (s *articles) get(_ context.Context, id int64) (*article, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.rows[id]
	if !ok {
		return nil, errArticleNotFound
	}
	return &a, nil
}

func (s *articles) update(_ context.Context, _, next *article, version int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now := s.rows[next.ID].Version; now != version {
		return staleArticle{now}
	}
	next.Version = version + 1
	s.rows[next.ID] = *next
	return nil
}

// A PUT whose input embeds IfMatchHeader hands its write to Versioned:
// the first write with the current ETag is applied and answers the new
// one; a second write with the same, now stale, ETag is a 412 that carries
// the current ETag, and writes nothing.
func ExampleVersioned() {
	store := &articles{rows: map[int64]article{1: {ID: 1, Title: "Dune", Version: 1}}}
	writes := router.Versioned[article, articleBody]{
		Get:     store.get,
		Version: func(a *article) int64 { return a.Version },
		Form:    func(a article) articleBody { return articleBody{Title: a.Title} },
		Row: func(b articleBody, current *article) (*article, error) {
			return &article{ID: current.ID, Title: b.Title}, nil
		},
		Update: store.update,
	}
	put := func(c *router.Ctx, in *putArticleInput) (*articleOut, error) {
		a, err := writes.Put(c, in.ID, in.Body)
		if err != nil {
			return nil, err
		}
		return &articleOut{ID: a.ID, Title: a.Title, version: a.Version}, nil
	}
	r, err := router.New(router.Config{Controllers: []router.Controller{router.Group{Path: "/articles", Declared: []router.Route{
		router.Put("/:id", put, router.Errors(errArticleNotFound, router.ErrEditConflict)),
	}}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Two clients read the article at version 1 ("1" its ETag) and write.
	for _, title := range []string{"Dune Messiah", "Children of Dune"} {
		req := httptest.NewRequest("PUT", "/articles/1", strings.NewReader(`{"title":"`+title+`"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("If-Match", `"1"`)
		resp, _ := r.App().Test(req, -1)
		body, _ := io.ReadAll(resp.Body)
		fmt.Println(resp.StatusCode, resp.Header.Get("ETag"), string(body))
	}
	stored, _ := store.get(context.Background(), 1)
	fmt.Println("stored:", stored.Title, "at version", stored.Version)
	// Output:
	// 200 "2" {"id":1,"title":"Dune Messiah"}
	// 412 "2" {"type":"urn:problem-type:precondition_failed","title":"Precondition failed","status":412,"detail":"The representation changed since the client read it (If-Match); read it again and retry.","code":"precondition_failed"}
	// stored: Dune Messiah at version 2
}
