package database_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/asapjs/fiber-template/platform/database"
)

func TestUnavailable(t *testing.T) {
	t.Parallel()
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "refused"}}
	cases := []struct {
		name string
		err  error
		want bool
	}{
		{"no error is no outage", nil, false},
		{"a refused dial is an outage", fmt.Errorf("find user: %w", refused), true},
		{"a reset connection is an outage", fmt.Errorf("read: %w", syscall.ECONNRESET), true},
		{"a connection that ended mid-answer is an outage", fmt.Errorf("receive: %w", io.ErrUnexpectedEOF), true},
		{"a connection the pool gave up is an outage", driver.ErrBadConn, true},
		{"a server shutting down is an outage", &pgconn.PgError{Code: "57P01"}, true},
		{"a server starting up is an outage", &pgconn.PgError{Code: "57P03"}, true},
		{"a statement cut by statement_timeout is an outage", &pgconn.PgError{Code: "57014"}, true},
		{"a server out of connection slots is an outage", &pgconn.PgError{Code: "53300"}, true},
		{"a connection exception is an outage", &pgconn.PgError{Code: "08006"}, true},
		{"a unique violation is not", &pgconn.PgError{Code: "23505"}, false},
		{"a syntax error is not", &pgconn.PgError{Code: "42601"}, false},
		{"no rows is not", sql.ErrNoRows, false},
		{"a cancelled context is not: the caller left", context.Canceled, false},
		{"any other error is not", errors.New("invalid input"), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := database.Unavailable(tc.err); got != tc.want {
				t.Errorf("Unavailable(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}
