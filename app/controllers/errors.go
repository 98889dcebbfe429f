package controllers

import (
	"net/http"

	"github.com/asapjs/fiber-template/platform/problem"
)

// Errors the routes of the example service declare and return.
var (
	// ErrUserNotFound answers a user id that does not exist.
	ErrUserNotFound = problem.Declare(http.StatusNotFound, "user_not_found", "User not found")
	// ErrEmailTaken answers an email another user has, case aside.
	ErrEmailTaken = problem.Declare(http.StatusConflict, "email_taken", "Email already taken")
	// ErrInvalidCredentials answers every failed login alike: unknown
	// email, wrong password or inactive user.
	ErrInvalidCredentials = problem.Declare(http.StatusUnauthorized, "invalid_credentials", "Invalid credentials")
	// ErrInvalidGrant answers a refresh token that is unknown, expired,
	// revoked or reused, with the code OAuth2 uses for it.
	ErrInvalidGrant = problem.Declare(http.StatusUnauthorized, "invalid_grant", "Invalid grant")
	// ErrForbidden answers a caller acting on another user, or asking for
	// a role or flag only an admin may set; its code is the router's own
	// for a missing role, so clients branch on one code.
	ErrForbidden = problem.Declare(http.StatusForbidden, "forbidden", "Forbidden")
	// ErrLastAdmin answers a change that would leave no active admin.
	ErrLastAdmin = problem.Declare(http.StatusConflict, "last_admin", "Last active admin")
)
