package controllers

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/asapjs/fiber-template/app/accounts"
	"github.com/asapjs/fiber-template/app/dto"
	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/app/sessions"
	"github.com/asapjs/fiber-template/platform/clientip"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/ratelimit"
	"github.com/asapjs/fiber-template/platform/router"
)

// Auth is the controller of /auth: login, refresh and logout.
type Auth struct {
	users     *repositories.Users
	passwords *accounts.Passwords
	sessions  *sessions.Service
	throttle  *accounts.LoginThrottle
	// clients are the services that may introspect tokens.
	clients router.Clients
	// limit runs before login and refresh: the auth rate limit.
	limit router.Option
}

// NewAuth returns the auth controller; clients are the services that may
// introspect tokens, and limit, if not nil, limits the public login and
// refresh routes (the auth rate limit).
func NewAuth(users *repositories.Users, passwords *accounts.Passwords, sessions *sessions.Service, throttle *accounts.LoginThrottle, clients router.Clients, limit *ratelimit.Limiter) *Auth {
	return &Auth{users: users, passwords: passwords, sessions: sessions, throttle: throttle, clients: clients, limit: guard(limit)}
}

// BasePath returns "/auth".
func (a *Auth) BasePath() string { return "/auth" }

// Tag returns "Auth".
func (a *Auth) Tag() string { return "Auth" }

// Description is the Auth tag's text in the docs UI.
func (a *Auth) Description() string {
	return "Log in with the OAuth2 password grant for a short-lived bearer access token and a refresh token; " +
		"refresh for a new pair (each refresh token works once); log out to end the session."
}

// Routes declares the routes of the controller.
func (a *Auth) Routes() []router.Route {
	return []router.Route{
		router.Post("/login", a.login,
			router.Summary("Log in"),
			router.Description("The OAuth2 password grant: exchanges the email (username) and password of an active "+
				"user for a bearer access token and a refresh token. Accepts the URL-encoded form OAuth2 clients and the docs' "+
				"Authorize dialog send, or the same fields as JSON. After 5 failed logins for an account from one "+
				"address within 15 minutes, the next ones are a 429 with Retry-After, whatever the password."),
			router.OperationID("login"),
			router.BodyContentType(router.MediaForm, router.MediaJSON),
			router.Errors(ErrInvalidCredentials, ErrTooManyRequests, ErrBusy),
			router.Header("Cache-Control", "no-store: an answer with tokens is never kept (RFC 6749, section 5.1)"),
			router.Header("Pragma", "no-cache, for HTTP/1.0 caches (RFC 6749, section 5.1)"),
			a.limit),
		router.Post("/refresh", a.refresh,
			router.Summary("Refresh a session"),
			router.Description("The OAuth2 refresh_token grant: exchanges a refresh token for a new access token and "+
				"refresh token of the same session; the presented refresh token stops working. Presenting it again "+
				"is a 401 and ends the whole session (reuse detection)."),
			router.OperationID("refresh"),
			router.BodyContentType(router.MediaForm, router.MediaJSON),
			router.Errors(ErrInvalidGrant),
			router.Header("Cache-Control", "no-store: an answer with tokens is never kept (RFC 6749, section 5.1)"),
			router.Header("Pragma", "no-cache, for HTTP/1.0 caches (RFC 6749, section 5.1)"),
			a.limit),
		router.Post("/logout", a.logout,
			router.Summary("Log out"),
			router.Description("Ends the session of the refresh token: its refresh token and access tokens stop "+
				"working on every instance. An unknown token ends nothing and is answered the same."),
			router.OperationID("logout"),
			router.Status(http.StatusNoContent)),
		router.Get("/sessions", a.listSessions,
			router.Summary("List your sessions"),
			router.Description("The caller's sessions that have not ended, the newest first: when each began, when it "+
				"last issued tokens, the client address and User-Agent of its login, and which one the asking token "+
				"belongs to."),
			router.OperationID("listSessions"),
			router.Auth()),
		router.Delete("/sessions/:id", a.endSession,
			router.Summary("End one of your sessions"),
			router.Description("Ends a session of the caller (a device it no longer uses, say): its refresh token and "+
				"access tokens stop working on every instance within a second. The caller's current session may be "+
				"ended too, as a logout. A session that is not the caller's, or has ended, is a 404."),
			router.OperationID("endSession"),
			router.Status(http.StatusNoContent),
			router.Auth(),
			router.Errors(ErrSessionNotFound)),
		router.Post("/introspect", a.introspect,
			router.Summary("Introspect an access token"),
			router.Description("Token introspection (RFC 7662) for other services: whether an access token is one this "+
				"service accepts now (signed by its keys, unexpired, for its issuer and audience, of a session that has "+
				"not ended) and, when it is, its claims. Unlike verifying with the JWKS alone, it sees revocations. "+
				"Only for the clients of INTROSPECTION_CLIENTS, with their HTTP Basic credentials; any other token, a "+
				"refresh token included, is answered active: false."),
			router.OperationID("introspect"),
			router.BodyContentType(router.MediaForm),
			router.ClientAuth(a.clients)),
	}
}

// IntrospectInput is the input of introspect.
type IntrospectInput struct {
	Body dto.IntrospectRequest
}

