package paging_test

import (
	"errors"
	"testing"

	"github.com/asapjs/fiber-template/platform/paging"
)

// FuzzParse feeds Parse arbitrary page and limit values: it never panics,
// and it either returns paging within the bounds or a FieldError naming
// page or limit.
func FuzzParse(f *testing.F) {
	for _, seed := range [][2]string{{"", ""}, {"0", "20"}, {"3", "100"}, {"-1", "0"}, {"+2", "010"}, {"99999999999999999999", "1e2"}, {"0x10", " 1"}} {
		f.Add([]byte(seed[0]), []byte(seed[1]))
	}
	f.Fuzz(func(t *testing.T, page, limit []byte) {
		const maxLimit = 100
		p, err := paging.Parse(page, limit, maxLimit)
		if err != nil {
			var fe *paging.FieldError
			if !errors.As(err, &fe) || (fe.Field != "page" && fe.Field != "limit") || fe.Message == "" {
				t.Fatalf("Parse(%q, %q) = %v, want a FieldError naming page or limit", page, limit, err)
			}
			return
		}
		if p.Page < 0 || p.Limit < 1 || p.Limit > maxLimit {
			t.Fatalf("Parse(%q, %q) = %+v, out of bounds", page, limit, p)
		}
		if p.Offset() < 0 {
			t.Fatalf("Parse(%q, %q) gives the negative offset %d", page, limit, p.Offset())
		}
	})
}
