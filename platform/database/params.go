package database

import (
	"database/sql/driver"
	"reflect"
	"strconv"
	"time"

	"github.com/uptrace/bun/schema"
)

// params are the values a query brings in from outside: a cursor's last
// row keys, which the page's rows come after (Paginate), or the values of
// a condition (OneWhere). Bun writes each into the query's text, as it
// writes any value. The direct read (readDirect) numbers them instead, $1,
// $2…, and sends them beside the text: every page of a list after its
// first, and every read of a row by id, then has the same text, which the
// pool's connections prepare from its second time (pgxOf), so PostgreSQL
// plans it once and answers in binary, as a query written with parameters
// by hand is answered. Written into the text, each was a query the server
// had never seen: parsed, planned and answered in text each time.
type params struct {
	values []any
	// sent are the values written as $1, $2… while the direct read
	// renders the query (numbered), in the order they are written.
	sent     []any
	numbered bool
}

// newParams holds values, each time in UTC, as Bun writes a time.
func newParams(values []any) *params {
	p := &params{values: make([]any, len(values))}
	for i, v := range values {
		if t, ok := v.(time.Time); ok {
			v = t.UTC()
		}
		p.values[i] = v
	}
	return p
}

// args returns the values as the query's arguments, each one written in
// its place.
func (p *params) args() []any {
	args := make([]any, len(p.values))
	for i := range p.values {
		args[i] = param{set: p, i: i}
	}
	return args
}

// number makes the renderings until sent number the values that pgx sends
// as Bun writes them.
func (p *params) number() {
	p.numbered, p.sent = true, p.sent[:0]
}

// sentArgs ends the numbering and returns the values numbered, the
// arguments of the query rendered meanwhile. Bun's read, if it comes to
// one, writes them in again.
func (p *params) sentArgs() []any {
	p.numbered = false
	return p.sent
}

// param is the i-th value of a params, in the query.
type param struct {
	set *params
	i   int
}

// AppendQuery writes the value, or its number while the set is numbered
// and pgx sends the value as Bun writes it.
func (p param) AppendQuery(gen schema.QueryGen, b []byte) ([]byte, error) {
	v := p.set.values[p.i]
	if !p.set.numbered || !sendable(v) {
		return gen.Append(b, v), nil
	}
	p.set.sent = append(p.set.sent, v)
	return strconv.AppendInt(append(b, '$'), int64(len(p.set.sent)), 10), nil
}

// AppendNamedArg names nothing. Bun reads a query's only argument, when
// it is a struct, as the source of named arguments (?name); this keeps it
// from looking a param's fields up as a table's.
func (p param) AppendNamedArg(_ schema.QueryGen, b []byte, _ string) ([]byte, bool) {
	return b, false
}

// sendable reports whether pgx sends v as the same value Bun writes: a
// bool, a number that fits a bigint, a string, a time or bytes, of any
// named type. A value that writes itself (a Bun query appender, a driver
// Valuer), a NULL or anything else is written in.
func sendable(v any) bool {
	switch v.(type) {
	case nil, schema.QueryAppender, driver.Valuer:
		return false
	case time.Time, []byte:
		return true
	}
	switch reflect.TypeOf(v).Kind() {
	case reflect.Bool, reflect.String, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return true
	}
	return false
}
