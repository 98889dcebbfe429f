package repositories

import (
	"errors"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// Errors a caller branches on; everything else is a database failure.
var (
	// ErrNotFound is returned when no row has the requested key.
	ErrNotFound = errors.New("repositories: not found")
	// ErrDuplicate is returned when a write breaks a unique constraint.
	ErrDuplicate = errors.New("repositories: duplicate")
	// ErrLastAdmin is returned when a write would leave no active admin.
	ErrLastAdmin = errors.New("repositories: last active admin")
)

// StaleError is returned by a conditional write when the row is at
// another version than the ones the caller read: the write did not happen.
type StaleError struct {
	// Current is the row's version now.
	Current int64
}

func (e *StaleError) Error() string {
	return "repositories: the row is at version " + strconv.FormatInt(e.Current, 10) + " now"
}

// CurrentVersion returns Current: a StaleError is the router.StaleWrite
// that tells router.Versioned its write lost a race.
func (e *StaleError) CurrentVersion() int64 { return e.Current }

// SQLSTATE and SQLite extended result code of a unique constraint
// violation.
const (
	pgUniqueViolation      = "23505"
	sqliteConstraintUnique = 2067
)

// isUniqueViolation reports whether err is a unique constraint violation.
// Checking the constraint at write time, rather than looking for the value
// first, is what keeps two concurrent writes of the same value from both
// succeeding.
func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == pgUniqueViolation
	}
	var coded interface{ Code() int }
	if errors.As(err, &coded) && coded.Code() == sqliteConstraintUnique {
		return true
	}
	// The SQLite drivers all word it this way, whichever is linked in.
	return strings.Contains(err.Error(), "UNIQUE constraint failed")
}
