package integration

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/internal/testkit"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/router/bunext"
	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The library models of the developer tools suite: an author has one
// profile and many books, a book belongs to its author and has many tags
// through book_tags.
type (
	libAuthor struct {
		bun.BaseModel `bun:"table:authors" doc:"Writers of books"`

		ID      int64       `bun:"id,pk,autoincrement"`
		Name    string      `bun:"name,notnull" doc:"Pen name"`
		Email   string      `bun:"email,notnull,unique"`
		Profile *libProfile `bun:"rel:has-one,join:id=author_id"`
		Books   []*libBook  `bun:"rel:has-many,join:id=author_id"`
	}
	libProfile struct {
		bun.BaseModel `bun:"table:profiles"`

		ID       int64  `bun:"id,pk,autoincrement"`
		AuthorID int64  `bun:"author_id,notnull,unique"`
		Bio      string `bun:"bio"`
	}
	libBook struct {
		bun.BaseModel `bun:"table:books"`

		ID        int64      `bun:"id,pk,autoincrement"`
		AuthorID  int64      `bun:"author_id,notnull"`
		Title     string     `bun:"title,notnull"`
		Price     float64    `bun:"price,notnull,default:0"`
		Status    string     `bun:"status,notnull,default:'draft'" doc:"draft or published"`
		CreatedAt time.Time  `bun:"created_at,notnull,default:current_timestamp"`
		Author    *libAuthor `bun:"rel:belongs-to,join:author_id=id,on_delete:cascade"`
		Tags      []*libTag  `bun:"m2m:book_tags,join:Book=Tag"`
	}
	libTag struct {
		bun.BaseModel `bun:"table:tags"`

		ID   int64  `bun:"id,pk,autoincrement"`
		Name string `bun:"name,notnull,unique"`
	}
	libBookTag struct {
		bun.BaseModel `bun:"table:book_tags"`

		BookID int64    `bun:"book_id,pk"`
		Book   *libBook `bun:"rel:belongs-to,join:book_id=id,on_delete:cascade"`
		TagID  int64    `bun:"tag_id,pk"`
		Tag    *libTag  `bun:"rel:belongs-to,join:tag_id=id,on_delete:cascade"`
	}
)

// Indexes declares the secondary indexes of books.
func (*libBook) Indexes() []database.Index {
	return []database.Index{
		{Columns: []string{"author_id", "title"}, Unique: true},
		{Columns: []string{"created_at"}},
		// PostgreSQL only: Sync skips it on SQLite and the DBML leaves it out.
		{Name: "books_title_trgm_idx", Expression: "lower(title)", Using: "gin", OpClass: "gin_trgm_ops", Extension: "pg_trgm"},
	}
}

func libraryModels() []any {
	return []any{(*libAuthor)(nil), (*libProfile)(nil), (*libBook)(nil), (*libTag)(nil), (*libBookTag)(nil)}
}

var libraryTables = []string{"authors", "book_tags", "books", "profiles", "tags"}

// libraryIndexes are the declared indexes of the library models on a
// dialect: the trigram index is PostgreSQL's alone.
func libraryIndexes(dialect database.Dialect) []string {
	if dialect == database.Postgres {
		return []string{"books_author_id_title_key", "books_created_at_idx", "books_title_trgm_idx"}
	}
	return []string{"books_author_id_title_key", "books_created_at_idx"}
}

// devBackend is a database the developer tools run against.
type devBackend struct {
	name    string
	dialect database.Dialect
	dsn     func(t *testing.T) string
}

func devBackends() []devBackend {
	return []devBackend{
		{"PostgreSQL", database.Postgres, func(t *testing.T) string { return pgtest.NewDatabase(t) }},
		{"SQLite", database.SQLite, func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "app.db") }},
	}
}

// newLibraryRouter builds a bare router with the database extension over
// the library models on db and cfg's other settings.
func newLibraryRouter(t *testing.T, db *bun.DB, cfg router.Config) *router.Router {
	t.Helper()
	cfg.BasePath = "/api"
	cfg.Extensions = append(cfg.Extensions, bunext.New(database.NewCatalog(db, libraryModels()...)))
	cfg.Logger = slog.New(slog.NewTextHandler(t.Output(), nil))
	r, err := router.New(cfg)
	if err != nil {
		t.Fatalf("router.New: %v", err)
	}
	return r
}

// getAs sends GET path with an Authorization header unless it is empty.
func getAs(t *testing.T, r *router.Router, path, authorization string) response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	return do(t, r, req)
}

