package paging_test

import (
	"errors"
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
	cursor, err := cursors.Encode(pos)
	if err != nil {
		t.Fatal(err)
	}

	t.Run("a cursor reads back as the same position, types included", func(t *testing.T) {
		got, err := cursors.Decode(cursor)
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
		{"a cursor without a signature", body},
		{"a signature alone", "." + sig},
	}
	for _, tt := range bad {
		t.Run(tt.name+" is a field error naming cursor", func(t *testing.T) {
			_, err := cursors.Decode(tt.cursor)
			var fe *paging.FieldError
			if !errors.As(err, &fe) || fe.Field != "cursor" || fe.Message == "" {
				t.Fatalf("Decode error = %v, want a FieldError naming cursor", err)
			}
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