func (a *Auth) introspect(_ *router.Ctx, in *IntrospectInput) (*dto.Introspection, error) {
	out := dto.IntrospectionOf(a.sessions.Introspect(in.Body.Token))
	return &out, nil
}

// LoginInput is the input of login.
type LoginInput struct {
	Body dto.LoginRequest
}

// RefreshInput is the input of refresh.
type RefreshInput struct {
	Body dto.RefreshRequest
}

// LogoutInput is the input of logout.
type LogoutInput struct {
	Body dto.LogoutRequest
}

func (a *Auth) login(rc *router.Ctx, in *LoginInput) (*dto.Token, error) {
	ctx := database.OnPrimary(rc.Context())
	email, err := NormalizeEmail(in.Body.Username)
	if err != nil {
		// No user can have this name: it is looked up as it is and is
		// answered as any unknown user, throttle included.
		email = strings.ToLower(strings.TrimSpace(in.Body.Username))
	}
	address := clientip.Key(clientip.From(rc.Fiber()))
	try, err := a.throttle.Begin(ctx, email, address)
	if err != nil {
		return nil, accountError(rc.Fiber(), err, "password")
	}
	u, err := a.users.GetByEmail(ctx, email)
	var ok bool
	switch {
	case errors.Is(err, repositories.ErrNotFound):
		err = a.passwords.CheckNone(ctx, in.Body.Password)
	case err == nil:
		// The password is checked even for an inactive user, so that the
		// answer takes as long as for an active one.
		ok, err = a.passwords.Check(ctx, u.PasswordHash, in.Body.Password)
		ok = ok && u.Active
	}
	if err != nil {
		// Not a guess that was checked: it does not count.
		return nil, accountError(rc.Fiber(), try.Abandon(ctx, err), "password")
	}
	if !ok {
		// Counted by Begin, now known to be a failure.
		if err := try.Failed(ctx); err != nil {
			return nil, err
		}
		return nil, errInvalidCredentials
	}
	if err := try.Succeeded(ctx); err != nil {
		return nil, err
	}
	// The session begins only if u is still as read and its sessions did
	// not end after the request arrived: a change that ended them while
	// this login was in flight ends it too.
	tok, err := a.sessions.Begin(ctx, u, sessions.Client{
		Address:   clientip.From(rc.Fiber()).String(),
		UserAgent: string(rc.Fiber().Request().Header.UserAgent()),
	}, rc.Fiber().Context().Time())
	switch {
	case errors.Is(err, sessions.ErrUserChanged):
		return nil, errInvalidCredentials
	case err != nil:
		return nil, err
	}
	return tokenResponse(rc, tok), nil
}

func (a *Auth) refresh(rc *router.Ctx, in *RefreshInput) (*dto.Token, error) {
	tok, err := a.sessions.Refresh(rc.Context(), in.Body.RefreshToken)
	switch {
	case errors.Is(err, sessions.ErrRefreshReused):
		return nil, ErrInvalidGrant.WithDetail("The refresh token was already used; its session has ended. Log in again.")
	case errors.Is(err, sessions.ErrInvalidRefresh):
		return nil, ErrInvalidGrant.WithDetail("The refresh token is unknown, expired or revoked. Log in again.")
	case err != nil:
		return nil, err
	}
	return tokenResponse(rc, tok), nil
}

func (a *Auth) logout(rc *router.Ctx, in *LogoutInput) (*router.NoContent, error) {
	return nil, a.sessions.End(rc.Context(), in.Body.RefreshToken)
}

// tokenResponse is the OAuth2 token response of tok, marked uncacheable.
// ListSessionsInput is the input of listSessions: paging.
type ListSessionsInput struct {
	paging.Query
}

func (a *Auth) listSessions(rc *router.Ctx, _ *ListSessionsInput) (*paging.Page[dto.Session], error) {
	page, err := a.sessions.Active(rc.Context(), callerOf(rc).id, rc.Paging())
	if err != nil {
		return nil, err
	}
	current := rc.Claims().SessionID
	out := paging.Map(page, func(s models.ActiveSession) dto.Session { return dto.SessionOf(s, current) })
	return &out, nil
}

// SessionIDInput is the input of endSession.
type SessionIDInput struct {
	// ID is the session id.
	ID string `path:"id" doc:"Session id" example:"3f9c2a7d41e8b05c6d1a9e2f7b4c8d03" validate:"max=64"`
}

func (a *Auth) endSession(rc *router.Ctx, in *SessionIDInput) (*router.NoContent, error) {
	err := a.sessions.EndOwn(rc.Context(), callerOf(rc).id, in.ID)
	if errors.Is(err, repositories.ErrNotFound) {
		return nil, ErrSessionNotFound
	}
	return nil, err
}

func tokenResponse(rc *router.Ctx, tok sessions.Token) *dto.Token {
	// RFC 6749 §5.1: responses carrying tokens must not be cached.
	rc.Fiber().Set("Cache-Control", "no-store")
	rc.Fiber().Set("Pragma", "no-cache")
	return &dto.Token{
		AccessToken:  tok.AccessToken,
		TokenType:    "bearer",
		ExpiresIn:    int64(tok.ExpiresIn / time.Second),
		RefreshToken: tok.RefreshToken,
	}
}

// errInvalidCredentials is the one answer of every failed login.
var errInvalidCredentials = ErrInvalidCredentials.WithDetail("The email or password is wrong, or the user may not log in.")
