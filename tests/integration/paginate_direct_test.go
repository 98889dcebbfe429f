package integration

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// kindOf is a named string type, as a generated resource's enum is.
type kindOf string

// everyKind is a row of every field type a list page reads through pgx
// (PostgreSQL, no replicas): each kind bare and as a nullable pointer, a
// NULL in a bare field included (Bun reads it as the zero value).
type everyKind struct {
	bun.BaseModel `bun:"table:every_kinds"`
	ID            int64        `bun:"id,pk"`
	Text          string       `bun:"text"`
	NullText      string       `bun:"null_text,nullzero"`
	OptText       *string      `bun:"opt_text"`
	Kind          kindOf       `bun:"kind"`
	Small         int16        `bun:"small"`
	Int           int32        `bun:"int"`
	OptInt        *int64       `bun:"opt_int"`
	Byte          uint8        `bun:"byte"`
	Flag          bool         `bun:"flag"`
	OptFlag       *bool        `bun:"opt_flag"`
	Ratio         float64      `bun:"ratio"`
	Real          float32      `bun:"real"`
	At            time.Time    `bun:"at"`
	OptAt         *time.Time   `bun:"opt_at"`
	Local         time.Time    `bun:"local"`
	Day           time.Time    `bun:"day"`
	Ended         bun.NullTime `bun:"ended"`
}

// withJSON is a model with a field Bun reads itself (a json option).
type withJSON struct {
	bun.BaseModel `bun:"table:every_kinds"`
	ID            int64             `bun:"id,pk"`
	Tags          map[string]string `bun:"tags,type:jsonb"`
}

