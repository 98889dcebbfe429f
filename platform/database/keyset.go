package database

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"
)

// keyset pages one query by the values of its columns.
type keyset struct {
	columns []string
	fields  []*schema.Field
}

// newKeyset resolves the keyset columns against the model T. A column may
// be qualified ("u.id"); its field is the one with the unqualified name.
func newKeyset[T any](db *bun.DB, columns []string) (*keyset, error) {
	t := reflect.TypeFor[T]()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("keyset paging needs a struct model, not %s", t)
	}
	table := db.Table(t)
	ks := &keyset{columns: columns, fields: make([]*schema.Field, len(columns))}
	for i, col := range columns {
		name := col[strings.LastIndexByte(col, '.')+1:]
		f := columnOf(table, name)
		if f == nil {
			return nil, fmt.Errorf("keyset column %q is not a column of %s", col, table.Name)
		}
		ks.fields[i] = f
	}
	return ks, nil
}

// digest identifies the list a cursor belongs to: the base query's SQL,
// filter values included, and the keyset columns.
func (ks *keyset) digest(sql string) string {
	sum := sha256.Sum256([]byte(sql + "\x00" + strings.Join(ks.columns, ",")))
	return base64.RawURLEncoding.EncodeToString(sum[:12])
}

// order orders q by the columns, ascending.
func (ks *keyset) order(q *bun.SelectQuery) *bun.SelectQuery {
	for _, col := range ks.columns {
		q = q.OrderExpr("? ASC", bun.Ident(col))
	}
	return q
}

// after keeps the rows of q that come after the values: a row comparison,
// which PostgreSQL and SQLite both evaluate column by column.
func (ks *keyset) after(q *bun.SelectQuery, values []any) (*bun.SelectQuery, error) {
	if len(values) != len(ks.columns) {
		return nil, fmt.Errorf("the cursor has %d keys for %d columns", len(values), len(ks.columns))
	}
	args := make([]any, 0, 2*len(values))
	for _, col := range ks.columns {
		args = append(args, bun.Ident(col))
	}
	args = append(args, values...)
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(values)), ", ")
	return q.Where("("+marks+") > ("+marks+")", args...), nil
}

// values returns the keyset values of row, as a cursor holds them.
func (ks *keyset) values(row reflect.Value) ([]any, error) {
	out := make([]any, len(ks.fields))
	for i, f := range ks.fields {
		v := f.Value(row)
		switch v.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			out[i] = v.Int()
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32:
			out[i] = int64(v.Uint())
		case reflect.Float32, reflect.Float64:
			out[i] = v.Float()
		case reflect.Bool:
			out[i] = v.Bool()
		case reflect.String:
			out[i] = v.String()
		default:
			t, ok := v.Interface().(time.Time)
			if !ok {
				return nil, fmt.Errorf("keyset column %s is a %s, which a cursor cannot hold", f.Name, v.Type())
			}
			out[i] = t
		}
	}
	return out, nil
}
