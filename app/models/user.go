package models

import (
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
)

// User is a row of the users table.
type User struct {
	bun.BaseModel `bun:"table:users"`

	ID int64 `bun:"id,pk,autoincrement"`
	// Email is stored lower-cased, so the unique constraint makes it
	// unique regardless of case.
	Email string `bun:"email,notnull,unique"`
	Name  string `bun:"name,notnull"`
	// PasswordHash is the bcrypt hash of the password; it never leaves the
	// service.
	PasswordHash string    `bun:"password_hash,notnull"`
	Role         string    `bun:"role,notnull"`
	Active       bool      `bun:"active,notnull"`
	CreatedAt    time.Time `bun:"created_at,notnull,nullzero,default:current_timestamp"`
	// Version starts at 1 and grows by one with every write of the user's
	// representation (Users.Update): the user's entity tag.
	Version int64 `bun:"version,notnull,nullzero,default:1"`
	// SessionEpoch grows by one, and SessionsEndedAt is set, in the
	// transaction that ends the user's sessions
	// (repositories.Sessions.RevokeUser). A login begins its session only
	// at the epoch it read before checking the password, and only if its
	// request arrived after SessionsEndedAt (repositories.Sessions.Begin),
	// so that no login in flight outlives a change that ends the sessions.
	// Neither is part of the user's representation.
	SessionEpoch    int64        `bun:"session_epoch,notnull"`
	SessionsEndedAt bun.NullTime `bun:"sessions_ended_at"`
}

// Indexes declares the indexes the list uses, as the migrations create
// them: role and active for the filters; created_at and name, each with
// the id, for the sorts (email's unique index serves its own); and on
// PostgreSQL trigram indexes on the lowered name and email for the q
// search (LIKE '%text%').
func (*User) Indexes() []database.Index {
	trigram := func(column string) database.Index {
		return database.Index{Name: "users_" + column + "_trgm_idx", Expression: "lower(" + column + ")",
			Using: "gin", OpClass: "gin_trgm_ops", Extension: "pg_trgm"}
	}
	return []database.Index{{Columns: []string{"role"}}, {Columns: []string{"active"}},
		{Columns: []string{"created_at", "id"}}, {Columns: []string{"name", "id"}}, trigram("name"), trigram("email")}
}

// UserSortKeys names the columns the users list may be sorted by: the
// K of its paging.SortQuery.
type UserSortKeys struct{}

// SortKeys returns the columns the users list may be sorted by, each with
// an index on (column, id).
func (UserSortKeys) SortKeys() []string { return []string{"created_at", "name", "email"} }

// Roles a user can have.
const (
	RoleAdmin  = "admin"
	RoleMember = "member"
	RoleGuest  = "guest"
)
