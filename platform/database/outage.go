package database

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// Unavailable reports whether err says the database cannot serve right
// now, rather than that the query was wrong: the server refused or reset
// the connection, is starting or shutting down, has no connection slot
// left, cancelled the statement (statement_timeout), or did not answer in
// time. A caller answers those as a temporary outage (503 and retry
// later); constraint violations, syntax errors and sql.ErrNoRows are never
// outages.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return unavailableCode(pgErr.Code)
	}
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	switch {
	case errors.As(err, &connectErr),
		errors.As(err, &netErr),
		errors.Is(err, driver.ErrBadConn),
		errors.Is(err, sql.ErrConnDone),
		errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, io.EOF),
		errors.Is(err, syscall.ECONNREFUSED),
		errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE),
		pgconn.Timeout(err),
		pgconn.SafeToRetry(err):
		return true
	}
	return false
}

// unavailableCode reports whether a PostgreSQL error code is a class 08
// connection exception, an operator intervention (shutdown, cancel,
// recovery) or too many connections.
func unavailableCode(code string) bool {
	switch {
	case strings.HasPrefix(code, "08"):
		return true
	case code == "57014", // query_canceled: statement_timeout or a cancel request
		code == "57P01", // admin_shutdown
		code == "57P02", // crash_shutdown
		code == "57P03", // cannot_connect_now: starting up or in recovery
		code == "53300": // too_many_connections
		return true
	}
	return false
}

// Closed reports whether err says the database handle was closed, as
// database/sql says it (its error value is not exported): background work
// on the handle then stops rather than retries.
func Closed(err error) bool {
	return err != nil && strings.Contains(err.Error(), "sql: database is closed")
}
