package integration

import (
	"context"
	"database/sql"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
)

// TestAWalkByCursorOfEveryKindIsTheDatabasesOrder: on PostgreSQL, a page
// after a cursor sends the cursor's keys as parameters of a text every
// page shares (its second page is sent unprepared, the later ones
// prepared). Walked by cursor, sorted by a column of each kind a cursor
// holds, in each direction and mixed, under a filter, the list gives
// every row once in the order PostgreSQL's ORDER BY gives, through pgx as
// through Bun (in a transaction), and walked twice alike.
func TestAWalkByCursorOfEveryKindIsTheDatabasesOrder(t *testing.T) {
	t.Parallel()
	ctx, db, cursors := walkTable(t)
	walk := func(t *testing.T, idb bun.IDB, sort []paging.SortKey) []int64 {
		t.Helper()
		var ids []int64
		cursor := ""
		for range 20 {
			var page []int64
			page, cursor = pageIDs(t, ctx, cursors, idb.NewSelect().Where("id > ?", 3), 7, cursor, database.WithSort(sort...))
			if ids = append(ids, page...); cursor == "" {
				return ids
			}
		}
		t.Fatalf("sort %v: more than 20 pages of 7 rows", sort)
		return nil
	}
	for _, sort := range [][]paging.SortKey{
		nil,
		{{Column: "text"}}, {{Column: "kind", Desc: true}},
		{{Column: "small"}}, {{Column: "int", Desc: true}}, {{Column: "byte"}},
		{{Column: "flag"}}, {{Column: "ratio", Desc: true}}, {{Column: "real"}},
		{{Column: "at", Desc: true}}, {{Column: "local"}}, {{Column: "day", Desc: true}},
		{{Column: "flag", Desc: true}, {Column: "local"}},
		{{Column: "kind"}, {Column: "at", Desc: true}},
	} {
		name := "id"
		var order []string
		for _, k := range sort {
			name = k.String() + "," + name
			order = append(order, `"`+k.Column+`"`+map[bool]string{false: " ASC", true: " DESC"}[k.Desc])
		}
		t.Run(name, func(t *testing.T) {
			last := len(sort) > 0 && sort[len(sort)-1].Desc
			order := append(order, "id"+map[bool]string{false: " ASC", true: " DESC"}[last])
			var want []int64
			if err := db.NewSelect().Table("every_kinds").Column("id").Where("id > ?", 3).
				OrderExpr(strings.Join(order, ", ")).Scan(ctx, &want); err != nil {
				t.Fatal(err)
			}
			if got := walk(t, db, sort); !slices.Equal(got, want) {
				t.Errorf("walked through pgx:\n%v\nORDER BY %s gives\n%v", got, strings.Join(order, ", "), want)
			}
			if got := walk(t, db, sort); !slices.Equal(got, want) {
				t.Errorf("walked again, every page prepared:\n%v\nwant\n%v", got, want)
			}
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = tx.Rollback() }()
			if got := walk(t, tx, sort); !slices.Equal(got, want) {
				t.Errorf("walked through Bun:\n%v\nwant\n%v", got, want)
			}
		})
	}
}

// TestCursorPagesShareOnePreparedStatement: the pages of a walk by cursor
// after its first are one statement, which the connection prepared once,
// not a text for each cursor's values.
func TestCursorPagesShareOnePreparedStatement(t *testing.T) {
	t.Parallel()
	ctx, db, cursors := walkTable(t)
	db.SetMaxOpenConns(1) // the statements prepared are the connection's
	pages, cursor := 0, ""
	for {
		_, cursor = pageIDs(t, ctx, cursors, db.NewSelect(), 5, cursor, database.WithCount(database.CountNone))
		if pages++; cursor == "" {
			break
		}
	}
	if pages != 12 {
		t.Fatalf("%d pages of 5 of 60 rows, want 12", pages)
	}
	prepared := preparedStatements(t, ctx, db)
	if len(prepared) != 1 || !strings.Contains(prepared[0], `"id") > ($1)`) {
		t.Errorf("prepared statements of every_kinds after 12 pages:\n%s\nwant one, of the pages after a cursor, whose key is $1", strings.Join(prepared, "\n"))
	}
}

// TestACursorTimeInAnotherZonePagesAsBunDoes: a cursor's time written
// with another zone's offset is the same instant; after it, a page sorted
// by a timestamp column without a zone is the one Bun's read gives, which
// writes every time in UTC, through pgx as through Bun.
func TestACursorTimeInAnotherZonePagesAsBunDoes(t *testing.T) {
	t.Parallel()
	ctx, db, cursors := walkTable(t)
	sort := database.WithSort(paging.SortKey{Column: "local"})
	page := func(idb bun.IDB, cursor string) []int64 {
		t.Helper()
		ids, _ := pageIDs(t, ctx, cursors, idb.NewSelect(), 5, cursor, sort)
		return ids
	}
	_, second := pageIDs(t, ctx, cursors, db.NewSelect(), 5, "", sort)
	layout := paging.Layout{Keys: []paging.Kind{paging.KindTime, paging.KindInt}}
	pos, err := cursors.Decode(second, layout)
	if err != nil {
		t.Fatal(err)
	}
	pos.After[0] = pos.After[0].(time.Time).In(time.FixedZone("UTC+5", 5*60*60))
	zoned, err := cursors.Encode(pos)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	want := page(tx, second)
	if !slices.Equal(want, []int64{6, 7, 8, 9, 10}) {
		t.Fatalf("the second page by local through Bun: %v, want 6 to 10", want)
	}
	for _, c := range []struct{ name, cursor string }{{"its own cursor", second}, {"the cursor in UTC+5", zoned}} {
		for _, via := range []struct {
			name string
			idb  bun.IDB
		}{{"pgx", db}, {"Bun", tx}} {
			if got := page(via.idb, c.cursor); !slices.Equal(got, want) {
				t.Errorf("after %s, through %s: %v, want %v", c.name, via.name, got, want)
			}
		}
	}
}

