package database

import (
	"context"
	"sync/atomic"

	"github.com/uptrace/bun"
)

// session is the state of one unit of work, a request say, that decides
// where its reads go. It is shared by pointer through the context, so a
// write deep in a repository is seen by the reads that follow it.
type session struct {
	// primary is set once the unit has written, or from the start by
	// OnPrimary; from then on its reads go to the primary.
	primary atomic.Bool
}

type sessionKey struct{}

// WithSession returns a context for one unit of work, typically a request:
// its reads go to a read replica until it writes or opens a transaction,
// and to the primary from then on, so it always reads its own writes.
// Without a session, every read outside a transaction may go to a replica.
//
// The service wraps each request's context with it; on a database without
// replicas it changes nothing.
func WithSession(ctx context.Context) context.Context {
	if _, ok := ctx.Value(sessionKey{}).(*session); ok {
		return ctx
	}
	return context.WithValue(ctx, sessionKey{}, new(session))
}

// OnPrimary returns a context whose queries all go to the primary: for
// work that must not see a replica's lag, such as migrations or a read
// that decides a write.
func OnPrimary(ctx context.Context) context.Context {
	s := new(session)
	s.primary.Store(true)
	return context.WithValue(ctx, sessionKey{}, s)
}

// readsFromPrimary reports whether the reads of ctx must go to the primary.
func readsFromPrimary(ctx context.Context) bool {
	s, ok := ctx.Value(sessionKey{}).(*session)
	return ok && s.primary.Load()
}

// sessionHook marks the session of a query's context once it writes. It
// sees every query, in transactions and raw ones too, which the replica
// resolver does not: anything but a plain SELECT counts as a write, BEGIN
// included, so a unit that opened a transaction reads from the primary
// afterwards.
type sessionHook struct{}

var _ bun.QueryHook = sessionHook{}

func (sessionHook) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context {
	if e.IQuery != nil && bun.IsReadOnlyQuery(e.IQuery) {
		return ctx
	}
	if s, ok := ctx.Value(sessionKey{}).(*session); ok {
		s.primary.Store(true)
	}
	return ctx
}

func (sessionHook) AfterQuery(context.Context, *bun.QueryEvent) {}
