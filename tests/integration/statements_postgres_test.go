package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// typedRow holds one value of each kind of column the service's models
// use, as Bun scans it.
type typedRow struct {
	bun.BaseModel `bun:"table:typed_rows"`
	ID            int64           `bun:"id,pk"`
	Name          string          `bun:"name"`
	Active        bool            `bun:"active"`
	Score         float64         `bun:"score"`
	Amount        string          `bun:"amount"`
	At            time.Time       `bun:"at"`
	Day           time.Time       `bun:"day"`
	Blob          []byte          `bun:"blob"`
	Doc           json.RawMessage `bun:"doc,type:jsonb"`
	Tags          []string        `bun:"tags,array"`
	Ref           string          `bun:"ref"`
	Missing       *string         `bun:"missing"`
}

// TestStatementsPreparedTheSecondTime: Bun writes every value into its
// SQL, so a pool prepares a statement on its connection only when the
// same text comes a second time; the first time it is run in one round
// trip without being kept. Both ways read every column type alike.
func TestStatementsPreparedTheSecondTime(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db := openDB(t, pgtest.NewDatabase(t))
	db.SetMaxOpenConns(1) // one session, whose prepared statements are counted
	if _, err := db.ExecContext(ctx, `CREATE TABLE typed_rows (
		id bigint PRIMARY KEY, name text NOT NULL, active boolean NOT NULL, score double precision NOT NULL,
		amount numeric(12,2) NOT NULL, at timestamptz NOT NULL, day date NOT NULL, blob bytea NOT NULL,
		doc jsonb NOT NULL, tags text[] NOT NULL, ref uuid NOT NULL, missing text)`); err != nil {
		t.Fatal(err)
	}
	want := typedRow{
		ID: 7, Name: "Zoë 'quoted'", Active: true, Score: 0.1, Amount: "1234.50",
		At:  time.Date(2026, 11, 25, 8, 9, 10, 123456000, time.UTC),
		Day: time.Date(2026, 2, 28, 0, 0, 0, 0, time.UTC), Blob: []byte{0, 1, 0xfe, 0xff},
		Doc: json.RawMessage(`{"a": [1, 2]}`), Tags: []string{"x", "y z", `"q"`}, Ref: "0b9e0bb6-5a39-4d55-9a4e-4c4f1b0c4b1e",
	}
	if _, err := db.NewInsert().Model(&want).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	prepared := func(t *testing.T, text string) bool {
		t.Helper()
		var n int
		if err := db.NewRaw("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE ? AND statement NOT LIKE '%pg_prepared_statements%'",
			"%"+text+"%").Scan(ctx, &n); err != nil {
			t.Fatal(err)
		}
		return n > 0
	}

	// Texts sent once each are not prepared.
	for i := range 20 {
		var got typedRow
		if err := db.NewSelect().Model(&got).Where("id = ?", want.ID).Where("? = ?", i, i).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		assertSameRow(t, fmt.Sprintf("text sent once (%d)", i), got, want)
	}
	if prepared(t, "= 19") {
		t.Error("a text sent once was prepared on the connection")
	}

	// The same text sent again is prepared, and reads the same.
	for i := range 3 {
		var got typedRow
		if err := db.NewSelect().Model(&got).Where("id = ?", want.ID).Where("'again' = 'again'").Scan(ctx); err != nil {
			t.Fatal(err)
		}
		assertSameRow(t, fmt.Sprintf("text sent again (%d)", i), got, want)
	}
	if !prepared(t, "'again' = 'again'") {
		t.Error("a text sent three times was never prepared on the connection")
	}
}

// assertSameRow fails t when got differs from want in any column.
func assertSameRow(t *testing.T, what string, got, want typedRow) {
	t.Helper()
	var doc, wantDoc any
	if err := json.Unmarshal(got.Doc, &doc); err != nil {
		t.Fatalf("%s: doc %q: %v", what, got.Doc, err)
	}
	_ = json.Unmarshal(want.Doc, &wantDoc)
	if !reflect.DeepEqual(doc, wantDoc) {
		t.Errorf("%s: doc %s, want %s", what, got.Doc, want.Doc)
	}
	got.Doc, want.Doc = nil, nil
	if !got.At.Equal(want.At) || !got.Day.Equal(want.Day) {
		t.Errorf("%s: at %v day %v, want %v %v", what, got.At, got.Day, want.At, want.Day)
	}
	got.At, got.Day, want.At, want.Day = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}
