package paging_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/asapjs/fiber-template/platform/paging"
)

func TestParse(t *testing.T) {
	t.Parallel()
	ok := []struct {
		name, page, limit string
		want              paging.Paging
	}{
		{"absent values take the defaults", "", "", paging.Paging{Page: 0, Limit: 20, MaxLimit: 100}},
		{"explicit values are kept", "4", "50", paging.Paging{Page: 4, Limit: 50, MaxLimit: 100}},
		{"the maximum limit is accepted", "0", "100", paging.Paging{Page: 0, Limit: 100, MaxLimit: 100}},
		{"the smallest limit is accepted", "0", "1", paging.Paging{Page: 0, Limit: 1, MaxLimit: 100}},
		{"every digit is a digit", "1234567890", "99", paging.Paging{Page: 1234567890, Limit: 99, MaxLimit: 100}},
		{"zero is zero", "0", "", paging.Paging{Page: 0, Limit: 20, MaxLimit: 100}},
		{"the largest int32 page is accepted", "2147483647", "", paging.Paging{Page: 2147483647, Limit: 20, MaxLimit: 100}},
	}
	for _, tc := range ok {
		t.Run(tc.name, func(t *testing.T) {
			got, err := paging.Parse([]byte(tc.page), []byte(tc.limit), 100)
			if err != nil || got != tc.want {
				t.Fatalf("Parse(%q, %q) = %+v, %v; want %+v", tc.page, tc.limit, got, err, tc.want)
			}
		})
	}
	bad := []struct{ name, page, limit, field string }{
		{"a negative page", "-1", "", "page"},
		{"a zero limit", "", "0", "limit"},
		{"a limit over the maximum", "", "101", "limit"},
		{"letters", "abc", "", "page"},
		{"a decimal", "", "1.5", "limit"},
		{"hexadecimal", "0x10", "", "page"},
		{"an exponent", "", "1e2", "limit"},
		{"an int32 overflow", "2147483648", "", "page"},
		{"a huge number", "", "99999999999999999999", "limit"},
		{"a lone minus", "-", "", "page"},
		{"surrounding space", " 1", "", "page"},
		// One value, one spelling: the document's integers.
		{"a leading zero", "010", "", "page"},
		{"a plus sign", "+1", "", "page"},
		{"minus zero", "-0", "", "page"},
		{"a limit with a leading zero", "", "05", "limit"},
	}
	for _, tc := range bad {
		t.Run(tc.name+" is an error naming "+tc.field, func(t *testing.T) {
			_, err := paging.Parse([]byte(tc.page), []byte(tc.limit), 100)
			var fe *paging.FieldError
			if !errors.As(err, &fe) || fe.Field != tc.field || fe.Message == "" {
				t.Fatalf("Parse(%q, %q) error = %v, want a FieldError for %s", tc.page, tc.limit, err, tc.field)
			}
		})
	}
}

func TestNew(t *testing.T) {
	t.Parallel()
	items := func(n int) []int { return make([]int, n) }
	cases := []struct {
		name             string
		items            []int
		total            int
		p                paging.Paging
		maxPage          int
		hasPrev, hasNext bool
	}{
		{"an empty result has max page -1", nil, 0, paging.Paging{Page: 0, Limit: 20}, -1, false, false},
		{"one partial page", items(5), 5, paging.Paging{Page: 0, Limit: 20}, 0, false, false},
		{"an exact multiple ends on a full page", items(15), 45, paging.Paging{Page: 2, Limit: 15}, 2, true, false},
		{"a first page of several", items(9), 45, paging.Paging{Page: 0, Limit: 9}, 4, false, true},
		{"a middle page", items(9), 45, paging.Paging{Page: 2, Limit: 9}, 4, true, true},
		{"the last partial page", items(5), 45, paging.Paging{Page: 2, Limit: 20}, 2, true, false},
		{"a page past the end", nil, 45, paging.Paging{Page: 7, Limit: 20}, 2, true, false},
		{"a limit of one", items(1), 45, paging.Paging{Page: 44, Limit: 1}, 44, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := paging.New(tc.items, tc.total, tc.p)
			if got.MaxPage != tc.maxPage || got.HasPrev != tc.hasPrev || got.HasNext != tc.hasNext ||
				got.Page != tc.p.Page || got.PageSize != tc.p.Limit || got.TotalElements != tc.total {
				t.Fatalf("New = %+v, want max_page %d has_prev %v has_next %v", got, tc.maxPage, tc.hasPrev, tc.hasNext)
			}
			b, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			var raw map[string]json.RawMessage
			if err := json.Unmarshal(b, &raw); err != nil {
				t.Fatal(err)
			}
			if string(raw["data"]) == "null" || raw["data"][0] != '[' {
				t.Fatalf("data is %s, want an array", raw["data"])
			}
			for _, key := range []string{"page", "page_size", "max_page", "has_prev", "has_next", "total_elements", "total_exact"} {
				if _, ok := raw[key]; !ok {
					t.Fatalf("%s lacks %q", b, key)
				}
			}
		})
	}
}

func TestMapKeepsTheEnvelope(t *testing.T) {
	t.Parallel()
	in := paging.New([]int{1, 2, 3}, 30, paging.Paging{Page: 1, Limit: 3})
	out := paging.Map(in, func(n int) string { return string(rune('a' + n - 1)) })
	if len(out.Data) != 3 || out.Data[2] != "c" {
		t.Fatalf("data = %v", out.Data)
	}
	if out.Page != in.Page || out.PageSize != in.PageSize || out.MaxPage != in.MaxPage ||
		out.HasPrev != in.HasPrev || out.HasNext != in.HasNext || out.TotalElements != in.TotalElements {
		t.Fatalf("envelope changed: %+v vs %+v", out, in)
	}
	if empty := paging.Map(paging.New[int](nil, 0, paging.Paging{Limit: 5}), func(n int) int { return n }); empty.Data == nil {
		t.Fatal("mapping an empty page gave nil data")
	}
}

func TestOffsetIsLimitTimesPage(t *testing.T) {
	t.Parallel()
	if got := (paging.Paging{Page: 3, Limit: 15}).Offset(); got != 45 {
		t.Fatalf("Offset = %d, want 45", got)
	}
}
