package problem

import "fmt"

// Error is a declared error, the Go form of an error creator: declared once
// with its status, stable code and title, listed on the routes that can
// return it (so the spec documents it) and returned from their handlers (so
// the client gets that problem).
//
//	var ErrUserNotFound = problem.Declare(404, "user_not_found", "User not found")
//
//	return nil, ErrUserNotFound.WithDetail("no user with id %d", id)
type Error struct {
	// Status is the HTTP status the error answers with.
	Status int
	// Code is a stable, machine-readable code, e.g. "user_not_found".
	Code string
	// Title is a short summary that does not change between occurrences.
	Title string

	detail string
}

// Declare returns a declared error. It panics on a status outside 400–599 or
// an empty code, since declarations are made at start-up.
func Declare(status int, code, title string) *Error {
	if status < 400 || status > 599 {
		panic(fmt.Sprintf("problem: declared error %q has status %d, want 4xx or 5xx", code, status))
	}
	if code == "" || title == "" {
		panic(fmt.Sprintf("problem: declared error with status %d needs a code and a title", status))
	}
	return &Error{Status: status, Code: code, Title: title}
}

// WithDetail returns a copy of e carrying an occurrence-specific detail.
func (e *Error) WithDetail(format string, args ...any) *Error {
	c := *e
	c.detail = fmt.Sprintf(format, args...)
	return &c
}

// Is reports whether target is the same declared error, so errors.Is matches
// a copy made by WithDetail against its declaration.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && t.Status == e.Status
}

// Error returns the code and the detail.
func (e *Error) Error() string {
	if e.detail == "" {
		return e.Code
	}
	return e.Code + ": " + e.detail
}

// Problem returns the problem details body of e. Its detail is the one
// given by WithDetail, or else the title: every problem has a detail.
func (e *Error) Problem() *Problem {
	detail := e.detail
	if detail == "" {
		detail = e.Title
	}
	return &Problem{Type: TypeURI(e.Code), Title: e.Title, Status: e.Status, Detail: detail, Code: e.Code}
}

// TypeURI returns the problem type URI of a declared error code.
func TypeURI(code string) string { return "urn:problem-type:" + code }