// catalog lists the tables or indexes of the current schema, as the
// database's own catalog names them.
func catalog(t *testing.T, db *bun.DB, dialect database.Dialect, indexes bool) []string {
	t.Helper()
	var query string
	switch {
	case dialect == database.Postgres && indexes:
		query = "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1"
	case dialect == database.Postgres:
		query = "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1"
	case indexes:
		query = "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY 1"
	default:
		query = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY 1"
	}
	var names []string
	if err := db.NewRaw(query).Scan(context.Background(), &names); err != nil {
		t.Fatalf("catalog: %v", err)
	}
	return names
}

func TestSyncCreatesTheMissingTables(t *testing.T) {
	t.Parallel()
	for _, b := range devBackends() {
		t.Run("on "+b.name, func(t *testing.T) {
			t.Parallel()
			db := openDB(t, b.dsn(t))
			r := newLibraryRouter(t, db, router.Config{})
			if got := catalog(t, db, b.dialect, false); len(got) != 0 {
				t.Fatalf("the fresh database has tables %v", got)
			}

			var first router.SyncReport
			getAs(t, r, "/api/sync", "").decode(t, http.StatusOK, &first)
			if got := slices.Sorted(slices.Values(first.Created)); !slices.Equal(got, libraryTables) || len(first.Existing) != 0 {
				t.Fatalf("first sync = %+v, want every table created", first)
			}
			if i, j := slices.Index(first.Created, "authors"), slices.Index(first.Created, "books"); i > j {
				t.Errorf("books created before authors, which it references: %v", first.Created)
			}
			if got := catalog(t, db, b.dialect, false); !slices.Equal(got, libraryTables) {
				t.Errorf("catalog tables = %v, want %v", got, libraryTables)
			}
			indexes := catalog(t, db, b.dialect, true)
			if n, want := len(first.CreatedIndexes), len(libraryIndexes(b.dialect)); n != want {
				t.Errorf("sync created the indexes %v, want %v", first.CreatedIndexes, libraryIndexes(b.dialect))
			}
			for _, ix := range libraryIndexes(b.dialect) {
				if !slices.Contains(indexes, ix) || !slices.Contains(first.CreatedIndexes, ix) {
					t.Errorf("index %s: catalog %v, report %v", ix, indexes, first.CreatedIndexes)
				}
			}

			t.Run("a second sync changes nothing", func(t *testing.T) {
				res := getAs(t, r, "/api/sync", "")
				var second router.SyncReport
				res.decode(t, http.StatusOK, &second)
				if len(second.Created) != 0 || len(second.CreatedIndexes) != 0 || !slices.Equal(second.Existing, first.Created) {
					t.Errorf("second sync = %+v, want nothing created and %v existing", second, first.Created)
				}
				if !bytes.Contains(res.body, []byte(`"created":[]`)) {
					t.Errorf("an empty list is not written as []: %s", res.body)
				}
			})

			t.Run("the tables work, foreign keys included", func(t *testing.T) {
				ctx := context.Background()
				a := &libAuthor{Name: "Ada", Email: "ada@example.com"}
				if _, err := db.NewInsert().Model(a).Exec(ctx); err != nil {
					t.Fatalf("insert author: %v", err)
				}
				bk := &libBook{AuthorID: a.ID, Title: "Notes"}
				if _, err := db.NewInsert().Model(bk).Exec(ctx); err != nil {
					t.Fatalf("insert book: %v", err)
				}
				orphan := &libBook{AuthorID: a.ID + 100, Title: "Lost"}
				if _, err := db.NewInsert().Model(orphan).Exec(ctx); err == nil {
					t.Error("a book of a missing author was inserted")
				}
			})
		})
	}
}

