package controllers

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/asapjs/fiber-template/app/dto"
	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/platform/router"
)

// Auth is the controller of /auth: the login that issues access tokens.
type Auth struct {
	users     *repositories.Users
	passwords *Passwords
	secret    []byte
	ttl       time.Duration
}

// NewAuth returns the auth controller; tokens are signed with secret, the
// router's JWTSecret, and expire after ttl.
func NewAuth(users *repositories.Users, passwords *Passwords, secret []byte, ttl time.Duration) *Auth {
	return &Auth{users: users, passwords: passwords, secret: secret, ttl: ttl}
}

// BasePath returns "/auth".
func (a *Auth) BasePath() string { return "/auth" }

// Tag returns "Auth".
func (a *Auth) Tag() string { return "Auth" }

// Description is the Auth tag's text in the docs UI.
func (a *Auth) Description() string {
	return "Log in with the OAuth2 password grant and get a bearer access token for the other routes."
}

// Routes declares the routes of the controller.
func (a *Auth) Routes() []router.Route {
	return []router.Route{
		router.Post("/login", a.login,
			router.Title("Log in"),
			router.Description("The OAuth2 password grant: exchanges the email (username) and password of an active "+
				"user for a bearer access token. Accepts the URL-encoded form OAuth2 clients and the docs' "+
				"Authorize dialog send, or the same fields as JSON."),
			router.OperationID("login"),
			router.BodyContentType(router.MIMEForm, router.MIMEJSON),
			router.Errors(ErrInvalidCredentials, ErrUnsupportedGrantType)),
	}
}

// LoginInput is the input of login.
type LoginInput struct {
	Body dto.LoginRequest
}

func (a *Auth) login(rc *router.Ctx, in *LoginInput) (*dto.Token, error) {
	if in.Body.GrantType != "" && in.Body.GrantType != "password" {
		return nil, ErrUnsupportedGrantType.WithDetail("Only the password grant is supported.")
	}
	u, err := a.users.GetByEmail(rc.Context(), normalizeEmail(in.Body.Username))
	switch {
	case errors.Is(err, repositories.ErrNotFound):
		a.passwords.CheckNone(in.Body.Password)
		return nil, errInvalidCredentials
	case err != nil:
		return nil, err
	}
	// The password is checked even for an inactive user, so that the
	// answer takes as long as for an active one.
	if !a.passwords.Check(u.PasswordHash, in.Body.Password) || !u.Active {
		return nil, errInvalidCredentials
	}

	now := time.Now().Truncate(time.Second)
	token, err := jwt.NewWithClaims(jwt.SigningMethodHS256, &router.Claims{RegisteredClaims: jwt.RegisteredClaims{
		Subject:   strconv.FormatInt(u.ID, 10),
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(a.ttl)),
	}}).SignedString(a.secret)
	if err != nil {
		return nil, fmt.Errorf("sign token: %w", err)
	}
	// RFC 6749 §5.1: responses carrying tokens must not be cached.
	rc.Fiber().Set("Cache-Control", "no-store")
	rc.Fiber().Set("Pragma", "no-cache")
	return &dto.Token{AccessToken: token, TokenType: "bearer", ExpiresIn: int64(a.ttl / time.Second)}, nil
}

// errInvalidCredentials is the one answer of every failed login.
var errInvalidCredentials = ErrInvalidCredentials.WithDetail("The email or password is wrong, or the user may not log in.")
