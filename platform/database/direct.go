package database

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"reflect"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/schema"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// A list's page is the read every client repeats, and on PostgreSQL most
// of its cost beyond the query itself was database/sql's: every column of
// every row turned into a driver.Value (an allocation each), then Bun
// reading those back by reflection. readDirect runs the SQL Bun renders
// for the page through pgx itself, on a connection of the same pool, and
// decodes each column from the wire into the model's field (the field the
// model's bun tag names): one way of mapping columns, Bun's, and no
// driver.Value between. Whatever it does not handle the way Bun would goes
// through Bun as before.

// errNotDirect is why readDirect gave a query back to Bun after running
// it: a column it cannot decode as Bun would.
var errNotDirect = errors.New("not a direct read")

// readDirect reads the rows of the page query q, a select of T's table,
// into items through pgx, and reports whether it did: false, with nothing
// read, when the read is one for Bun. It is one for Bun unless:
//
//   - db is PostgreSQL without read replicas (no resolver) and without
//     query hooks but Trace's, and q runs on db's pool, not on a
//     transaction or a connection of its own;
//   - T has no scan hooks, and every field Bun would fill is a string,
//     bool, integer, float, time.Time or bun.NullTime, or a pointer to
//     one, of a kind Bun reads itself (no json, array, hstore or msgpack
//     option, no sql.Scanner of its own);
//   - every column of the result is such a field of T.
//
// On a database Trace traces, a read whose context carries a span is
// traced as Trace's hook traces Bun's queries: a client span named for the
// operation, with the system, table and statement.
//
// The values of ps, when there are any, go beside the query's text as its
// parameters.
func readDirect[T any](ctx context.Context, db *bun.DB, q *bun.SelectQuery, items *[]T, ps *params) (bool, error) {
	if DialectOfDB(db) != Postgres {
		return false, nil
	}
	pool, traced := bunPoolRead(db, q)
	if !pool {
		return false, nil
	}
	table := db.Table(reflect.TypeFor[T]())
	if !directModel[T](table) {
		return false, nil
	}
	var args []any
	if ps != nil {
		ps.number()
	}
	query, err := render(q, db.QueryGen())
	if ps != nil {
		args = ps.sentArgs()
	}
	if err != nil {
		return false, nil // Bun reports it as it always has
	}
	start := time.Now()
	n, err := queryDirect(ctx, db.DB, query, args, table, items)
	if errors.Is(err, errNotDirect) || errors.Is(err, driver.ErrBadConn) {
		*items = (*items)[:0]
		return false, nil
	}
	if traced {
		traceDirect(ctx, q, table, start, n, err)
	}
	return true, err
}

// queryDirect runs query with args on a connection of pool and appends its
// rows to items, returning how many.
func queryDirect[T any](ctx context.Context, pool *sql.DB, query string, args []any, table *schema.Table, items *[]T) (int, error) {
	conn, err := pool.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	n := 0
	err = conn.Raw(func(dc any) error {
		pc, mode := pgxOf(dc, query)
		if pc == nil {
			return errNotDirect
		}
		rows, err := pc.Query(ctx, query, append(mode, args...)...)
		if err != nil {
			if pgconn.SafeToRetry(err) {
				// Nothing reached the server: the connection is gone.
				// database/sql drops it, and Bun runs the query on
				// another, as it would have.
				return driver.ErrBadConn
			}
			return err
		}
		defer rows.Close()
		n, err = scanRows(rows, table, items)
		return err
	})
	return n, err
}

// pgxOf is the pgx connection under dc, a connection of this package's
// pool, and the arguments query runs with: the exec mode the pool's
// connections give a query they have not sent before (prepared only from
// its second time), or none, the mode a DSN set.
func pgxOf(dc any, query string) (*pgx.Conn, []any) {
	switch c := dc.(type) {
	case *preparingConn:
		if c.seen.again(query) {
			return c.Conn(), nil
		}
		return c.Conn(), []any{pgx.QueryExecModeExec}
	case *stdlib.Conn:
		return c.Conn(), nil
	}
	return nil, nil
}

// scanRows appends the rows to items, each column decoded into its field
// (a field directModel took already).
func scanRows[T any](rows pgx.Rows, table *schema.Table, items *[]T) (int, error) {
	fds := rows.FieldDescriptions()
	cols := make([]directColumn, len(fds))
	dest := make([]any, len(fds))
	for i, fd := range fds {
		f := table.FieldMap[fd.Name]
		if f == nil {
			return 0, errNotDirect
		}
		dest[i] = cols[i].init(f, fd.DataTypeOID)
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			if n == 0 && errors.As(err, new(pgx.ScanArgError)) {
				return 0, errNotDirect
			}
			return n, err
		}
		var zero T
		*items = append(*items, zero)
		row := reflect.ValueOf(&(*items)[len(*items)-1]).Elem()
		for i := range cols {
			cols[i].set(row)
		}
		n++
	}
	return n, rows.Err()
}