func TestGenerateDBML(t *testing.T) {
	t.Parallel()
	for _, b := range devBackends() {
		t.Run("on "+b.name, func(t *testing.T) {
			t.Parallel()
			r := newLibraryRouter(t, openDB(t, b.dsn(t)), router.Config{})
			res := getAs(t, r, "/api/docs/generate-dbml", "")
			if res.status != http.StatusOK {
				t.Fatalf("status %d: %s", res.status, res.body)
			}
			if ct := res.header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
				t.Errorf("Content-Type = %q", ct)
			}

			t.Run("it matches the golden file", func(t *testing.T) {
				golden := filepath.Join("testdata", "devtools_"+string(b.dialect)+".dbml")
				if *update {
					if err := os.WriteFile(golden, res.body, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run with -update to write it)", err)
				}
				if !bytes.Equal(res.body, want) {
					t.Errorf("DBML differs from %s (run with -update to accept):\n%s", golden, res.body)
				}
			})

			t.Run("the reference DBML parser reads its tables and refs", func(t *testing.T) {
				parsed := parseDBML(t, res.body)
				var tables []string
				for _, tb := range parsed.Tables {
					tables = append(tables, tb.Name)
				}
				if slices.Sort(tables); !slices.Equal(tables, libraryTables) {
					t.Errorf("tables = %v, want %v", tables, libraryTables)
				}
				var refs []string
				for _, ref := range parsed.Refs {
					refs = append(refs, ref.String())
				}
				slices.Sort(refs)
				want := []string{
					"book_tags.book_id * - 1 books.id delete=cascade", // m2m, from the join table
					"book_tags.tag_id * - 1 tags.id delete=cascade",   // m2m, from the join table
					"books.author_id * - 1 authors.id delete=cascade", // belongs-to and has-many
					"profiles.author_id 1 - 1 authors.id",             // has-one
				}
				if !slices.Equal(refs, want) {
					t.Errorf("refs =\n%s\nwant\n%s", strings.Join(refs, "\n"), strings.Join(want, "\n"))
				}
				for _, tb := range parsed.Tables {
					switch tb.Name {
					case "authors":
						if f := tb.field("id"); f == nil || !f.PK || !f.Increment {
							t.Errorf("authors.id = %+v, want an incrementing pk", f)
						}
						if f := tb.field("email"); f == nil || !f.Unique || !f.NotNull {
							t.Errorf("authors.email = %+v, want unique and not null", f)
						}
						if f := tb.field("name"); f == nil || f.Note != "Pen name" {
							t.Errorf("authors.name = %+v, want its doc as note", f)
						}
					case "books":
						if f := tb.field("status"); f == nil || f.Default == nil || f.Default.Value != "draft" {
							t.Errorf("books.status = %+v, want the default draft", f)
						}
						if len(tb.Indexes) != len(libraryIndexes(b.dialect)) || !tb.Indexes[0].Unique {
							t.Errorf("books indexes = %+v, want the %d declared for %s", tb.Indexes, len(libraryIndexes(b.dialect)), b.name)
						}
					case "book_tags":
						if len(tb.Indexes) != 1 || !tb.Indexes[0].PK || !slices.Equal(tb.Indexes[0].Columns, []string{"book_id", "tag_id"}) {
							t.Errorf("book_tags indexes = %+v, want the composite pk", tb.Indexes)
						}
					}
				}
			})
		})
	}
}

func TestDevToolsGuards(t *testing.T) {
	t.Parallel()
	users := map[string]string{"dev": "s3cret"}
	valid := "Basic " + base64.StdEncoding.EncodeToString([]byte("dev:s3cret"))
	docsAuth := router.APIDocs{UseAuth: true, Users: users}
	tests := []struct {
		name               string
		cfg                router.Config
		auth               string
		wantSync, wantDBML int
	}{
		{"in production sync is 404 and the DBML still answers", router.Config{Production: true}, "", 404, 200},
		{"in production sync answers when explicitly enabled", router.Config{Production: true, EnableSyncInProduction: true}, "", 200, 200},
		{"docs auth answers 401 without credentials", router.Config{APIDocs: docsAuth}, "", 401, 401},
		{"docs auth answers 401 to wrong credentials", router.Config{APIDocs: docsAuth}, "Basic " + base64.StdEncoding.EncodeToString([]byte("dev:nope")), 401, 401},
		{"docs auth lets valid credentials through", router.Config{APIDocs: docsAuth}, valid, 200, 200},
		{"docs auth guards sync enabled in production", router.Config{Production: true, EnableSyncInProduction: true, APIDocs: docsAuth}, "", 401, 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newLibraryRouter(t, openDB(t, "sqlite::memory:"), tt.cfg)
			for path, want := range map[string]int{"/api/sync": tt.wantSync, "/api/docs/generate-dbml": tt.wantDBML} {
				res := getAs(t, r, path, tt.auth)
				if res.status != want {
					t.Errorf("GET %s = %d, want %d: %s", path, res.status, want, res.body)
				}
				if want == http.StatusUnauthorized {
					if got := res.header.Get("WWW-Authenticate"); got != `Basic realm="Developer"` {
						t.Errorf("GET %s WWW-Authenticate = %q", path, got)
					}
				}
			}
		})
	}
}