// walkTable is the table every_kinds in a new database, a context for the
// test and the cursors its walks are signed with.
func walkTable(t *testing.T) (context.Context, *bun.DB, *paging.Cursors) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	t.Cleanup(cancel)
	cursors, err := paging.NewCursors([]byte("walk test"))
	if err != nil {
		t.Fatal(err)
	}
	return ctx, everyKindsDB(t, ctx), cursors
}

// preparedStatements returns the statements of every_kinds prepared on
// db's connection: db must hold one at most.
func preparedStatements(t *testing.T, ctx context.Context, db *bun.DB) []string {
	t.Helper()
	var prepared []string
	if err := db.NewRaw(`SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%every_kinds%'`).Scan(ctx, &prepared); err != nil {
		t.Fatal(err)
	}
	return prepared
}

// pageIDs reads the page of q, a select of every_kinds, after cursor (""
// for the first), keyed by id and signed with cursors, with opts besides:
// the ids of its rows and its next cursor.
func pageIDs(t *testing.T, ctx context.Context, cursors *paging.Cursors, q *bun.SelectQuery, limit int, cursor string, opts ...database.Option) ([]int64, string) {
	t.Helper()
	opts = append([]database.Option{database.WithCursors(cursors), database.WithKeyset("id"), database.WithCursor(cursor)}, opts...)
	page, err := database.Paginate[everyKind](ctx, q, paging.Paging{Limit: limit}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]int64, len(page.Data))
	for i, row := range page.Data {
		ids[i] = row.ID
	}
	return ids, page.NextCursor
}

// TestOneWhereReadsTheRowBunReads: a condition's values of each kind,
// sent as parameters through pgx, find the row Bun finds with them written
// in (in a transaction), times given in another zone included, beside
// arguments that write themselves.
func TestOneWhereReadsTheRowBunReads(t *testing.T) {
	t.Parallel()
	ctx, db, _ := walkTable(t)
	zone := time.FixedZone("UTC+5", 5*60*60)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	for _, id := range []int64{1, 17, 42} {
		row := new(everyKind)
		if err := tx.NewSelect().Model(row).Where("id = ?", id).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			where string
			args  []any
		}{
			{"id = ?", []any{id}},
			{"text = ? AND id = ?", []any{row.Text, id}},
			{"kind = ? AND small = ? AND byte = ? AND id = ?", []any{row.Kind, row.Small, row.Byte, id}},
			{"flag = ? AND int = ? AND id = ?", []any{row.Flag, row.Int, id}},
			{"at = ? AND local = ? AND id = ?", []any{row.At.In(zone), row.Local.In(zone), id}},
			{"day = ? AND id = ?", []any{row.Day, id}},
			{"? = ? AND id IN (?)", []any{bun.Ident("ratio"), row.Ratio, bun.List([]int64{id, -1})}},
		} {
			for _, via := range []struct {
				name string
				idb  bun.IDB
			}{{"pgx", db}, {"Bun", tx}} {
				got, err := database.OneWhere[everyKind](ctx, via.idb, c.where, c.args...)
				if err != nil {
					t.Fatalf("row %d, %s through %s: %v", id, c.where, via.name, err)
				}
				if !reflect.DeepEqual(got, row) {
					t.Errorf("row %d, %s through %s:\n%+v\nBun reads\n%+v", id, c.where, via.name, got, row)
				}
			}
		}
	}
	for _, idb := range []bun.IDB{db, tx} {
		if _, err := database.OneWhere[everyKind](ctx, idb, "id = ?", 9999); !errors.Is(err, sql.ErrNoRows) {
			t.Errorf("OneWhere of no row: %v, want sql.ErrNoRows", err)
		}
	}
}

// TestARowByIDIsOnePreparedStatement: reads of rows by id are one
// statement, which the connection prepared once, not a text for each id.
func TestARowByIDIsOnePreparedStatement(t *testing.T) {
	t.Parallel()
	ctx, db, _ := walkTable(t)
	db.SetMaxOpenConns(1) // the statements prepared are the connection's
	for id := range int64(10) {
		row, err := database.OneWhere[everyKind](ctx, db, "id = ?", id+1)
		if err != nil || row.ID != id+1 {
			t.Fatalf("row %d: %+v, %v", id+1, row, err)
		}
	}
	prepared := preparedStatements(t, ctx, db)
	if len(prepared) != 1 || !strings.Contains(prepared[0], `(id = $1)`) {
		t.Errorf("prepared statements of every_kinds after 10 rows by id:\n%s\nwant one, whose id is $1", strings.Join(prepared, "\n"))
	}
}
