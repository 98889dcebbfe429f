package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// maxNameLength keeps database names under PostgreSQL's 63-byte limit with
// room for the sequence number.
const maxNameLength = 50

// databaseName names a test's database after the test, so a leftover one
// says where it came from, and numbers it, so names never collide.
func databaseName(testName string, seq int) string {
	var b strings.Builder
	b.WriteString("pgtest_")
	underscore := true
	for _, r := range strings.ToLower(testName) {
		if b.Len() >= maxNameLength {
			break
		}
		if ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') {
			b.WriteRune(r)
			underscore = false
		} else if !underscore {
			b.WriteByte('_')
			underscore = true
		}
	}
	if !underscore {
		b.WriteByte('_')
	}
	b.WriteString(strconv.Itoa(seq))
	return b.String()
}

// withDatabase returns the URL admin with its database replaced by name.
func withDatabase(admin, name string) (string, error) {
	u, err := url.Parse(admin)
	if err != nil {
		return "", fmt.Errorf("parse server URL: %w", err)
	}
	u.Path = "/" + name
	u.RawPath = ""
	return u.String(), nil
}

// createDatabase creates the database name from template0, so it is empty
// whatever has been added to template1.
func createDatabase(ctx context.Context, admin, name string) error {
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return fmt.Errorf("create database %s: connect: %w", name, err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()+" TEMPLATE template0"); err != nil {
		return fmt.Errorf("create database %s: %w", name, err)
	}
	return nil
}

// dropDatabase terminates the connections to the database name, which the
// test may have left open, and drops it. A connection that arrives between
// the two is terminated on the next attempt.
func dropDatabase(ctx context.Context, admin, name string) error {
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return fmt.Errorf("drop database %s: connect: %w", name, err)
	}
	defer conn.Close(context.Background())
	const objectInUse = "55006"
	for {
		if _, err := conn.Exec(ctx,
			"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
			name); err != nil {
			return fmt.Errorf("drop database %s: terminate connections: %w", name, err)
		}
		_, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize())
		var pgErr *pgconn.PgError
		if err == nil || !errors.As(err, &pgErr) || pgErr.Code != objectInUse {
			if err != nil {
				return fmt.Errorf("drop database %s: %w", name, err)
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("drop database %s: %w", name, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// ping connects to url and runs SELECT 1.
func ping(ctx context.Context, url string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	var one int
	return conn.QueryRow(ctx, "SELECT 1").Scan(&one)
}
