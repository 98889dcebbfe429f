package integration

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/platform/paging"
)

func TestUserListForgedCursorKinds(t *testing.T) {
	forEachUserBackend(t, testUserListForgedCursorKinds)
}

// userListLayout is the layout of the users list's cursors under a sort
// value: its keys' kinds, then the id's, which also names a row.
func userListLayout(sort string) paging.Layout {
	var keys []paging.Kind
	for _, k := range strings.Split(sort, ",") {
		switch strings.TrimPrefix(k, "-") {
		case "created_at":
			keys = append(keys, paging.KindTime)
		case "name", "email":
			keys = append(keys, paging.KindString)
		}
	}
	return paging.Layout{Keys: append(keys, paging.KindInt), Row: []paging.Kind{paging.KindInt}}
}

// testUserListForgedCursorKinds sends the users list cursors signed with
// the service's own cursor secret, as someone holding it could: the list's
// own next_cursor with one value replaced by a value of another kind (a
// text or a time for the id, an id for the name...), by a text holding
// NUL or a time in the year 0, or naming a row by something else than its
// id. Each is the 400 of a bad cursor naming cursor, never a comparison
// the database refuses (a 500 on PostgreSQL), and never a page.
func testUserListForgedCursorKinds(t *testing.T, newDSN func(*testing.T) string) {
	secret := []byte("users cursor kinds secret 0123456789")
	a := newUserAPIWith(t, newDSN(t), app.Options{CursorSecret: secret})
	ids, token := pagingSeed(t, a, 6)
	cursors, err := paging.NewCursors(secret)
	if err != nil {
		t.Fatal(err)
	}
	// A value of each kind, each one a row could not have as the key of
	// another kind.
	values := map[paging.Kind]any{
		paging.KindInt:    ids["member"][0],
		paging.KindFloat:  2.5,
		paging.KindBool:   true,
		paging.KindString: fmt.Sprint(ids["member"][0]),
		paging.KindTime:   time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC),
	}
	kinds := []paging.Kind{paging.KindInt, paging.KindFloat, paging.KindBool, paging.KindString, paging.KindTime}
	for _, sort := range []string{"", "name", "-created_at", "email,-created_at"} {
		t.Run("sorted by "+cmp.Or(sort, "id"), func(t *testing.T) {
			query := url.Values{"limit": {"2"}}
			if sort != "" {
				query.Set("sort", sort)
			}
			layout := userListLayout(sort)
			issued, err := cursors.Decode(a.listPage(t, token, query).NextCursor, layout)
			if err != nil {
				t.Fatalf("the list's own cursor: %v", err)
			}
			// list sends the list's cursor with its values replaced by
			// after, naming a row when row is set.
			list := func(t *testing.T, row bool, after ...any) response {
				t.Helper()
				pos := issued
				pos.After, pos.Row = after, row
				cursor, err := cursors.Encode(pos)
				if err != nil {
					t.Fatal(err)
				}
				q := url.Values{"cursor": {cursor}}
				if sort != "" {
					q.Set("sort", sort)
				}
				return a.send(t, req{method: http.MethodGet, path: "/api/users?" + q.Encode(), token: token})
			}

			t.Run("the list's own values re-signed are followed", func(t *testing.T) {
				var p pageJSON
				list(t, false, issued.After...).decode(t, http.StatusOK, &p)
				if p.Page != 1 || len(p.Data) != 2 {
					t.Errorf("page %d with %d users, want page 1 of 2", p.Page, len(p.Data))
				}
			})
			t.Run("a row named by its id is followed", func(t *testing.T) {
				list(t, true, ids["member"][0]).decode(t, http.StatusOK, &pageJSON{})
			})

			type forged struct {
				name  string
				row   bool
				after []any
			}
			var bad []forged
			for i, want := range layout.Keys {
				for _, kind := range kinds {
					if kind == want {
						continue
					}
					after := slices.Clone(issued.After)
					after[i] = values[kind]
					bad = append(bad, forged{fmt.Sprintf("a %s for key %d, a %s", kind, i, want), false, after})
				}
				after := slices.Clone(issued.After)
				switch want {
				case paging.KindString:
					after[i] = "Pager\x0000"
					bad = append(bad, forged{fmt.Sprintf("a text holding NUL for key %d", i), false, after})
				case paging.KindTime:
					after[i] = time.Date(0, 6, 1, 0, 0, 0, 0, time.UTC)
					bad = append(bad, forged{fmt.Sprintf("a time in the year 0 for key %d", i), false, after})
				}
			}
			bad = append(bad,
				forged{"one value more", false, append(slices.Clone(issued.After), values[paging.KindInt])},
				forged{"one value fewer", false, issued.After[1:]},
			)
			if len(issued.After) > 1 {
				bad = append(bad, forged{"a row named by the sort keys' values", true, issued.After})
			}
			for _, kind := range kinds[1:] {
				bad = append(bad, forged{"a row named by a " + kind.String(), true, []any{values[kind]}})
			}
			for _, tt := range bad {
				t.Run(tt.name+" is a 400 naming cursor", func(t *testing.T) {
					list(t, tt.row, tt.after...).wantFields(t, http.StatusBadRequest, "cursor")
				})
			}
		})
	}
}
