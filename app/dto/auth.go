package dto

import (
	"time"

	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/platform/token"
)

// LoginRequest is the body of a login: the OAuth2 password grant as Swagger
// UI sends it in a form, or the same fields as JSON.
type LoginRequest struct {
	// GrantType must be "password" when present.
	GrantType string `json:"grant_type,omitempty" doc:"OAuth2 grant type: password, the only one supported" example:"password" validate:"omitempty,oneof=password"`
	// Username is the user's email, matched regardless of case.
	Username string `json:"username" doc:"The user's email" example:"ada@example.com" validate:"required,max=254"`
	// Password is the user's password.
	Password string `json:"password" doc:"The user's password" format:"password" example:"correct-horse-battery" validate:"required,max=72"`
}

// Token is the OAuth2 access token response of a login.
type Token struct {
	// AccessToken is a JWT (RFC 9068) whose subject is the user id.
	AccessToken string `json:"access_token" doc:"JWT access token (typ at+jwt; EdDSA with signing keys, HS256 with a shared secret); send it as Authorization: Bearer <token>" example:"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9..." validate:"required"`
	// TokenType is always "bearer".
	TokenType string `json:"token_type" doc:"Token type" example:"bearer" validate:"required,oneof=bearer"`
	// ExpiresIn is the lifetime of the token in seconds.
	ExpiresIn int64 `json:"expires_in" doc:"Seconds until the access token expires" example:"900" validate:"required"`
	// RefreshToken continues the session once: exchange it at
	// /auth/refresh for a new pair.
	RefreshToken string `json:"refresh_token" doc:"Opaque token for POST /auth/refresh; it works once (each refresh returns a new one)" example:"q3Zr0Y0x8j6pQ2wV6m1Vn4Kz5b9cA7eHfJdLgTsUyRw" validate:"required"`
}

// RefreshRequest is the body of a refresh: the OAuth2 refresh_token grant
// as a form, or the same fields as JSON.
type RefreshRequest struct {
	// GrantType must be "refresh_token" when present.
	GrantType string `json:"grant_type,omitempty" doc:"OAuth2 grant type: refresh_token, the only one accepted here" example:"refresh_token" validate:"omitempty,oneof=refresh_token"`
	// RefreshToken is the refresh token of the last login or refresh.
	RefreshToken string `json:"refresh_token" doc:"The refresh token of the last login or refresh" example:"q3Zr0Y0x8j6pQ2wV6m1Vn4Kz5b9cA7eHfJdLgTsUyRw" validate:"required,max=200"`
}

// LogoutRequest is the body of a logout.
type LogoutRequest struct {
	// RefreshToken names the session to end.
	RefreshToken string `json:"refresh_token" doc:"The refresh token of the session to end" example:"q3Zr0Y0x8j6pQ2wV6m1Vn4Kz5b9cA7eHfJdLgTsUyRw" validate:"required,max=200"`
}

// Session is one of the caller's sessions: a login and its refreshes.
type Session struct {
	// ID names the session: DELETE /auth/sessions/{id} ends it.
	ID string `json:"id" doc:"Session id" example:"3f9c2a7d41e8b05c6d1a9e2f7b4c8d03" validate:"required"`
	// CreatedAt is when the session began: the login.
	CreatedAt time.Time `json:"created_at" doc:"When the session began (the login)" example:"2024-05-01T12:00:00Z" validate:"required"`
	// LastUsedAt is when a token of it was last issued: the login or the
	// latest refresh.
	LastUsedAt time.Time `json:"last_used_at" doc:"When the session last issued tokens: its login or its latest refresh" example:"2024-05-01T12:15:00Z" validate:"required"`
	// Address is the client address at login.
	Address string `json:"address,omitempty" doc:"The client address at login; absent for sessions begun before addresses were kept" example:"203.0.113.7"`
	// UserAgent is the User-Agent at login, at most 256 bytes of it.
	UserAgent string `json:"user_agent,omitempty" doc:"The User-Agent at login (its first 256 bytes); absent when it sent none" example:"Mozilla/5.0 (X11; Linux x86_64)"`
	// Current is true for the session of the token that asked.
	Current bool `json:"current" doc:"Whether this is the session of the access token that asked" example:"true" validate:"required"`
}

// SessionOf maps an active session to its API form; current is the id of
// the caller's own session.
func SessionOf(s models.ActiveSession, current string) Session {
	return Session{
		ID:         s.ID,
		CreatedAt:  s.CreatedAt.UTC(),
		LastUsedAt: s.LastUsedAt.UTC(),
		Address:    s.Address,
		UserAgent:  s.UserAgent,
		Current:    s.ID == current,
	}
}

// IntrospectRequest is the body of a token introspection (RFC 7662,
// section 2.1).
type IntrospectRequest struct {
	// Token is the token to introspect.
	Token string `json:"token" doc:"The access token to introspect" example:"eyJhbGciOiJFZERTQSIsInR5cCI6ImF0K2p3dCJ9..." validate:"required,max=4096"`
	// TokenTypeHint names the kind of token, which only access tokens are.
	TokenTypeHint string `json:"token_type_hint,omitempty" doc:"The kind of token sent; only access tokens can be active" example:"access_token" validate:"omitempty,oneof=access_token refresh_token"`
}

// Introspection is the answer of a token introspection (RFC 7662, section
// 2.2): whether the token is active and, when it is, its claims.
type Introspection struct {
	// Active is true for an access token the service accepts now.
	Active bool `json:"active" doc:"Whether the token is an access token this service accepts now; when false, nothing else is said" example:"true" validate:"required"`
	// TokenType is "bearer" when active.
	TokenType string `json:"token_type,omitempty" doc:"bearer, when active" example:"bearer" validate:"omitempty,oneof=bearer"`
	// Subject is the user id.
	Subject string `json:"sub,omitempty" doc:"The user the token was issued to (its id), when active" example:"42"`
	// Role is the user's role when the token was issued.
	Role string `json:"role,omitempty" doc:"The user's role when the token was issued, when active" example:"member"`
	// SessionID is the session the token belongs to.
	SessionID string `json:"sid,omitempty" doc:"The session the token belongs to, when active" example:"3f9c2a7d41e8b05c6d1a9e2f7b4c8d03"`
	// Issuer and Audience are the token's iss and aud.
	Issuer   string   `json:"iss,omitempty" doc:"The token's issuer, when active" example:"fiber-template"`
	Audience []string `json:"aud,omitempty" doc:"The token's audiences, when active" example:"[\"fiber-template-api\"]"`
	// ExpiresAt and IssuedAt are the token's exp and iat, in seconds since
	// the Unix epoch.
	ExpiresAt int64 `json:"exp,omitempty" doc:"When the token expires, in seconds since the Unix epoch, when active" example:"1767225600"`
	IssuedAt  int64 `json:"iat,omitempty" doc:"When the token was issued, in seconds since the Unix epoch, when active" example:"1767224700"`
	// ID is the token's jti.
	ID string `json:"jti,omitempty" doc:"The token's id, when active" example:"fb59630cc2eaa5752a20adabdc9cec87"`
}

// IntrospectionOf is the introspection of a token with claims c: active
// with its claims, or when c is nil, only active: false.
func IntrospectionOf(c *token.Claims) Introspection {
	if c == nil {
		return Introspection{}
	}
	return Introspection{
		Active: true, TokenType: "bearer", Subject: c.Subject, Role: c.Role, SessionID: c.SessionID,
		Issuer: c.Issuer, Audience: c.Audience, ExpiresAt: c.ExpiresAt.Unix(), IssuedAt: c.IssuedAt.Unix(), ID: c.ID,
	}
}
