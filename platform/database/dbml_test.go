package database_test

import (
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"

	"github.com/asapjs/fiber-template/platform/database"
)

// Models of the single-purpose DBML cases.
type (
	measure struct {
		bun.BaseModel `bun:"table:measures"`

		ID     int64   `bun:"id,pk,autoincrement"`
		Value  float64 `bun:"value,notnull,default:0"`
		Taken  string  `bun:"taken,type:timestamp with time zone,default:now()"`
		Unit   string  `bun:"unit,type:varchar(16),notnull,default:'m'"`
		Active bool    `bun:"active,notnull,default:true"`
		Label  string  `bun:"label at,nullzero"`
	}
	account struct {
		bun.BaseModel `bun:"table:accounts"`

		ID     int64  `bun:"id,pk,autoincrement"`
		Tenant string `bun:"tenant,notnull,unique:tenant_login"`
		Login  string `bun:"login,notnull,unique:tenant_login"`
	}
	// document has an index PostgreSQL alone can build (a trigram GIN)
	// beside one both databases build.
	document struct {
		bun.BaseModel `bun:"table:documents"`

		ID   int64  `bun:"id,pk,autoincrement"`
		Body string `bun:"body,notnull"`
	}
	// A passport belongs to its citizen, who has one: two relations of
	// the same columns.
	citizen struct {
		bun.BaseModel `bun:"table:citizens"`

		ID       int64     `bun:"id,pk,autoincrement"`
		Passport *passport `bun:"rel:has-one,join:id=citizen_id"`
	}
	passport struct {
		bun.BaseModel `bun:"table:passports"`

		ID        int64    `bun:"id,pk,autoincrement"`
		CitizenID int64    `bun:"citizen_id,notnull,unique"`
		Citizen   *citizen `bun:"rel:belongs-to,join:citizen_id=id,on_delete:cascade"`
	}
	comment struct {
		bun.BaseModel `bun:"table:comments"`

		ID     int64   `bun:"id,pk,autoincrement"`
		BookID int64   `bun:"book_id,notnull"`
		Book   *book   `bun:"rel:belongs-to,join:book_id=id"`
		Author *author `bun:"rel:belongs-to,join:book_id=id"`
	}
)

