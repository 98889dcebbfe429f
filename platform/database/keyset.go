package database

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"

	"github.com/asapjs/fiber-template/platform/paging"
)

// keyset pages one query by the values of its keys.
type keyset struct {
	keys   []paging.SortKey
	fields []*schema.Field
	// kinds are the kinds of the keys' values, which the cursors of the
	// list must hold (layout).
	kinds []paging.Kind
	// sqlite compares times as the text SQLite keeps them in.
	sqlite bool
	// table is the model's table, and unique the indexes in keys of the
	// columns that identify a row: a cursor too long for every key's
	// value holds theirs alone.
	table  string
	unique []int
}

// newKeyset resolves the keys against the model T. A column may be
// qualified ("u.id"); its field is the one with the unqualified name. A
// key's column may not hold NULL, which no row comparison can order past,
// and its Go type must be one a cursor holds: an integer (but uint64), a
// float, a bool, a string or time.Time.
func newKeyset[T any](db *bun.DB, keys []paging.SortKey, unique []string) (*keyset, error) {
	t := reflect.TypeFor[T]()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("keyset paging needs a struct model, not %s", t)
	}
	table := db.Table(t)
	ks := &keyset{keys: keys, fields: make([]*schema.Field, len(keys)), kinds: make([]paging.Kind, len(keys)),
		sqlite: DialectOfDB(db) == SQLite, table: table.Name}
	for i, k := range keys {
		name := k.Column[strings.LastIndexByte(k.Column, '.')+1:]
		f := columnOf(table, name)
		if f == nil {
			return nil, fmt.Errorf("keyset column %q is not a column of %s", k.Column, table.Name)
		}
		if f.IsPtr || (f.NullZero && !f.NotNull && !f.IsPK) {
			return nil, fmt.Errorf("keyset column %q of %s may be NULL, which a keyset cannot page past", k.Column, table.Name)
		}
		kind, ok := kindOf(f.IndirectType)
		if !ok {
			return nil, fmt.Errorf("keyset column %q of %s is a %s, which a cursor cannot hold", k.Column, table.Name, f.IndirectType)
		}
		ks.fields[i], ks.kinds[i] = f, kind
		if slices.Contains(unique, k.Column) {
			ks.unique = append(ks.unique, i)
		}
	}
	return ks, nil
}

// kindOf is the kind of a cursor's values of a column of Go type t.
func kindOf(t reflect.Type) (paging.Kind, bool) {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return paging.KindInt, true
	case reflect.Float32, reflect.Float64:
		return paging.KindFloat, true
	case reflect.Bool:
		return paging.KindBool, true
	case reflect.String:
		return paging.KindString, true
	}
	return paging.KindTime, t == reflect.TypeFor[time.Time]()
}

// layout is what the list's cursors hold: the kinds of its keys, and of
// its unique columns for a cursor that names a row.
func (ks *keyset) layout() paging.Layout {
	return paging.Layout{Keys: ks.kinds, Row: ks.rowKinds()}
}

// rowKinds are the kinds of the unique columns' values.
func (ks *keyset) rowKinds() []paging.Kind {
	out := make([]paging.Kind, len(ks.unique))
	for i, k := range ks.unique {
		out[i] = ks.kinds[k]
	}
	return out
}

// rowKey returns, of a row's values of the keys, those of its unique
// columns.
func (ks *keyset) rowKey(values []any) []any {
	out := make([]any, len(ks.unique))
	for i, k := range ks.unique {
		out[i] = values[k]
	}
	return out
}

// row selects the row whose unique columns have the values key.
func (ks *keyset) row(db *bun.DB, key []any) *bun.SelectQuery {
	q := db.NewSelect().TableExpr("? AS keyset_row", bun.Ident(ks.table))
	for i, k := range ks.unique {
		q = q.Where("keyset_row.? = ?", bun.Ident(ks.fields[k].Name), key[i])
	}
	return q
}

// afterRow keeps the rows of q that come after the row whose unique
// columns have the values key, by its values of the keys as they are now.
func (ks *keyset) afterRow(db *bun.DB, q *bun.SelectQuery, key []any) (*bun.SelectQuery, error) {
	if len(key) != len(ks.unique) {
		return nil, fmt.Errorf("the cursor has %d keys for %d columns", len(key), len(ks.unique))
	}
	values := make([]any, len(ks.keys))
	for i, f := range ks.fields {
		values[i] = subquery{ks.row(db, key).ColumnExpr("keyset_row.?", bun.Ident(f.Name))}
	}
	return ks.after(q, values)
}

// subquery appends a query in parentheses, as a value.
type subquery struct{ q *bun.SelectQuery }

