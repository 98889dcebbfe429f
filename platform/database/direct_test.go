package database

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// TestBunPoolReadTellsThePoolsQueries: the direct read takes only a query
// Bun would run on the database's own pool, and gives back one of a
// transaction or a held connection and of a database with a resolver
// (read replicas) or a query hook but Trace's. Bun keeps what it reads
// unexported: an upgrade that renames them fails here, not in a
// transaction read outside itself.
func TestBunPoolReadTellsThePoolsQueries(t *testing.T) {
	db := memoryDB(t)
	replicated := bun.NewDB(db.DB, pgdialect.New(), bun.WithConnResolver(&Replicas{}))
	traced := Trace(db, tracenoop.NewTracerProvider())
	for _, tc := range []struct {
		name         string
		db           *bun.DB
		q            *bun.SelectQuery
		pool, traced bool
	}{
		{"the pool's", db, db.NewSelect(), true, false},
		{"of a database Trace traces", traced, traced.NewSelect(), true, true},
		// A transaction's query is given the transaction as its
		// connection (tests/integration reads one's page).
		{"given a connection of its own", db, db.NewSelect().Conn(db.DB), false, false},
		{"of a database with read replicas", replicated, replicated.NewSelect(), false, false},
		{"of a database with a query hook of its own", db.WithQueryHook(sessionHook{}), db.NewSelect(), false, false},
		{"of a traced database with a query hook of its own", traced.WithQueryHook(sessionHook{}), db.NewSelect(), false, false},
	} {
		if pool, traced := bunPoolRead(tc.db, tc.q); pool != tc.pool || traced != tc.traced {
			t.Errorf("a query %s: bunPoolRead = %t, %t; want %t, %t", tc.name, pool, traced, tc.pool, tc.traced)
		}
	}
}

// role is a named text without a Scan method.
type role string

// TestDirectModels: a model of basic kinds (a type of its package that does
// not scan itself included), time.Time and pointers to them is read
// directly; one with a hook on its scanned rows, a field Bun reads as JSON,
// a sql.Scanner or a pointer to a pointer is Bun's.
func TestDirectModels(t *testing.T) {
	db := memoryDB(t)
	type basic struct {
		ID    int64
		Name  string
		Seen  *time.Time
		Score float32
		On    *bool
		Small uint16
		Ended bun.NullTime
		Role  role
	}
	type withMap struct {
		ID   int64
		Tags map[string]string
	}
	type withJSONText struct {
		ID  int64
		Raw string `bun:"raw,json_use_number"`
	}
	type withScanner struct {
		ID   int64
		Name scanned
	}
	type withPointerPointer struct {
		ID   int64
		Name **string
	}
	type withUint64 struct {
		ID  int64
		Big uint64
	}
	for name, got := range map[string]bool{
		"basic":                  directModel[basic](db.Table(reflect.TypeFor[basic]())),
		"a map":                  directModel[withMap](db.Table(reflect.TypeFor[withMap]())),
		"a json option":          directModel[withJSONText](db.Table(reflect.TypeFor[withJSONText]())),
		"a sql.Scanner":          directModel[withScanner](db.Table(reflect.TypeFor[withScanner]())),
		"a pointer to a pointer": directModel[withPointerPointer](db.Table(reflect.TypeFor[withPointerPointer]())),
		"a uint64":               directModel[withUint64](db.Table(reflect.TypeFor[withUint64]())),
		"a scan hook":            directModel[hooked](db.Table(reflect.TypeFor[hooked]())),
	} {
		if want := name == "basic"; got != want {
			t.Errorf("directModel of a model with %s = %t, want %t", name, got, want)
		}
	}
}

// scanned is a type with a Scan method of its own.
type scanned string

func (s *scanned) Scan(src any) error { *s = scanned("scanned"); return nil }

// hooked is a model with a hook on its scanned rows.
type hooked struct {
	ID int64
}

func (*hooked) AfterScanRow(context.Context) error { return nil }

// countedUser is a model for rendering statements.
type countedUser struct {
	bun.BaseModel `bun:"table:users"`
	ID            int64  `bun:"id,pk"`
	Role          string `bun:"role"`
}

// TestACountThroughPgxSendsBunsStatement: the count made through pgx
// sends the statement Bun writes for it, so that the two paths are one
// statement to the server (its prepared statements, its logs) and to the
// memory of overruns.
func TestACountThroughPgxSendsBunsStatement(t *testing.T) {
	db := bun.NewDB(memoryDB(t).DB, pgdialect.New())
	base := db.NewSelect().Model((*countedUser)(nil)).Where("role = ?", "admin").Where("id > ?", 10)
	c := &counter{db: db, base: base}
	sql, err := c.render()
	if err != nil {
		t.Fatal(err)
	}
	bunCount, err := db.NewSelect().ColumnExpr("count(*)").TableExpr("(?) AS counted", base).AppendQuery(db.QueryGen(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := countOf(sql); got != string(bunCount) {
		t.Errorf("the count through pgx sends\n%s\nBun writes\n%s", got, bunCount)
	}
}

// memoryDB is a new SQLite database in memory, closed when t ends.
func memoryDB(t *testing.T) *bun.DB {
	t.Helper()
	db, err := Open(context.Background(), "sqlite://:memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}