func TestDBML(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		models []any
		want   string
	}{
		{
			name:   "a table lists its columns with pk, increment, not null, unique and notes",
			models: []any{(*author)(nil)},
			want: `// Tables of the Bun models, as SQLite creates them.

Table authors {
  id INTEGER [pk, increment]
  name VARCHAR [not null, note: 'Pen name, as \'printed\'']
  email VARCHAR [not null, unique]

  Note: 'Writers of books'
}
`,
		},
		{
			name:   "defaults are literals or expressions and odd names and types are quoted",
			models: []any{(*measure)(nil)},
			want: `// Tables of the Bun models, as SQLite creates them.

Table measures {
  id INTEGER [pk, increment]
  value "DOUBLE PRECISION" [not null, default: 0]
  taken "timestamp with time zone" [default: ` + "`now()`" + `]
  unit varchar(16) [not null, default: 'm']
  active BOOLEAN [not null, default: true]
  "label at" VARCHAR
}
`,
		},
		{
			name:   "a named unique constraint is an index",
			models: []any{(*account)(nil)},
			want: `// Tables of the Bun models, as SQLite creates them.

Table accounts {
  id INTEGER [pk, increment]
  tenant VARCHAR [not null]
  login VARCHAR [not null]

  indexes {
    (tenant, login) [unique, name: 'tenant_login']
  }
}
`,
		},
		{
			name:   "belongs-to, has-one, has-many and many-to-many relations become refs, once each",
			models: library(),
			want: `// Tables of the Bun models, as SQLite creates them.

Table authors {
  id INTEGER [pk, increment]
  name VARCHAR [not null, note: 'Pen name, as \'printed\'']
  email VARCHAR [not null, unique]

  Note: 'Writers of books'
}

Table profiles {
  id INTEGER [pk, increment]
  author_id INTEGER [not null, unique]
  bio VARCHAR
}

Table books {
  id INTEGER [pk, increment]
  author_id INTEGER [not null]
  title VARCHAR [not null]
  status VARCHAR [not null, default: 'draft']
  created_at TIMESTAMP [not null, default: ` + "`current_timestamp`" + `]

  indexes {
    (author_id, title) [unique, name: 'books_author_id_title_key']
    created_at [name: 'books_by_date']
  }
}

Table tags {
  id INTEGER [pk, increment]
  name VARCHAR [not null, unique]
}

Table book_tags {
  book_id INTEGER [not null]
  tag_id INTEGER [not null]

  indexes {
    (book_id, tag_id) [pk]
  }
}

Ref: book_tags.book_id > books.id
Ref: book_tags.tag_id > tags.id
Ref: books.author_id > authors.id [delete: cascade]
Ref: profiles.author_id - authors.id
`,
		},
		{
			name:   "a relation to a model that is not listed makes no ref",
			models: []any{(*comment)(nil), (*author)(nil)},
			want: `// Tables of the Bun models, as SQLite creates them.

Table comments {
  id INTEGER [pk, increment]
  book_id INTEGER [not null]
}

Table authors {
  id INTEGER [pk, increment]
  name VARCHAR [not null, note: 'Pen name, as \'printed\'']
  email VARCHAR [not null, unique]

  Note: 'Writers of books'
}

Ref: comments.book_id > authors.id
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := database.NewCatalog(openSQLite(t), tt.models...).DBML()
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("DBML:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// Indexes declares a trigram index of the bodies and a plain one.
func (*document) Indexes() []database.Index {
	return []database.Index{
		{Name: "documents_body_trgm", Columns: []string{"body"}, Using: "gin", OpClass: "gin_trgm_ops", Extension: "pg_trgm"},
		{Columns: []string{"body"}},
	}
}

// postgresDialect is a database of PostgreSQL's dialect that never
// connects: the DBML needs no server.
func postgresDialect(t *testing.T) *bun.DB {
	t.Helper()
	cfg, err := pgx.ParseConfig("postgres://127.0.0.1:1/none")
	if err != nil {
		t.Fatal(err)
	}
	db := bun.NewDB(stdlib.OpenDB(*cfg), pgdialect.New())
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// TestDBMLListsTheIndexesTheDatabaseBuilds: an index of PostgreSQL alone
// is in PostgreSQL's DBML, with what DBML cannot say as its note, and left
// out of SQLite's, where Sync does not build it.
func TestDBMLListsTheIndexesTheDatabaseBuilds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		db   func(*testing.T) *bun.DB
		want string
	}{
		{"SQLite", openSQLite, `// Tables of the Bun models, as SQLite creates them.

Table documents {
  id INTEGER [pk, increment]
  body VARCHAR [not null]

  indexes {
    body [name: 'documents_body_idx']
  }
}
`},
		{"PostgreSQL", postgresDialect, `// Tables of the Bun models, as PostgreSQL creates them.

Table documents {
  id BIGSERIAL [pk, increment]
  body VARCHAR [not null]

  indexes {
    body [name: 'documents_body_trgm', note: 'using gin, operator class gin_trgm_ops, needs the extension pg_trgm']
    body [name: 'documents_body_idx']
  }
}
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := database.NewCatalog(tt.db(t), (*document)(nil)).DBML()
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("DBML:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestDBMLOneRefPerPairOfColumns: a belongs-to and a has-one of the same
// columns are one ref, one-to-one, with the belongs-to's delete action,
// whichever model is listed first.
func TestDBMLOneRefPerPairOfColumns(t *testing.T) {
	t.Parallel()
	for _, models := range [][]any{{(*passport)(nil), (*citizen)(nil)}, {(*citizen)(nil), (*passport)(nil)}} {
		got, err := database.NewCatalog(openSQLite(t), models...).DBML()
		if err != nil {
			t.Fatal(err)
		}
		if want := "Ref: passports.citizen_id - citizens.id [delete: cascade]"; refs(got) != want {
			t.Errorf("refs of %T first:\n%s\nwant:\n%s", models[0], refs(got), want)
		}
	}
}

func TestDBMLIsDeterministic(t *testing.T) {
	t.Parallel()
	first, err := database.NewCatalog(openSQLite(t), library()...).DBML()
	if err != nil {
		t.Fatal(err)
	}
	reversed := library()
	for i, j := 0, len(reversed)-1; i < j; i, j = i+1, j-1 {
		reversed[i], reversed[j] = reversed[j], reversed[i]
	}
	for range 5 {
		again, err := database.NewCatalog(openSQLite(t), library()...).DBML()
		if err != nil {
			t.Fatal(err)
		}
		if again != first {
			t.Fatalf("DBML changed between runs:\n%s\nthen:\n%s", first, again)
		}
	}
	other, err := database.NewCatalog(openSQLite(t), reversed...).DBML()
	if err != nil {
		t.Fatal(err)
	}
	if refs(other) != refs(first) {
		t.Errorf("refs depend on the model order:\n%s\nthen:\n%s", refs(first), refs(other))
	}
}

// refs returns the Ref lines of a DBML text.
func refs(dbml string) string {
	var out []string
	for _, line := range strings.Split(dbml, "\n") {
		if strings.HasPrefix(line, "Ref:") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