// directColumn decodes one column of a result into one field of T: pgx
// decodes the wire value into a nullable holder of the column's kind, and
// set puts it into the row's field, the zero value (or nil) for NULL, as
// Bun does.
type directColumn struct {
	field *schema.Field
	kind  columnKind
	// valid is the holder's Valid: false for NULL.
	valid *bool
	text  pgtype.Text
	int   pgtype.Int8
	float pgtype.Float8
	bool  pgtype.Bool
	tstz  pgtype.Timestamptz
	ts    pgtype.Timestamp
	date  pgtype.Date
}

// columnKind is which holder of a directColumn a column is read into.
type columnKind uint8

const (
	columnInt columnKind = iota
	columnText
	columnFloat
	columnBool
	columnTimestamptz // time.Time, as the column's type has it: with a time zone,
	columnTimestamp   // without one (UTC),
	columnDate        // or a date
)

// init makes c the column of field f, of the type oid, and returns its
// holder, what pgx decodes the column into. c is not moved afterwards:
// valid points into it.
func (c *directColumn) init(f *schema.Field, oid uint32) any {
	c.field = f
	var holder any
	switch t := f.IndirectType; {
	case isTime(t) && oid == pgtype.TimestampOID:
		c.kind, c.valid, holder = columnTimestamp, &c.ts.Valid, &c.ts
	case isTime(t) && oid == pgtype.DateOID:
		c.kind, c.valid, holder = columnDate, &c.date.Valid, &c.date
	case isTime(t):
		c.kind, c.valid, holder = columnTimestamptz, &c.tstz.Valid, &c.tstz
	case t.Kind() == reflect.String:
		c.kind, c.valid, holder = columnText, &c.text.Valid, &c.text
	case t.Kind() == reflect.Bool:
		c.kind, c.valid, holder = columnBool, &c.bool.Valid, &c.bool
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		c.kind, c.valid, holder = columnFloat, &c.float.Valid, &c.float
	default:
		c.kind, c.valid, holder = columnInt, &c.int.Valid, &c.int
	}
	return holder
}

// set stores the holder's value in row's field.
func (c *directColumn) set(row reflect.Value) {
	fv := c.field.Value(row)
	if !*c.valid {
		fv.SetZero()
		return
	}
	if c.field.IsPtr {
		p := reflect.New(c.field.IndirectType)
		fv.Set(p)
		fv = p.Elem()
	}
	switch c.kind {
	case columnTimestamptz:
		*timeAt(fv) = c.tstz.Time
	case columnTimestamp:
		*timeAt(fv) = c.ts.Time
	case columnDate:
		*timeAt(fv) = c.date.Time
	case columnText:
		fv.SetString(c.text.String)
	case columnBool:
		fv.SetBool(c.bool.Bool)
	case columnFloat:
		fv.SetFloat(c.float.Float64)
	default:
		if fv.CanInt() {
			fv.SetInt(c.int.Int64)
		} else {
			fv.SetUint(uint64(c.int.Int64))
		}
	}
}

var (
	timeType     = reflect.TypeFor[time.Time]()
	nullTimeType = reflect.TypeFor[bun.NullTime]()
	scannerType  = reflect.TypeFor[sql.Scanner]()
)

// isTime reports whether a field of type t holds a time: time.Time, or
// bun.NullTime, which Bun reads as one (the zero time for NULL).
func isTime(t reflect.Type) bool { return t == timeType || t == nullTimeType }

// timeAt is the time.Time of fv, a time field.
func timeAt(fv reflect.Value) *time.Time {
	if fv.Type() == nullTimeType {
		return &fv.Addr().Interface().(*bun.NullTime).Time
	}
	return fv.Addr().Interface().(*time.Time)
}

// directModel reports whether Bun reads every field of T's table the way
// directColumn does, and T has no hook to run on a scanned row.
func directModel[T any](table *schema.Table) bool {
	var p any = new(T)
	if _, ok := p.(bun.BeforeScanRowHook); ok {
		return false
	}
	if _, ok := p.(bun.AfterScanRowHook); ok {
		return false
	}
	for _, f := range table.FieldMap {
		if !directField(f) {
			return false
		}
	}
	return true
}

