package paging

import (
	"testing"
	"time"
)

// benchPosition is the position a users page sorted by -created_at hands
// on: the last row's creation time and id, and the count its first page
// carried.
func benchPosition() Position {
	return Position{Page: 3, Limit: 20, Filter: "0123456789abcdef",
		After: []any{time.Date(2026, 11, 27, 10, 11, 12, 123456000, time.UTC), int64(481516)},
		Count: &Count{Total: 1_000_000, Exact: true, At: time.Unix(1_795_000_000, 0)}}
}

// BenchmarkCursors measures a cursor page's share of the paging work: the
// next page's cursor signed and encoded, and the cursor a request brings
// decoded and verified.
func BenchmarkCursors(b *testing.B) {
	c, err := NewCursors([]byte("bench secret"))
	if err != nil {
		b.Fatal(err)
	}
	layout := Layout{Keys: []Kind{KindTime, KindInt}, Row: []Kind{KindInt}}
	cursor, err := c.Encode(benchPosition())
	if err != nil {
		b.Fatal(err)
	}
	b.Run("op=encode", func(b *testing.B) {
		b.ReportAllocs()
		pos := benchPosition()
		for b.Loop() {
			if _, err := c.Encode(pos); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("op=decode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.Decode(cursor, layout); err != nil {
				b.Fatal(err)
			}
		}
	})
}