func TestWithoutTheDatabaseExtension(t *testing.T) {
	t.Parallel()
	r, err := router.New(router.Config{
		BasePath: "/api",
		Logger:   slog.New(slog.NewTextHandler(t.Output(), nil)),
	})
	if err != nil {
		t.Fatalf("router.New: %v", err)
	}
	t.Run("the health check says the database is not configured", func(t *testing.T) {
		var got router.HealthStatus
		getAs(t, r, "/health-check", "").decode(t, http.StatusOK, &got)
		if got.Database != "not configured" {
			t.Errorf("health = %+v, want the database not configured", got)
		}
	})
	t.Run("sync and generate-dbml are 404", func(t *testing.T) {
		for _, path := range []string{"/api/sync", "/api/docs/generate-dbml"} {
			if res := getAs(t, r, path, ""); res.status != http.StatusNotFound {
				t.Errorf("GET %s = %d, want 404: %s", path, res.status, res.body)
			}
		}
	})
	t.Run("the error extension documents the problem codes", func(t *testing.T) {
		if !bytes.Contains(r.SpecJSON(), []byte(`"ProblemCode"`)) || !bytes.Contains(r.SpecJSON(), []byte(`"database_unavailable"`)) {
			t.Errorf("the spec lacks the ProblemCode enum: %s", r.SpecJSON())
		}
	})
}

// parsedDBML is what tests/dbml/parse.js prints.
type parsedDBML struct {
	Tables []parsedTable `json:"tables"`
	Refs   []parsedRef   `json:"refs"`
}

type parsedTable struct {
	Name    string        `json:"name"`
	Note    string        `json:"note"`
	Fields  []parsedField `json:"fields"`
	Indexes []struct {
		Name    string   `json:"name"`
		Columns []string `json:"columns"`
		PK      bool     `json:"pk"`
		Unique  bool     `json:"unique"`
	} `json:"indexes"`
}

type parsedField struct {
	Name      string `json:"name"`
	Type      string `json:"type"`
	PK        bool   `json:"pk"`
	Increment bool   `json:"increment"`
	NotNull   bool   `json:"not_null"`
	Unique    bool   `json:"unique"`
	Default   *struct {
		Type  string `json:"type"`
		Value string `json:"value"`
	} `json:"default"`
	Note string `json:"note"`
}

// field returns the column name of the table, or nil.
func (tb parsedTable) field(name string) *parsedField {
	for i := range tb.Fields {
		if tb.Fields[i].Name == name {
			return &tb.Fields[i]
		}
	}
	return nil
}

type parsedRef struct {
	Endpoints []struct {
		Table    string   `json:"table"`
		Fields   []string `json:"fields"`
		Relation string   `json:"relation"`
	} `json:"endpoints"`
	OnDelete string `json:"on_delete"`
}

// String writes a ref as "table.columns relation - relation table.columns",
// with its delete action.
func (r parsedRef) String() string {
	var parts []string
	for _, e := range r.Endpoints {
		parts = append(parts, e.Table+"."+strings.Join(e.Fields, ","))
	}
	if len(r.Endpoints) != 2 {
		return strings.Join(parts, " ? ")
	}
	s := parts[0] + " " + r.Endpoints[0].Relation + " - " + r.Endpoints[1].Relation + " " + parts[1]
	if r.OnDelete != "" {
		s += " delete=" + r.OnDelete
	}
	return s
}

// dbmlTool installs the pinned @dbml/core of tests/dbml once per run.
var dbmlTool struct {
	once sync.Once
	dir  string
	node string
	err  error
}

// parseDBML runs text through @dbml/core, the reference DBML parser, with
// node. Without node and npm the test is skipped, unless it runs in CI.
func parseDBML(t *testing.T, text []byte) parsedDBML {
	t.Helper()
	node, npm := testkit.Node(t, "to check the DBML with @dbml/core")
	dbmlTool.once.Do(func() {
		dbmlTool.node = node
		dbmlTool.dir, dbmlTool.err = filepath.Abs(filepath.Join("..", "dbml"))
		if dbmlTool.err != nil {
			return
		}
		if _, err := os.Stat(filepath.Join(dbmlTool.dir, "node_modules", "@dbml", "core")); err == nil {
			return
		}
		cmd := exec.CommandContext(testkit.Context(t), npm, "ci", "--no-audit", "--no-fund")
		cmd.Dir = dbmlTool.dir
		if out, err := cmd.CombinedOutput(); err != nil {
			dbmlTool.err = &installError{err: err, output: string(out)}
		}
	})
	if dbmlTool.err != nil {
		t.Fatalf("install @dbml/core: %v", dbmlTool.err)
	}
	cmd := exec.CommandContext(testkit.Context(t), dbmlTool.node, "parse.js")
	cmd.Dir = dbmlTool.dir
	cmd.Stdin = bytes.NewReader(text)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("@dbml/core rejects the DBML: %v: %s\n%s", err, stderr.String(), text)
	}
	var parsed parsedDBML
	if err := json.Unmarshal(out, &parsed); err != nil {
		t.Fatalf("parse.js output %s: %v", out, err)
	}
	return parsed
}

type installError struct {
	err    error
	output string
}

func (e *installError) Error() string { return e.err.Error() + ": " + e.output }
