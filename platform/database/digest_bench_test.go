package database

import (
	"testing"

	"github.com/asapjs/fiber-template/platform/paging"
)

// BenchmarkFilterDigest measures the digest that ties a cursor to its
// list, of a users list's filtered query sorted by -created_at.
func BenchmarkFilterDigest(b *testing.B) {
	ks := &keyset{keys: []paging.SortKey{{Column: "created_at", Desc: true}, {Column: "id"}}}
	sql := `SELECT "u"."id", "u"."email", "u"."name", "u"."role", "u"."active", "u"."created_at", "u"."version" ` +
		`FROM "users" AS "u" WHERE ("u"."role" = 'admin') AND ("u"."active" = TRUE) AND (lower("u"."name") LIKE '%smith%')`
	b.ReportAllocs()
	for b.Loop() {
		_ = ks.digest(sql)
	}
}
