package database_test

import (
	"context"
	"slices"
	"testing"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
)

// sqliteObjects lists the tables or indexes (kind) the SQLite catalog holds,
// leaving out its own.
func sqliteObjects(t *testing.T, db *bun.DB, kind string) []string {
	t.Helper()
	var names []string
	err := db.NewRaw("SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_%' ORDER BY name", kind).
		Scan(context.Background(), &names)
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// memo is a model with a plain index and two of PostgreSQL's alone: a
// trigram index, with its method, operator class and extension, and a
// hash index, with its method only.
type memo struct {
	bun.BaseModel `bun:"table:memos"`

	ID    int64  `bun:"id,pk,autoincrement"`
	Title string `bun:"title,notnull"`
	Body  string `bun:"body"`
}

// Indexes declares the indexes of memos.
func (*memo) Indexes() []database.Index {
	return []database.Index{
		{Columns: []string{"title"}},
		{Name: "memos_title_trgm_idx", Expression: "lower(title)", Using: "gin", OpClass: "gin_trgm_ops", Extension: "pg_trgm"},
		{Name: "memos_body_hash_idx", Columns: []string{"body"}, Using: "hash"},
	}
}

func TestSync(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("it creates the missing tables and indexes, then finds them", func(t *testing.T) {
		t.Parallel()
		db := openSQLite(t)
		ext := database.NewCatalog(db, library()...)

		got, err := ext.Sync(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := database.SyncReport{
			Created:        []string{"authors", "profiles", "books", "tags", "book_tags"},
			Existing:       []string{},
			CreatedIndexes: []string{"books_author_id_title_key", "books_by_date"},
		}
		wantReport(t, got, want)
		tables := sqliteObjects(t, db, "table")
		if w := []string{"authors", "book_tags", "books", "profiles", "tags"}; !slices.Equal(tables, w) {
			t.Errorf("catalog tables = %v, want %v", tables, w)
		}
		indexes := sqliteObjects(t, db, "index")
		for _, ix := range want.CreatedIndexes {
			if !slices.Contains(indexes, ix) {
				t.Errorf("catalog indexes %v lack %s", indexes, ix)
			}
		}

		again, err := ext.Sync(ctx)
		if err != nil {
			t.Fatal(err)
		}
		wantReport(t, again, database.SyncReport{Created: []string{}, Existing: want.Created, CreatedIndexes: []string{}})
	})

	t.Run("it creates referenced tables first, with their foreign keys", func(t *testing.T) {
		t.Parallel()
		db := openSQLite(t)
		got, err := database.NewCatalog(db, (*bookTag)(nil), (*book)(nil), (*tag)(nil), (*author)(nil)).Sync(ctx)
		if err != nil {
			t.Fatal(err)
		}
		before := func(a, b string) bool {
			i, j := slices.Index(got.Created, a), slices.Index(got.Created, b)
			return i >= 0 && j >= 0 && i < j
		}
		if len(got.Created) != 4 || !before("authors", "books") || !before("books", "book_tags") || !before("tags", "book_tags") {
			t.Errorf("created %v, want every table after the tables it references", got.Created)
		}
		var fks []struct {
			Table string `bun:"table"`
			From  string `bun:"from"`
			To    string `bun:"to"`
		}
		if err := db.NewRaw("SELECT \"table\", \"from\", \"to\" FROM pragma_foreign_key_list('books')").Scan(ctx, &fks); err != nil {
			t.Fatal(err)
		}
		if len(fks) != 1 || fks[0].Table != "authors" || fks[0].From != "author_id" || fks[0].To != "id" {
			t.Errorf("books foreign keys = %+v, want author_id -> authors.id", fks)
		}
	})

	t.Run("on SQLite it creates the indexes SQLite has and skips PostgreSQL's", func(t *testing.T) {
		t.Parallel()
		db := openSQLite(t)
		got, err := database.NewCatalog(db, (*memo)(nil)).Sync(ctx)
		if err != nil {
			t.Fatal(err)
		}
		wantReport(t, got, database.SyncReport{Created: []string{"memos"}, Existing: []string{}, CreatedIndexes: []string{"memos_title_idx"}})
		if indexes := sqliteObjects(t, db, "index"); !slices.Equal(indexes, []string{"memos_title_idx"}) {
			t.Errorf("catalog indexes = %v, want memos_title_idx alone", indexes)
		}
	})

	t.Run("it keeps existing tables and their rows as they are", func(t *testing.T) {
		t.Parallel()
		db := openSQLite(t)
		if _, err := db.ExecContext(ctx, "CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT, extra TEXT)"); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ExecContext(ctx, "INSERT INTO tags (name, extra) VALUES ('go', 'kept')"); err != nil {
			t.Fatal(err)
		}
		got, err := database.NewCatalog(db, (*tag)(nil), (*author)(nil)).Sync(ctx)
		if err != nil {
			t.Fatal(err)
		}
		wantReport(t, got, database.SyncReport{Created: []string{"authors"}, Existing: []string{"tags"}, CreatedIndexes: []string{}})
		var extra string
		if err := db.NewRaw("SELECT extra FROM tags WHERE name = 'go'").Scan(ctx, &extra); err != nil || extra != "kept" {
			t.Errorf("the existing row reads %q, %v", extra, err)
		}
	})
}

func wantReport(t *testing.T, got, want database.SyncReport) {
	t.Helper()
	if !slices.Equal(got.Created, want.Created) || !slices.Equal(got.Existing, want.Existing) ||
		!slices.Equal(got.CreatedIndexes, want.CreatedIndexes) {
		t.Errorf("report = %+v, want %+v", got, want)
	}
}
