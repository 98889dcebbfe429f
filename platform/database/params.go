package database

import (
	"strconv"
	"time"

	"github.com/uptrace/bun/schema"
)

// params are the values a cursor brings into a page query: the last
// row's keys, which the page's rows come after. Bun writes each into the
// query's text, as it writes any value. The direct read (readDirect)
// numbers them instead, $1, $2…, and sends them beside the text: every
// page of a list after its first then has the same text, which the pool's
// connections prepare from its second time (pgxOf), so PostgreSQL plans it
// once and answers in binary, as a query written with parameters by hand
// is answered. Written into the text, each cursor page was a query the
// server had never seen: parsed, planned and answered in text each time.
type params struct {
	values []any
	// numbered is set while the direct read renders the query.
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

// param is the i-th value of a params, in the query.
type param struct {
	set *params
	i   int
}

// AppendQuery writes the value, or its number while the set is numbered.
func (p param) AppendQuery(gen schema.QueryGen, b []byte) ([]byte, error) {
	if !p.set.numbered {
		return gen.Append(b, p.set.values[p.i]), nil
	}
	return strconv.AppendInt(append(b, '$'), int64(p.i+1), 10), nil
}
