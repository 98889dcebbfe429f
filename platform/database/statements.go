package database

import (
	"context"
	"database/sql/driver"
	"hash/maphash"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// Bun writes every value into the text of its SQL, so most statements the
// service sends are never sent again: an update of one id, an insert (a
// page after a cursor, or a row by id, read through pgx sends its values
// as parameters, see params). pgx's default prepares each new text on the
// connection and keeps it in a cache of 512: a statement sent once then
// costs a round trip to prepare it, and later a message to free it when it
// is evicted, pushing out the statements that do repeat (a list's first
// page, a count by filter). So a connection prepares a text only from the
// second time its pool sees it; the first time, the statement is parsed,
// bound and run in one round trip (pgx's exec mode), as a driver without a
// cache would.

// seenSlots is how many statement texts a pool remembers having seen; a
// text pushed out of its slot by another is taken for new once more.
const seenSlots = 4096

// seen remembers the texts of the statements a pool has sent, by hash, in
// a fixed table shared by its connections.
type seen struct {
	seed  maphash.Seed
	slots [seenSlots]atomic.Uint64
}

// again reports whether sql was sent before, and remembers it.
func (s *seen) again(sql string) bool {
	h := maphash.String(s.seed, sql) | 1 // 0 is an empty slot
	slot := &s.slots[h%seenSlots]
	if slot.Load() == h {
		return true
	}
	slot.Store(h)
	return false
}

// preparing is the connector of a pool whose connections prepare a
// statement the second time it is sent.
type preparing struct {
	driver.Connector
	seen *seen
}

// Connect opens a connection of the pool.
func (p preparing) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := p.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	sc, ok := c.(*stdlib.Conn)
	if !ok {
		return c, nil
	}
	return &preparingConn{pgxConn: sc, seen: p.seen}, nil
}

// pgxConn names the embedded connection of preparingConn so that its
// method Conn is promoted, not hidden by a field of that name.
type pgxConn = stdlib.Conn

// preparingConn is a pgx connection that sends a query it has not seen in
// exec mode. It keeps every other method of stdlib.Conn, Conn() (the pgx
// connection, for LISTEN) included.
type preparingConn struct {
	*pgxConn
	seen *seen
}

// QueryContext runs query, prepared on the connection only if it was sent
// before.
func (c *preparingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if !c.seen.again(query) {
		withMode := make([]driver.NamedValue, 0, len(args)+1)
		withMode = append(withMode, driver.NamedValue{Ordinal: 1, Value: pgx.QueryExecModeExec})
		for _, a := range args {
			a.Ordinal++
			withMode = append(withMode, a)
		}
		args = withMode
	}
	return c.pgxConn.QueryContext(ctx, query, args)
}
