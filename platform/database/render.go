package database

import (
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"
	"github.com/valyala/bytebufferpool"
)

// render returns the SQL of q as gen writes it. It is written into a
// pooled buffer and copied out once, where a render of its own would grow
// a new slice a few times over on every page (a list page renders twice:
// its filters for the digest and the count, then itself).
func render(q *bun.SelectQuery, gen schema.QueryGen) (string, error) {
	buf := bytebufferpool.Get()
	defer bytebufferpool.Put(buf)
	b, err := q.AppendQuery(gen, buf.B[:0])
	buf.B = b
	if err != nil {
		return "", err
	}
	return string(b), nil
}
