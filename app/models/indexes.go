package models

import "github.com/asapjs/fiber-template/platform/database"

// Indexes declares the index the migrations create for listing and ending
// a user's sessions.
func (*Session) Indexes() []database.Index {
	return []database.Index{{Columns: []string{"user_id"}}}
}

// Indexes declares the index the migrations create for ending every
// refresh token of a session.
func (*RefreshToken) Indexes() []database.Index {
	return []database.Index{{Columns: []string{"session_id"}}}
}

// Indexes declares the index the migrations create for sweeping expired
// revocations.
func (*Revocation) Indexes() []database.Index {
	return []database.Index{{Columns: []string{"expires_at"}}}
}

// Indexes declares the index the migrations create for counting an
// account's recent failures from an address.
func (*LoginFailure) Indexes() []database.Index {
	return []database.Index{{Name: "login_failures_email_address_idx", Columns: []string{"email", "address", "failed_at"}}}
}
