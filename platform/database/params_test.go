package database

import (
	"database/sql"
	"reflect"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
)

// TestParamsNumberThePlainValues renders a PostgreSQL query with params as
// the direct read does, numbered, then as Bun does: the plain values are
// $1, $2… in the order written and sent in that order, times in UTC; a
// value that writes itself, one pgx could send otherwise, and NULL are
// written in either way; and each numbering starts again from $1.
func TestParamsNumberThePlainValues(t *testing.T) {
	sqldb, err := sql.Open("pgx", "postgres://127.0.0.1:1/never")
	if err != nil {
		t.Fatal(err)
	}
	db := bun.NewDB(sqldb, pgdialect.New())
	t.Cleanup(func() { _ = db.Close() })
	at := time.Date(2026, 11, 28, 7, 30, 0, 0, time.FixedZone("UTC+5", 5*60*60))
	type role string
	ps := newParams([]any{int64(7), bun.Ident("name"), role("admin"), at, bun.List([]int64{1, 2}), uint64(3), nil, int16(-4)})
	q := db.NewSelect().Table("t").Where("id = ? AND ? = ? AND at = ? AND id IN (?) AND u = ? AND n IS ? AND s = ?", ps.args()...)
	render := func() string {
		t.Helper()
		b, err := q.AppendQuery(db.QueryGen(), nil)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	numbered := `SELECT * FROM "t" WHERE (id = $1 AND "name" = $2 AND at = $3 AND id IN (1, 2) AND u = 3 AND n IS NULL AND s = $4)`
	sent := []any{int64(7), role("admin"), at.UTC(), int16(-4)}
	for round := range 2 {
		ps.number()
		got := render()
		if args := ps.sentArgs(); got != numbered || !reflect.DeepEqual(args, sent) {
			t.Errorf("numbering %d:\n%s\n%#v\nwant\n%s\n%#v", round+1, got, args, numbered, sent)
		}
	}
	inline := `SELECT * FROM "t" WHERE (id = 7 AND "name" = 'admin' AND at = '2026-11-28 02:30:00+00:00' AND id IN (1, 2) AND u = 3 AND n IS NULL AND s = -4)`
	if got := render(); got != inline {
		t.Errorf("after the numbering, Bun's rendering:\n%s\nwant\n%s", got, inline)
	}
}