func (s subquery) AppendQuery(gen schema.QueryGen, b []byte) ([]byte, error) {
	b = append(b, '(')
	b, err := s.q.AppendQuery(gen, b)
	return append(b, ')'), err
}

// keysOf is the order of a list sorted by sort and made unique by the
// columns of unique: the sort keys, then each column of unique that they do
// not name, in the direction of the last sort key, so that one index on
// (key, id) serves a key both ways.
func keysOf(sort []paging.SortKey, unique []string) []paging.SortKey {
	keys := slices.Clip(sort)
	desc := len(sort) > 0 && sort[len(sort)-1].Desc
	for _, col := range unique {
		if !slices.ContainsFunc(sort, func(k paging.SortKey) bool { return k.Column == col }) {
			keys = append(keys, paging.SortKey{Column: col, Desc: desc})
		}
	}
	return keys
}

// digest identifies the list a cursor belongs to: the base query's SQL,
// filter values included, and the keys with their directions.
func (ks *keyset) digest(sql string) string {
	h := sha256.New()
	h.Write([]byte(sql))
	for _, k := range ks.keys {
		h.Write([]byte("\x00" + k.String()))
	}
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:12])
}

// order orders q by the keys.
func (ks *keyset) order(q *bun.SelectQuery) *bun.SelectQuery {
	for _, k := range ks.keys {
		if k.Desc {
			q = q.OrderExpr("? DESC", bun.Ident(k.Column))
		} else {
			q = q.OrderExpr("? ASC", bun.Ident(k.Column))
		}
	}
	return q
}

// after keeps the rows of q that come after the values in the keys'
// order. Keys all in one direction are one row comparison, which both
// databases evaluate column by column and PostgreSQL answers from an
// index on the columns; mixed directions are spelled out: a row is after
// when it is after on a key and equal on every key before it.
func (ks *keyset) after(q *bun.SelectQuery, values []any) (*bun.SelectQuery, error) {
	if len(values) != len(ks.keys) {
		return nil, fmt.Errorf("the cursor has %d keys for %d columns", len(values), len(ks.keys))
	}
	if ks.sqlite {
		values = slices.Clone(values)
		for i, v := range values {
			if t, ok := v.(time.Time); ok {
				values[i] = sqliteTime(t, ks.fields[i].SQLDefault != "")
			}
		}
	}
	if !slices.ContainsFunc(ks.keys, func(k paging.SortKey) bool { return k.Desc != ks.keys[0].Desc }) {
		var args []any
		for _, k := range ks.keys {
			args = append(args, bun.Ident(k.Column))
		}
		args = append(args, values...)
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(values)), ", ")
		op := " > "
		if ks.keys[0].Desc {
			op = " < "
		}
		return q.Where("("+marks+")"+op+"("+marks+")", args...), nil
	}
	return q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
		for i, k := range ks.keys {
			q = q.WhereGroup(" OR ", func(q *bun.SelectQuery) *bun.SelectQuery {
				for j := range i {
					q = q.Where("? = ?", bun.Ident(ks.keys[j].Column), values[j])
				}
				if k.Desc {
					return q.Where("? < ?", bun.Ident(k.Column), values[i])
				}
				return q.Where("? > ?", bun.Ident(k.Column), values[i])
			})
		}
		return q
	}), nil
}

// values returns the keyset values of row, as a cursor holds them.
func (ks *keyset) values(row reflect.Value) []any {
	out := make([]any, len(ks.fields))
	for i, f := range ks.fields {
		v := f.Value(row)
		switch ks.kinds[i] {
		case paging.KindInt:
			if v.CanInt() {
				out[i] = v.Int()
			} else {
				out[i] = int64(v.Uint())
			}
		case paging.KindFloat:
			out[i] = v.Float()
		case paging.KindBool:
			out[i] = v.Bool()
		case paging.KindString:
			out[i] = v.String()
		default:
			out[i] = v.Interface().(time.Time)
		}
	}
	return out
}

// sqliteTime is t as SQLite holds it in a column, whose order is the
// text's. Bun writes "2006-01-02 15:04:05.999999+00:00" (no fraction when
// it is zero); a column's SQL default, CURRENT_TIMESTAMP for created_at,
// writes whole seconds as "2006-01-02 15:04:05". So a whole second in a
// column with a default is taken to be the default's; a row of such a
// column that the application wrote itself with a whole second is the one
// case this reads wrong.
func sqliteTime(t time.Time, defaulted bool) string {
	t = t.UTC()
	if defaulted && t.Nanosecond() == 0 {
		return t.Format(time.DateTime)
	}
	return t.Format("2006-01-02 15:04:05.999999-07:00")
}
