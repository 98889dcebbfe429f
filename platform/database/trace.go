package database

import (
	"context"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/extra/bunotel"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/trace"
)

// Trace returns db (sharing its pool and replicas) making a client span per
// query with tp (bunotel: the operation as its name, the statement without
// its arguments, the table, the database system), as a child of the span in
// the query's context.
// Queries made outside any trace (migrations at start-up, replica health
// checks) start none, so they do not each become a trace of their own.
// Replica reads are queries of db too, and are traced alike.
func Trace(db *bun.DB, tp trace.TracerProvider) *bun.DB {
	return db.WithQueryHook(tracedQueries{bunotel.NewQueryHook(
		bunotel.WithTracerProvider(tp),
		// The pool metrics are the service's own (GET /metrics).
		bunotel.WithMeterProvider(metricnoop.NewMeterProvider()),
	)})
}

// tracedQueries passes only the queries of a traced operation to bunotel.
type tracedQueries struct{ *bunotel.QueryHook }

func (h tracedQueries) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ctx
	}
	return h.QueryHook.BeforeQuery(ctx, e)
}
