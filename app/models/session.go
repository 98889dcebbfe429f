package models

import (
	"time"

	"github.com/uptrace/bun"
)

// Session is a row of the sessions table: one login, which its refresh
// tokens continue until it expires or is revoked. Its id is the sid claim
// of the access tokens it issues.
type Session struct {
	bun.BaseModel `bun:"table:sessions"`

	ID        string    `bun:"id,pk"`
	UserID    int64     `bun:"user_id,notnull"`
	CreatedAt time.Time `bun:"created_at,notnull,nullzero,default:current_timestamp"`
	ExpiresAt time.Time `bun:"expires_at,notnull"`
	// RevokedAt is set when the session ended: logout, a reused refresh
	// token, or a change to its user.
	RevokedAt bun.NullTime `bun:"revoked_at"`
	// Address and UserAgent are the client's address and User-Agent at
	// login, shown to the user in the list of its sessions.
	Address   string `bun:"address,notnull,default:''"`
	UserAgent string `bun:"user_agent,notnull,default:''"`
}

// ActiveSession is a session as its user sees it: unrevoked, unexpired,
// with the last time a token of it was issued (its login or its latest
// refresh).
type ActiveSession struct {
	bun.BaseModel `bun:"table:sessions,alias:s"`

	ID         string    `bun:"id"`
	CreatedAt  time.Time `bun:"created_at"`
	LastUsedAt time.Time `bun:"last_used_at"`
	Address    string    `bun:"address"`
	UserAgent  string    `bun:"user_agent"`
}

// RefreshToken is a row of the refresh_tokens table: the hash of one
// refresh token of a session (the token itself is never stored).
type RefreshToken struct {
	bun.BaseModel `bun:"table:refresh_tokens"`

	// Hash is the hex SHA-256 of the token.
	Hash      string    `bun:"hash,pk"`
	SessionID string    `bun:"session_id,notnull"`
	CreatedAt time.Time `bun:"created_at,notnull,nullzero,default:current_timestamp"`
	// RotatedAt is set once the token was exchanged for a new pair;
	// presenting it again is a reuse.
	RotatedAt bun.NullTime `bun:"rotated_at"`
}

// Revocation is a row of the revocations table: a session whose access
// tokens must be refused until ExpiresAt, when the last of them expires
// anyway. Every instance keeps the unexpired ones in memory.
type Revocation struct {
	bun.BaseModel `bun:"table:revocations"`

	SessionID string    `bun:"session_id,pk"`
	ExpiresAt time.Time `bun:"expires_at,notnull"`
}

// LoginFailure is a row of the login_failures table: one failed login for
// an account from a client address, counted to throttle guessing.
type LoginFailure struct {
	bun.BaseModel `bun:"table:login_failures"`

	ID       int64     `bun:"id,pk,autoincrement"`
	Email    string    `bun:"email,notnull"`
	Address  string    `bun:"address,notnull"`
	FailedAt time.Time `bun:"failed_at,notnull"`
	// Pending is true while the login's password is being checked: it
	// counts as a failure until it is known to be one, or forgotten.
	Pending bool `bun:"pending,notnull,default:false"`
}
