// Package sessions issues and ends the login sessions of the example
// service: short-lived access tokens (JWTs signed with the service's keys,
// EdDSA or HS256, with sub, sid, iat, exp, iss, aud and role), refresh
// tokens stored only as hashes and rotated on every use, reuse detection,
// and revocations that reach every instance sharing the database
// (PostgreSQL LISTEN/NOTIFY; SQLite is one process).
package sessions
