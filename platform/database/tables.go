package database

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"
)

// Index is a secondary index of a model's table, which Sync creates and the
// DBML lists. Bun's tags declare columns, keys and unique constraints but no
// other index, so a model declares its indexes by implementing Indexer.
type Index struct {
	// Name is the index name, unique in the schema.
	//
	// Optional. Default: {table}_{column}_..._idx, or _key when Unique
	Name string
	// Columns are the SQL names of the indexed columns, in index order.
	//
	// Required, unless Expression is set.
	Columns []string
	// Expression is an SQL expression to index instead of Columns, such as
	// "lower(name)". Name is then required.
	//
	// Optional. Default: none
	Expression string
	// Unique makes it a unique index.
	//
	// Optional. Default: false
	Unique bool
	// Using is the PostgreSQL index method, such as "gin". An index with a
	// method is PostgreSQL's alone: on SQLite, Sync skips it and the DBML
	// leaves it out.
	//
	// Optional. Default: the database's default (btree)
	Using string
	// OpClass is the operator class of the indexed expression or columns,
	// such as "gin_trgm_ops".
	//
	// Optional. Default: none
	OpClass string
	// Extension is the PostgreSQL extension the index needs, such as
	// "pg_trgm". Sync creates it when it is missing and the database lets
	// it; when it cannot, it skips the index with a logged warning.
	//
	// Optional. Default: none
	Extension string
}

// PostgresOnly reports whether the index exists on PostgreSQL alone.
func (ix Index) PostgresOnly() bool { return ix.Using != "" || ix.OpClass != "" || ix.Extension != "" }

// Indexer is a model with secondary indexes. Indexes is called once, on the
// zero value, when the extension is built:
//
//	func (*Book) Indexes() []database.Index {
//		return []database.Index{{Columns: []string{"author_id", "title"}}}
//	}
type Indexer interface {
	// Indexes returns the model's secondary indexes.
	Indexes() []Index
}

// model is one registered model: its Bun table and its indexes with their
// names filled in.
type model struct {
	table   *schema.Table
	indexes []Index
}

// resolveModels turns the models into their Bun tables, in the order given.
// Bun resolves a many-to-many relation only once its join table is
// registered, so models without m2m fields, join tables among them, are
// resolved first. Bun reports a bad model by panicking; that panic is
// returned as an error.
func resolveModels(db *bun.DB, models []any) (_ []model, err error) {
	types := make([]reflect.Type, len(models))
	for i, m := range models {
		t := reflect.TypeOf(m)
		for t != nil && t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t == nil || t.Kind() != reflect.Struct {
			return nil, fmt.Errorf("database: model %d is %T, want a pointer to a struct", i, m)
		}
		types[i] = t
	}
	order := make([]int, len(types))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return boolOrder(hasM2MField(types[a])) - boolOrder(hasM2MField(types[b]))
	})

	tables := make([]*schema.Table, len(types))
	var current reflect.Type
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("database: model %s: %v", current, p)
		}
	}()
	for _, i := range order {
		current = types[i]
		tables[i] = db.Table(types[i])
	}

	out := make([]model, len(tables))
	seen := make(map[string]reflect.Type, len(tables))
	indexNames := make(map[string]string)
	for i, t := range tables {
		if prev, ok := seen[t.Name]; ok {
			return nil, fmt.Errorf("database: models %s and %s share the table %s", prev, t.Type, t.Name)
		}
		seen[t.Name] = t.Type
		indexes, err := modelIndexes(t)
		if err != nil {
			return nil, err
		}
		for _, ix := range indexes {
			if prev, ok := indexNames[ix.Name]; ok {
				return nil, fmt.Errorf("database: tables %s and %s both declare the index %s", prev, t.Name, ix.Name)
			}
			indexNames[ix.Name] = t.Name
		}
		out[i] = model{table: t, indexes: indexes}
	}
	return out, nil
}

func boolOrder(b bool) int {
	if b {
		return 1
	}
	return 0
}

// hasM2MField reports whether a struct declares a many-to-many relation.
func hasM2MField(t reflect.Type) bool {
	for i := range t.NumField() {
		for _, opt := range strings.Split(t.Field(i).Tag.Get("bun"), ",") {
			if strings.HasPrefix(opt, "m2m:") {
				return true
			}
		}
	}
	return false
}

// modelIndexes returns the indexes a model declares, checked against its
// columns and with default names filled in.
func modelIndexes(t *schema.Table) ([]Index, error) {
	ixr, ok := t.ZeroIface.(Indexer)
	if !ok {
		return nil, nil
	}
	declared := ixr.Indexes()
	out := make([]Index, 0, len(declared))
	for _, ix := range declared {
		switch {
		case ix.Expression != "" && len(ix.Columns) > 0:
			return nil, fmt.Errorf("database: table %s: index %q has both columns and an expression", t.Name, ix.Name)
		case ix.Expression != "" && ix.Name == "":
			return nil, fmt.Errorf("database: table %s: the index of %q needs a name", t.Name, ix.Expression)
		case ix.Expression == "" && len(ix.Columns) == 0:
			return nil, fmt.Errorf("database: table %s: index %q has no columns", t.Name, ix.Name)
		}
		for _, c := range ix.Columns {
			if columnOf(t, c) == nil {
				return nil, fmt.Errorf("database: table %s: index %q names the unknown column %q", t.Name, ix.Name, c)
			}
		}
		if ix.Name == "" {
			suffix := "_idx"
			if ix.Unique {
				suffix = "_key"
			}
			ix.Name = unqualified(t.Name) + "_" + strings.Join(ix.Columns, "_") + suffix
		}
		ix.Columns = slices.Clone(ix.Columns)
		out = append(out, ix)
	}
	return out, nil
}

// columnOf returns the column of t with the SQL name name, or nil.
func columnOf(t *schema.Table, name string) *schema.Field {
	for _, f := range t.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// splitName splits a table name Bun took from a "schema.table" tag.
func splitName(name string) (schemaName, table string) {
	if s, t, ok := strings.Cut(name, "."); ok {
		return s, t
	}
	return "", name
}

// unqualified returns a table name without its schema.
func unqualified(name string) string {
	_, t := splitName(name)
	return t
}