// TestAListPageReadThroughPgxIsBunsPage: a page of rows of every kind
// read by Paginate on PostgreSQL (through pgx), and a row read by One,
// hold what Bun reads of the same rows, NULLs, time zones and dates
// included, and encode to the same JSON; a page read in a transaction sees the transaction's rows; a model
// Bun reads its own way is still read; and a traced read has its query
// span.
func TestAListPageReadThroughPgxIsBunsPage(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	db := everyKindsDB(t, ctx)
	bunRows := func(t *testing.T, q *bun.SelectQuery, dest any) {
		t.Helper()
		if err := q.Model(dest).Scan(ctx); err != nil {
			t.Fatal(err)
		}
	}
	sameJSON := func(t *testing.T, got, want any) {
		t.Helper()
		g, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		w, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		if string(g) != string(w) {
			t.Errorf("the page encodes to\n%s\nBun's rows to\n%s", g, w)
		}
	}

	t.Run("every kind, as Bun reads it", func(t *testing.T) {
		for _, p := range []paging.Paging{{Page: 0, Limit: 20}, {Page: 2, Limit: 20}, {Page: 5, Limit: 20}} {
			page, err := database.Paginate[everyKind](ctx, db.NewSelect().Order("id"), p)
			if err != nil {
				t.Fatal(err)
			}
			want := []everyKind{}
			bunRows(t, db.NewSelect().Order("id").Limit(int64(p.Limit)).Offset(int64(p.Offset())), &want)
			if len(page.Data) != len(want) {
				t.Fatalf("page %d: %d rows, Bun reads %d", p.Page, len(page.Data), len(want))
			}
			for i := range want {
				if !reflect.DeepEqual(page.Data[i], want[i]) {
					t.Errorf("page %d row %d:\n%+v\nBun reads\n%+v", p.Page, i, page.Data[i], want[i])
				}
			}
			sameJSON(t, page.Data, want)
		}
	})

	t.Run("One reads the row Bun reads, and no row is sql.ErrNoRows", func(t *testing.T) {
		for _, id := range []int64{1, 2, 3, 5, 30} {
			got, err := database.One[everyKind](ctx, db.NewSelect().Where("id = ?", id))
			if err != nil {
				t.Fatal(err)
			}
			want := new(everyKind)
			bunRows(t, db.NewSelect().Where("id = ?", id), want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("row %d:\n%+v\nBun reads\n%+v", id, got, want)
			}
		}
		if _, err := database.One[everyKind](ctx, db.NewSelect().Where("id = ?", 9999)); !errors.Is(err, sql.ErrNoRows) {
			t.Errorf("One of no row: %v, want sql.ErrNoRows", err)
		}
		if _, err := database.One[withJSON](ctx, db.NewSelect().Where("id = ?", 9999)); !errors.Is(err, sql.ErrNoRows) {
			t.Errorf("One of no row of a model Bun reads: %v, want sql.ErrNoRows", err)
		}
	})

	t.Run("a page of a transaction's query sees the transaction's rows", func(t *testing.T) {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = tx.Rollback() }()
		if _, err := tx.ExecContext(ctx, `INSERT INTO every_kinds SELECT 1000, 'in the transaction', NULL, NULL, 'paid', 1, 1, NULL, 1, true, NULL, 1, 1, now(), NULL, now(), current_date, NULL, NULL FROM every_kinds LIMIT 1`); err != nil {
			t.Fatal(err)
		}
		page, err := database.Paginate[everyKind](ctx, tx.NewSelect().Where("id = 1000"), paging.Paging{Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Data) != 1 || page.Data[0].Text != "in the transaction" {
			t.Errorf("a page of the transaction's query holds %+v, want its uncommitted row", page.Data)
		}
		row, err := database.One[everyKind](ctx, tx.NewSelect().Where("id = 1000"))
		if err != nil || row.Text != "in the transaction" {
			t.Errorf("One of the transaction's query: %+v, %v; want its uncommitted row", row, err)
		}
	})

	t.Run("a model with a field Bun reads its own way", func(t *testing.T) {
		page, err := database.Paginate[withJSON](ctx, db.NewSelect().Order("id"), paging.Paging{Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Data) != 3 || page.Data[2].Tags["n"] != "3" {
			t.Errorf("the jsonb field's page holds %+v", page.Data)
		}
	})

	t.Run("a traced page has its query's and its count's spans, once each, without values", func(t *testing.T) {
		spans := tracetest.NewInMemoryExporter()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
		traced, span := tp.Tracer("test").Start(ctx, "request")
		q := database.Trace(db, tp).NewSelect().Where("id <> ?", 41).Order("id")
		if _, err := database.Paginate[everyKind](traced, q, paging.Paging{Limit: 20}); err != nil {
			t.Fatal(err)
		}
		span.End()
		pages, counts := 0, 0
		for _, s := range spans.GetSpans() {
			if s.Name == "request" {
				continue
			}
			if s.Parent.SpanID() != span.SpanContext().SpanID() {
				t.Errorf("span %q is not a child of the request's", s.Name)
			}
			statement, rows := attributeOf(s, "db.statement"), "21"
			switch {
			case strings.HasPrefix(statement, "SELECT count(*) FROM ("):
				counts++
				rows = "1"
			case strings.Contains(statement, "LIMIT"):
				pages++
			default:
				continue
			}
			if s.Name != "SELECT" || attributeOf(s, "db.system") != "postgresql" || attributeOf(s, "db.rows_affected") != rows {
				t.Errorf("the span %q %v, want SELECT of postgresql, %s rows", s.Name, s.Attributes, rows)
			}
			if strings.Contains(statement, "41") {
				t.Errorf("the span of %s carries the filter's value", statement)
			}
		}
		if pages != 1 || counts != 1 {
			t.Errorf("%d spans of the page's query and %d of its count under the request, want 1 and 1", pages, counts)
		}
	})
}

// everyKindsDB is a new PostgreSQL database with the table every_kinds of
// 60 rows, of values and NULLs of every kind.
func everyKindsDB(t *testing.T, ctx context.Context) *bun.DB {
	t.Helper()
	db := openDB(t, pgtest.NewDatabase(t))
	for _, stmt := range []string{
		`CREATE TABLE every_kinds (
			id bigint PRIMARY KEY, text text NOT NULL, null_text text, opt_text varchar(20), kind text NOT NULL,
			small smallint NOT NULL, int integer NOT NULL, opt_int bigint, byte smallint NOT NULL,
			flag boolean NOT NULL, opt_flag boolean, ratio double precision NOT NULL, real real NOT NULL,
			at timestamptz NOT NULL, opt_at timestamptz, local timestamp NOT NULL, day date NOT NULL,
			ended timestamptz, tags jsonb)`,
		`INSERT INTO every_kinds
		 SELECT g, 'text ' || g, CASE WHEN g % 2 = 0 THEN 'n' || g END, CASE WHEN g % 3 = 0 THEN 'o' || g END,
		        (ARRAY['pending','paid','shipped'])[1 + g % 3], g, g * 1000, CASE WHEN g % 2 = 1 THEN g * 100000000000 END, g % 256,
		        g % 2 = 0, CASE WHEN g % 4 = 0 THEN g % 8 = 0 END, g / 7.0, g / 3.0,
		        timestamptz '2026-11-27 10:00:00.123456+01' + g * interval '1 hour',
		        CASE WHEN g % 5 <> 0 THEN timestamptz '2020-02-29 23:59:59+00' + g * interval '1 day' END,
		        timestamp '2026-01-01 00:00:00' + g * interval '1 minute', date '2026-03-01' + g,
		        CASE WHEN g % 3 = 1 THEN timestamptz '2026-06-01 12:00:00+02' + g * interval '1 second' END,
		        jsonb_build_object('n', g::text)
		 FROM generate_series(1, 60) AS g`,
	} {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	return db
}

// TestAListPageAllocatesLittlePerRow: a 20-row page of PostgreSQL rows
// read by Paginate allocates a bounded number of times per row, which it
// does only when read through pgx, not through database/sql.
func TestAListPageAllocatesLittlePerRow(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// Traced as the service's database is (serve.go), in a request
	// without a trace.
	db := database.Trace(everyKindsDB(t, ctx), sdktrace.NewTracerProvider())
	list := func() {
		if _, err := database.Paginate[everyKind](ctx, db.NewSelect().Order("id").Where("id > 10"), paging.Paging{Limit: 20}, database.WithCount(database.CountNone)); err != nil {
			t.Fatal(err)
		}
	}
	list()
	perRow := testing.AllocsPerRun(20, list) / 21 // the page reads one row past its limit
	// Each row's strings and its pointer fields' values are its own
	// allocations (here 4 and 4 at most); Bun through database/sql
	// made about 20 a row of this model.
	if perRow > 10 {
		t.Errorf("%.1f allocations a row, want at most 10", perRow)
	}
}
