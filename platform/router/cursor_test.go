package router_test

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"testing"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

type (
	// cursorRow is a row of the list that pages by cursor.
	cursorRow struct {
		bun.BaseModel `bun:"table:cursor_rows"`

		ID int64 `bun:"id,pk,autoincrement"`
		N  int   `bun:"n,notnull"`
	}
	// cursorRowOut is a row as the list answers it.
	cursorRowOut struct {
		ID int64 `json:"id"`
	}
	// cursorListInput is the query of a list that takes page, limit and
	// cursor, as a keyset list's does.
	cursorListInput struct {
		paging.Query
		paging.CursorQuery
	}
)

// testCursors are the cursors the lists of these tests sign.
func testCursors(t *testing.T) *paging.Cursors {
	t.Helper()
	cursors, err := paging.NewCursors([]byte("cursor secret"))
	if err != nil {
		t.Fatal(err)
	}
	return cursors
}

// cursorList serves the n rows of a SQLite table on GET /rows, paged by
// keyset with cursors signed by cursors; a bad cursor's *paging.FieldError
// goes back to the router as it is, which answers it with a 400 naming it.
func cursorList(t *testing.T, cursors *paging.Cursors, n int) *router.Router {
	t.Helper()
	db := servicetest.SQLite(t)
	ctx := t.Context()
	if _, err := db.NewCreateTable().Model((*cursorRow)(nil)).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	rows := make([]cursorRow, n)
	for i := range rows {
		rows[i].N = i
	}
	if _, err := db.NewInsert().Model(&rows).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	list := func(c *router.Ctx, in *cursorListInput) (*paging.Page[cursorRowOut], error) {
		page, err := database.Paginate[cursorRow](c.Context(), db.NewSelect().Model((*cursorRow)(nil)), c.Paging(),
			database.WithCursors(cursors), database.WithKeyset("id"), database.WithCursor(in.Cursor))
		if err != nil {
			return nil, err
		}
		out := paging.Map(page, func(r cursorRow) cursorRowOut { return cursorRowOut{ID: r.ID} })
		return &out, nil
	}
	return newRouter(t, router.Config{Controllers: []router.Controller{
		router.Group{Declared: []router.Route{router.Get("/rows", list)}},
	}})
}

// TestASignedCursorOutOfRangeIsA400 sends a list route cursors signed
// with the service's own key, re-signed from the next_cursor the list
// answered with only the page or the limit changed: one out of range is
// refused with the 400 of a cursor the service did not issue, as a forged
// one is, and never reaches the database as a page.
func TestASignedCursorOutOfRangeIsA400(t *testing.T) {
	t.Parallel()
	cursors := testCursors(t)
	r := cursorList(t, cursors, 10)
	resp, body := get(t, r, "/rows?limit=3")
	first := decode[paging.Page[cursorRowOut]](t, body)
	if resp.StatusCode != http.StatusOK || first.NextCursor == "" {
		t.Fatalf("first page: status %d: %s", resp.StatusCode, body)
	}
	issued, err := cursors.Decode(first.NextCursor, paging.Layout{Keys: []paging.Kind{paging.KindInt}})
	if err != nil {
		t.Fatal(err)
	}
	// resign is the list's own cursor with page and limit replaced.
	resign := func(page, limit int) string {
		pos := issued
		pos.Page, pos.Limit = page, limit
		cursor, err := cursors.Encode(pos)
		if err != nil {
			t.Fatal(err)
		}
		return "/rows?cursor=" + url.QueryEscape(cursor)
	}

	t.Run("the list's own cursor re-signed with another page and limit in range is followed", func(t *testing.T) {
		resp, body := get(t, r, resign(1, 4))
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
		if got := decode[paging.Page[cursorRowOut]](t, body); got.Page != 2 || got.PageSize != 4 || len(got.Data) != 4 {
			t.Fatalf("page %d of size %d with %d rows, want page 2 of 4 rows", got.Page, got.PageSize, len(got.Data))
		}
	})

	cases := []struct {
		name        string
		page, limit int
	}{
		{"a negative page", -1, 3},
		{"the most negative page", math.MinInt, 3},
		{"a page whose next page is past int32", math.MaxInt32, 3},
		{"a page past int32", math.MaxInt32 + 1, 3},
		{"a limit of zero", 0, 0},
		{"a negative limit", 0, -5},
		{"a limit over the list's largest", 0, paging.DefaultMaxLimit + 1},
		{"a limit of 2^40", 0, 1 << 40},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s (page %d, limit %d) is a 400 naming cursor", tc.name, tc.page, tc.limit), func(t *testing.T) {
			resp, body := get(t, r, resign(tc.page, tc.limit))
			p := wantProblem(t, resp, body, http.StatusBadRequest)
			const message = "is not a cursor this service issued; start again without it"
			if p.Detail != "Invalid paging parameter cursor: "+message+"." ||
				len(p.Errors) != 1 || p.Errors[0].Field != "cursor" || p.Errors[0].Message != message {
				t.Errorf("problem %+v, want the 400 of a cursor the service did not issue", p)
			}
		})
	}
}
