package controllers

import (
	"strconv"

	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/platform/router"
)

// caller is who sends a request: the subject and role of its token, or
// nobody on a public route without one.
type caller struct {
	id   int64
	role string
	ok   bool
}

// callerOf reads the caller from the verified claims of rc.
func callerOf(rc *router.Ctx) caller {
	sub, role, ok := rc.Caller()
	if !ok {
		return caller{}
	}
	id, err := strconv.ParseInt(sub, 10, 64)
	if err != nil {
		return caller{}
	}
	return caller{id: id, role: role, ok: true}
}

// admin reports whether the caller is an admin.
func (c caller) admin() bool { return c.ok && c.role == models.RoleAdmin }

// mayAct reports whether the caller may read or change the user with the
// id: itself, or any user for an admin.
func (c caller) mayAct(id int64) bool { return c.admin() || c.ok && c.id == id }

// errNotYours is the answer to a caller acting on another user.
var errNotYours = ErrForbidden.WithDetail("Only the user itself or an admin may do this.")
