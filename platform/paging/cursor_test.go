package paging_test

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/paging"
)

func TestCursors(t *testing.T) {
	t.Parallel()
	cursors, err := paging.NewCursors([]byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2024, 5, 1, 12, 0, 0, 123456789, time.UTC)
	pos := paging.Position{Page: 3, Limit: 20, Filter: "abc", After: []any{int64(42), "a:b", at, 1.5, true}}
	layout := paging.Layout{Keys: []paging.Kind{paging.KindInt, paging.KindString, paging.KindTime, paging.KindFloat, paging.KindBool}}
	cursor, err := cursors.Encode(pos)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("a cursor reads back as the same position, types included", func(t *testing.T) {
		got, err := cursors.Decode(cursor, layout)
		if err != nil {
			t.Fatal(err)
		}
		if got.Page != pos.Page || got.Limit != pos.Limit || got.Filter != pos.Filter || len(got.After) != len(pos.After) {
			t.Fatalf("Decode = %+v, want %+v", got, pos)
		}
		for i := range pos.After {
			if reflect.TypeOf(got.After[i]) != reflect.TypeOf(pos.After[i]) || !reflect.DeepEqual(got.After[i], pos.After[i]) {
				t.Errorf("key %d = %#v, want %#v", i, got.After[i], pos.After[i])
			}
		}
	})

	t.Run("a cursor is URL-safe", func(t *testing.T) {
		if strings.ContainsAny(cursor, "+/=?&% ") {
			t.Errorf("cursor %q needs escaping in a query string", cursor)
		}
	})

	other, err := paging.NewCursors([]byte("other secret"))
	if err != nil {
		t.Fatal(err)
	}
	foreign, err := other.Encode(pos)
	if err != nil {
		t.Fatal(err)
	}
	body, sig, _ := strings.Cut(cursor, ".")
	bad := []struct{ name, cursor string }{
		{"an empty cursor", ""},
		{"a cursor of another key", foreign},
		{"a cursor with another body", strings.ToUpper(body[:4]) + body[4:] + "." + sig},
		{"a cursor with a truncated signature", body + "." + sig[:len(sig)-2]},
		{"a cursor with a signature too long", body + "." + sig + sig},
		{"a cursor with a signature one character too long", body + "." + sig + "A"},
		{"a cursor without a signature", body},
		{"a signature alone", "." + sig},
	}
	for _, tt := range bad {
		t.Run(tt.name+" is a field error naming cursor", func(t *testing.T) {
			_, err := cursors.Decode(tt.cursor, layout)
			wantCursorError(t, err)
		})
	}

	t.Run("an empty secret is refused", func(t *testing.T) {
		if _, err := paging.NewCursors(nil); err == nil {
			t.Fatal("no error")
		}
	})

	t.Run("a sort key of another type is refused", func(t *testing.T) {
		if _, err := cursors.Encode(paging.Position{After: []any{[]int{1}}}); err == nil {
			t.Fatal("no error")
		}
	})
}

func TestOfKeepsMaxPageConsistentWithHasNext(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		items   int
		p       paging.Paging
		r       paging.Result
		maxPage int
	}{
		{"a lower bound below the page still shows a next page", 10, paging.Paging{Page: 5, Limit: 10}, paging.Result{HasNext: true, Total: 11}, 6},
		{"an estimate beyond a last page is cut to it", 10, paging.Paging{Page: 5, Limit: 10}, paging.Result{Total: 1000}, 5},
		{"a page past the end keeps the max page of the total", 0, paging.Paging{Page: 9, Limit: 10}, paging.Result{Total: 45, TotalExact: true}, 4},
		{"an estimate above the page is kept", 10, paging.Paging{Page: 0, Limit: 10}, paging.Result{HasNext: true, Total: 1000}, 99},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := paging.Of(make([]int, tt.items), tt.p, tt.r)
			if got.MaxPage != tt.maxPage || got.HasNext != tt.r.HasNext || got.TotalExact != tt.r.TotalExact {
				t.Fatalf("Of = %+v, want max_page %d", got, tt.maxPage)
			}
		})
	}
}

// TestCursorsRefuseSignedPositionsOutOfRange decodes cursors signed with
// the right key whose page or limit no list could have issued: the
// signature does not make them acceptable, since a page or limit out of
// range would reach the database as an offset, a page index past int32
// or a limit of no rows (or a negative one).
func TestCursorsRefuseSignedPositionsOutOfRange(t *testing.T) {
	t.Parallel()
	cursors, err := paging.NewCursors([]byte("secret"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name        string
		page, limit int
		ok          bool
	}{
		{"the first page with a limit of one", 0, 1, true},
		{"a page of the largest limit", 4, paging.DefaultMaxLimit, true},
		{"the last page whose next page fits int32", math.MaxInt32 - 1, 20, true},
		{"a negative page", -1, 20, false},
		{"the most negative page", math.MinInt, 20, false},
		{"a page whose next page is past int32", math.MaxInt32, 20, false},
		{"a page past int32", math.MaxInt32 + 1, 20, false},
		{"the largest page", math.MaxInt, 20, false},
		{"a limit of zero", 0, 0, false},
		{"a negative limit", 0, -1, false},
		{"the most negative limit", 0, math.MinInt, false},
	}
	for _, tc := range cases {
		verdict := "is refused"
		if tc.ok {
			verdict = "is accepted"
		}
		t.Run(fmt.Sprintf("%s (page %d, limit %d) %s", tc.name, tc.page, tc.limit, verdict), func(t *testing.T) {
			t.Parallel()
			pos := paging.Position{Page: tc.page, Limit: tc.limit, Filter: "f", After: []any{int64(7)}}
			cursor := signedCursor(t, cursors, pos)
			got, err := cursors.Decode(cursor, paging.Layout{Keys: []paging.Kind{paging.KindInt}})
			if tc.ok {
				if err != nil || got.Page != tc.page || got.Limit != tc.limit {
					t.Fatalf("Decode = %+v, %v; want page %d and limit %d", got, err, tc.page, tc.limit)
				}
				return
			}
			wantCursorError(t, err)
			if got.Page != 0 || got.Limit != 0 || got.After != nil {
				t.Errorf("Decode returned the position %+v with its error", got)
			}
		})
	}
}

// signedCursor encodes pos with cursors, checking that the cursor is
// signed like any other: only its page or limit can make it bad.
func signedCursor(t *testing.T, cursors *paging.Cursors, pos paging.Position) string {
	t.Helper()
	cursor, err := cursors.Encode(pos)
	if err != nil {
		t.Fatalf("Encode(%+v): %v", pos, err)
	}
	if body, sig, ok := strings.Cut(cursor, "."); !ok || body == "" || sig == "" {
		t.Fatalf("Encode(%+v) = %q, not a signed cursor", pos, cursor)
	}
	return cursor
}

// wantCursorError checks that err is the FieldError of a cursor the
// service did not issue: it names cursor and says to start again.
func wantCursorError(t *testing.T, err error) {
	t.Helper()
	var fe *paging.FieldError
	if !errors.As(err, &fe) || fe.Field != "cursor" || !strings.Contains(fe.Message, "start again without it") {
		t.Fatalf("Decode error = %v, want a FieldError naming cursor", err)
	}
}