// directField reports whether directColumn reads f as Bun does: a basic
// kind or time.Time, or a pointer to one, that Bun reads without an option
// of its own and that has no Scan method to do it.
func directField(f *schema.Field) bool {
	for opt := range f.Tag.Options {
		switch opt {
		case "json", "json_use_number", "array", "hstore", "msgpack", "multirange":
			return false
		}
	}
	t := f.IndirectType
	if t != f.StructField.Type && f.StructField.Type != reflect.PointerTo(t) {
		return false // a pointer to a pointer, say
	}
	if isTime(t) {
		return true
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint8, reflect.Uint16, reflect.Uint32:
		// A predeclared type (string, int64…) has no methods; a type
		// of a package may scan itself.
		return t.PkgPath() == "" || !reflect.PointerTo(t).Implements(scannerType)
	}
	return false
}

// bunPoolRead reports whether Bun would run q on db's own pool, with no
// query hook but Trace's, and whether that one is there: db has no
// resolver (read replicas), q was not given a connection of its own (a
// transaction's, say), and no hook of the service's own (a query logger,
// say) expects to see the query. Bun keeps the three unexported: they are
// read by reflection, and when that fails to find them (another Bun), it
// is not a pool read.
func bunPoolRead(db *bun.DB, q *bun.SelectQuery) (pool, traced bool) {
	resolver, err1 := reflect.ValueOf(db).Elem().FieldByIndexErr(dbResolver)
	hooks, err2 := reflect.ValueOf(db).Elem().FieldByIndexErr(dbQueryHooks)
	conn, err3 := reflect.ValueOf(q).Elem().FieldByIndexErr(queryConn)
	if err1 != nil || err2 != nil || err3 != nil || resolver.Kind() != reflect.Interface || conn.Kind() != reflect.Interface ||
		hooks.Kind() != reflect.Slice || !resolver.IsNil() || !conn.IsNil() {
		return false, false
	}
	for i := range hooks.Len() {
		h := hooks.Index(i)
		if h.Kind() != reflect.Interface || h.IsNil() || h.Elem().Type() != tracedHookType {
			return false, false
		}
		traced = true
	}
	return true, traced
}

// The paths, found once, of the unexported fields bunPoolRead reads: a
// bun.DB's resolver and query hooks, and a select's connection. Nil when
// this Bun has none of that name, which makes no read a pool read.
var (
	dbResolver   = fieldPath(reflect.TypeFor[bun.DB](), "resolver")
	dbQueryHooks = fieldPath(reflect.TypeFor[bun.DB](), "queryHooks")
	queryConn    = fieldPath(reflect.TypeFor[bun.SelectQuery](), "conn")
)

// fieldPath is the index path of t's field name, promoted ones included,
// or nil.
func fieldPath(t reflect.Type, name string) []int {
	if f, ok := t.FieldByName(name); ok {
		return f.Index
	}
	return nil
}

// tracedHookType is the type of Trace's query hook.
var tracedHookType = reflect.TypeFor[tracedQueries]()

// traceDirect records a direct read as Trace's hook records Bun's queries,
// when ctx is traced: a client span of the request's tracer provider, named
// for the operation, with the system, the table, the statement without its
// values, and the rows read or the error. It is made once the read is
// done, so that a read given back to Bun is traced once, by Bun's hook.
func traceDirect(ctx context.Context, q *bun.SelectQuery, table *schema.Table, start time.Time, rows int, err error) {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return
	}
	traceRead(ctx, q.Operation(), table.Name, template(q), start, rows, err)
}

// template is q's statement without its values, as Trace's hook records
// Bun's ("" when q does not render).
func template(q *bun.SelectQuery) string {
	b, err := q.AppendQuery(schema.NewNopQueryGen(), nil)
	if err != nil {
		return ""
	}
	return string(b)
}

// traceRead records a read made through pgx as a client span of ctx's
// tracer provider, when ctx is traced: the operation, the table (none
// when ""), the statement, and the rows or the error.
func traceRead(ctx context.Context, operation, table, statement string, start time.Time, rows int, err error) {
	parent := trace.SpanFromContext(ctx)
	if !parent.SpanContext().IsValid() {
		return
	}
	attrs := []attribute.KeyValue{
		attribute.String("db.system", "postgresql"),
		attribute.String("db.operation", operation),
		attribute.String("db.statement", statement),
	}
	if table != "" {
		attrs = append(attrs, attribute.String("db.sql.table", table))
	}
	_, span := parent.TracerProvider().Tracer("github.com/uptrace/bun").Start(ctx, operation,
		trace.WithTimestamp(start),
		trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attrs...))
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	} else {
		span.SetAttributes(attribute.Int64("db.rows_affected", int64(rows)))
	}
	span.End()
}
