package controllers

import (
	"context"
	"errors"
	"net/http"

	"github.com/asapjs/fiber-template/app/accounts"
	"github.com/asapjs/fiber-template/app/dto"
	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/ratelimit"
	"github.com/asapjs/fiber-template/platform/router"
)

// Users is the controller of /users: public sign-up, and listing, reading,
// updating and deleting users for a logged-in caller.
type Users struct {
	users     *repositories.Users
	passwords *accounts.Passwords
	sessions  SessionEnder
	// limit is the auth rate limit: it runs before the public sign-up and
	// counts a member's change of its email; nil when there is none.
	limit *ratelimit.Limiter
}

// SessionEnder ends every session of a user, so that its access tokens
// stop working: after a delete, a deactivation or a role change.
type SessionEnder interface {
	EndUser(ctx context.Context, userID int64) error
}

// NewUsers returns the users controller; limit, if not nil, limits the
// public sign-up and the email changes of members (the auth rate limit):
// both tell whether an email is taken.
func NewUsers(users *repositories.Users, passwords *accounts.Passwords, sessions SessionEnder, limit *ratelimit.Limiter) *Users {
	return &Users{users: users, passwords: passwords, sessions: sessions, limit: limit}
}

// BasePath returns "/users".
func (c *Users) BasePath() string { return "/users" }

// Tag returns "Users".
func (c *Users) Tag() string { return "Users" }

// Description is the Users tag's text in the docs UI.
func (c *Users) Description() string {
	return "Sign up, then read and update your own user; admins list, read, update and delete every user."
}

// Routes declares the routes of the controller.
func (c *Users) Routes() []router.Route {
	return []router.Route{
		router.Post("/", c.create,
			router.Summary("Sign up"),
			router.Description("Creates a user. Public: this is how a new user gets an account to log in with, always an "+
				"active member; asking for another role or an inactive account is a 403. With an admin's bearer token, "+
				"role and active are honoured: this is how admins create users. The email is stored normalised "+
				"(NFKC, case-folded) and must be unique in that form."),
			router.OperationID("createUser"),
			router.Status(http.StatusCreated),
			router.Location("/:id"),
			router.OptionalAuth(),
			router.Errors(ErrEmailTaken, ErrForbidden, ErrBusy),
			guard(c.limit)),
		router.Get("/", c.list,
			router.Summary("List users"),
			router.Description("Lists users a page at a time, by id or in the order of sort (creation time, name or "+
				"email, either way), optionally filtered by role, active flag and a text that the name or email contains. "+
				"has_next is always exact; total_elements and max_page are exact when total_exact is true, and an estimate "+
				"or a lower bound when counting would take too long. For deep pages, follow next_cursor with cursor (or "+
				"the Link header's rel=\"next\"): the next page is found by its keys, with no offset, so rows inserted "+
				"meanwhile are neither repeated nor skipped. A page reached by cursor answers the total its first page "+
				"counted, while that count is recent."),
			router.OperationID("listUsers"),
			router.Roles(models.RoleAdmin)),
		router.Get("/me", c.me,
			router.Summary("Get the caller"),
			router.Description("Returns the user the bearer token belongs to."),
			router.OperationID("getMe"),
			router.Auth(),
			router.Errors(ErrUserNotFound)),
		router.Put("/me/password", c.changePassword,
			router.Summary("Change the caller's password"),
			router.Description("Replaces the caller's password after checking the current one (a wrong one is a 422 "+
				"naming current_password), and ends every session of the caller: log in again with the new password."),
			router.OperationID("changePassword"),
			router.Status(http.StatusNoContent),
			router.Auth(),
			router.Errors(ErrUserNotFound, ErrBusy)),
		router.Get("/:id", c.get,
			router.Summary("Get a user"),
			router.Description("Returns the user with the id: the caller itself, or any user for an admin."),
			router.OperationID("getUser"),
			router.Auth(),
			router.Errors(ErrUserNotFound, ErrForbidden)),
		router.Put("/:id", c.update,
			router.Summary("Update a user"),
			router.Description("Replaces the email, name, role and active flag of a user: the caller itself, or any user "+
				"for an admin. Only an admin may change a role or the active flag (a user sends its own values back "+
				"unchanged). The last active admin cannot be demoted or deactivated (409). A change of role or active "+
				"flag ends the user's sessions. A member's change of its own email counts against the per-address "+
				"rate limit of sign-up (429 past it), since both tell whether an email is taken. With If-Match (the ETag "+
				"of the user as read), the update happens only if nobody changed the user since, else 412 with the current ETag; "+
				"without it, an update that another write overtakes is applied again, a 409 (edit_conflict) after five attempts."),
			router.OperationID("updateUser"),
			router.Auth(),
			router.Errors(ErrUserNotFound, ErrEmailTaken, ErrForbidden, ErrLastAdmin, router.ErrEditConflict, ErrTooManyRequests, ratelimit.ErrUnavailable)),
		router.Patch("/:id", c.patch,
			router.Summary("Change part of a user"),
			router.Description("Applies a JSON merge patch (RFC 7396, application/merge-patch+json) to the email, name, "+
				"role and active flag of a user: members left out stay as they are, and the result must pass the rules "+
				"of an update (PUT), with the same permissions, 409 and session ends. null is refused (422): no member "+
				"of a user can be removed. With If-Match, the patch applies only to the user as the client read it "+
				"(412 otherwise); without it, to the user as it is when the patch is applied."),
			router.OperationID("patchUser"),
			router.Auth(),
			router.Errors(ErrUserNotFound, ErrEmailTaken, ErrForbidden, ErrLastAdmin, router.ErrEditConflict, ErrTooManyRequests, ratelimit.ErrUnavailable)),
		router.Delete("/:id/sessions", c.endSessions,
			router.Summary("End every session of a user"),
			router.Description("Ends every session of the user: its refresh tokens and access tokens stop working on "+
				"every instance within a second, and it must log in again. For an admin who suspects a stolen "+
				"device or password, without changing the user's role or deleting it."),
			router.OperationID("endUserSessions"),
			router.Status(http.StatusNoContent),
			router.Roles(models.RoleAdmin),
			router.Errors(ErrUserNotFound)),
		router.Delete("/:id", c.delete,
			router.Summary("Delete a user"),
			router.Description("Deletes the user with the id (the caller itself, or any user for an admin) and ends its "+
				"sessions; the email can sign up again. The last active admin cannot be deleted (409). With If-Match, "+
				"only if the user is still as the client read it (412 otherwise)."),
			router.OperationID("deleteUser"),
			router.Status(http.StatusNoContent),
			router.Auth(),
			router.Errors(ErrUserNotFound, ErrForbidden, ErrLastAdmin)),
	}
}

// CreateUserInput is the input of createUser.
type CreateUserInput struct {
	// A retry with the same Idempotency-Key gets the first answer.
	router.IdempotencyKeyHeader
	Body dto.CreateUserRequest
}

// ListUsersInput is the input of listUsers: paging and the filters.
type ListUsersInput struct {
	paging.Query
	paging.CursorQuery
	paging.SortQuery[models.UserSortKeys]
	// Role keeps the users with this role.
	Role string `query:"role" doc:"Only users with this role" validate:"omitempty,oneof=admin member guest"`
	// Q keeps the users whose name or email contains it, case aside.
	Q string `query:"q" doc:"Only users whose name or email contains this text, case aside" validate:"max=100"`
	// Active keeps active or inactive users.
	Active *bool `query:"active" doc:"Only active (true) or inactive (false) users"`
}

// UserIDInput is the input of the routes of one user.
type UserIDInput struct {
	// ID is the user id.
	ID int64 `path:"id" doc:"User id" example:"1"`
}

// UpdateUserInput is the input of updateUser.
type UpdateUserInput struct {
	// IfMatch, when sent, is the version the client read.
	router.IfMatchHeader
	// ID is the user id.
	ID   int64 `path:"id" doc:"User id" example:"1"`
	Body dto.UpdateUserRequest
}

// PatchUserInput is the input of patchUser.
type PatchUserInput struct {
	// IfMatch, when sent, is the version the client read.
	router.IfMatchHeader
	// ID is the user id.
	ID   int64 `path:"id" doc:"User id" example:"1"`
	Body router.MergePatch[dto.UpdateUserRequest]
}

func (c *Users) create(rc *router.Ctx, in *CreateUserInput) (*dto.User, error) {
	who := callerOf(rc)
	role, active := in.Body.Role, in.Body.Active == nil || *in.Body.Active
	if role == "" {
		role = models.RoleMember
	}
	if !who.admin() && (role != models.RoleMember || !active) {
		return nil, ErrForbidden.WithDetail("Only an admin may create a user with a role other than member, or an inactive one.")
	}
	email, err := normalizeEmailField("email", in.Body.Email)
	if err != nil {
		return nil, err
	}
	hash, err := c.passwords.Hash(rc.Context(), in.Body.Password)
	if err != nil {
		return nil, accountError(rc.Fiber(), err, "password")
	}
	u := &models.User{
		Email:        email,
		Name:         in.Body.Name,
		PasswordHash: hash,
		Role:         role,
		Active:       active,
	}
	return userAnswer(u, c.users.Create(rc.Context(), u))
}

func (c *Users) list(rc *router.Ctx, in *ListUsersInput) (*paging.Page[dto.User], error) {
	f := repositories.UserFilter{Role: in.Role, Active: in.Active, Query: in.Q}
	// A cursor the list refuses is a *paging.FieldError: the router
	// answers it with a 400 naming cursor.
	page, err := c.users.List(rc.Context(), f, rc.Paging(), in.Sort, in.Cursor)
	if err != nil {
		return nil, err
	}
	out := paging.Map(page, dto.UserOf)
	return &out, nil
}

// MeInput is the input of getMe: the caller comes from the token.
type MeInput struct{}

func (c *Users) me(rc *router.Ctx, _ *MeInput) (*dto.User, error) {
	return c.get(rc, &UserIDInput{ID: callerOf(rc).id})
}

func (c *Users) endSessions(rc *router.Ctx, in *UserIDInput) (*router.NoContent, error) {
	ctx := database.OnPrimary(rc.Context())
	if _, err := c.users.Get(ctx, in.ID); err != nil {
		return nil, userError(err)
	}
	return nil, c.sessions.EndUser(ctx, in.ID)
}

// ChangePasswordInput is the input of changePassword.
type ChangePasswordInput struct {
	Body dto.PasswordChange
}

func (c *Users) changePassword(rc *router.Ctx, in *ChangePasswordInput) (*router.NoContent, error) {
	ctx := database.OnPrimary(rc.Context())
	u, err := c.users.Get(ctx, callerOf(rc).id)
	if err != nil {
		return nil, userError(err)
	}
	ok, err := c.passwords.Check(ctx, u.PasswordHash, in.Body.CurrentPassword)
	if err != nil {
		return nil, accountError(rc.Fiber(), err, "current_password")
	}
	if !ok {
		p := problem.New(http.StatusUnprocessableEntity, "The current password is wrong.")
		p.Errors = []problem.FieldError{{Field: "current_password", Message: "is wrong"}}
		return nil, p
	}
	hash, err := c.passwords.Hash(ctx, in.Body.NewPassword)
	if err != nil {
		return nil, accountError(rc.Fiber(), err, "new_password")
	}
	if err := c.users.SetPassword(ctx, u.ID, hash); err != nil {
		return nil, userError(err)
	}
	return nil, c.sessions.EndUser(ctx, u.ID)
}

func (c *Users) get(rc *router.Ctx, in *UserIDInput) (*dto.User, error) {
	if !callerOf(rc).mayAct(in.ID) {
		return nil, errNotYours
	}
	u, err := c.users.Get(database.OnPrimary(rc.Context()), in.ID)
	return userAnswer(u, err)
}

func (c *Users) update(rc *router.Ctx, in *UpdateUserInput) (*dto.User, error) {
	if !callerOf(rc).mayAct(in.ID) {
		return nil, errNotYours
	}
	u, err := c.writes(rc).Put(rc, in.ID, in.Body)
	return userAnswer(u, err)
}

func (c *Users) patch(rc *router.Ctx, in *PatchUserInput) (*dto.User, error) {
	if !callerOf(rc).mayAct(in.ID) {
		return nil, errNotYours
	}
	u, err := c.writes(rc).Patch(rc, in.ID, &in.Body)
	return userAnswer(u, err)
}

// writes are the conditional writes of users with the permissions of an
// update by rc's caller: only an admin changes a role or the active flag,
// a member's change of its email counts against the auth rate limit, and
// a change of role or active flag ends the user's sessions.
func (c *Users) writes(rc *router.Ctx) *router.Versioned[models.User, dto.UpdateUserRequest] {
	return &router.Versioned[models.User, dto.UpdateUserRequest]{
		// Read where the write goes: a body equal to the user writes nothing.
		Get: func(ctx context.Context, id int64) (*models.User, error) {
			return c.users.Get(database.OnPrimary(ctx), id)
		},
		Version: func(u *models.User) int64 { return u.Version },
		Form:    dto.UpdateRequestOf,
		Row: func(body dto.UpdateUserRequest, current *models.User) (*models.User, error) {
			email, err := normalizeEmailField("email", body.Email)
			if err != nil {
				return nil, err
			}
			u := &models.User{ID: current.ID, Email: email, Name: body.Name, Role: body.Role, Active: *body.Active}
			if !callerOf(rc).admin() && (u.Role != current.Role || u.Active != current.Active) {
				return nil, ErrForbidden.WithDetail("Only an admin may change a role or the active flag.")
			}
			return u, nil
		},
		Update: func(ctx context.Context, current, u *models.User, version int64) error {
			ctx = database.OnPrimary(ctx)
			if u.Email != current.Email {
				if err := c.countEmailChange(rc); err != nil {
					return err
				}
			}
			if err := c.users.Update(ctx, u, version); err != nil {
				return err
			}
			if u.Role != current.Role || u.Active != current.Active {
				return c.sessions.EndUser(ctx, u.ID)
			}
			return nil
		},
	}
}

// emailChangeCounted is the Locals key that marks a request whose email
// change was counted, so that a patch applied again counts once.
type emailChangeCounted struct{}

// countEmailChange counts a member's change of its email against the auth
// rate limit, before the write can answer that the email is taken: else
// a member could test which emails have accounts faster than sign-up
// lets anyone. An admin, who may list every user, is not counted.
func (c *Users) countEmailChange(rc *router.Ctx) error {
	if c.limit == nil || callerOf(rc).admin() || rc.Fiber().Locals(emailChangeCounted{}) != nil {
		return nil
	}
	rc.Fiber().Locals(emailChangeCounted{}, true)
	return c.limit.Hit(rc.Fiber())
}

// DeleteUserInput is the input of deleteUser.
type DeleteUserInput struct {
	// IfMatch, when sent, is the version the client read.
	router.IfMatchHeader
	UserIDInput
}

func (c *Users) delete(rc *router.Ctx, in *DeleteUserInput) (*router.NoContent, error) {
	if !callerOf(rc).mayAct(in.ID) {
		return nil, errNotYours
	}
	// If-Match is checked here, before the sessions end for nothing, and
	// again by the delete itself, in case the user changed in between.
	writes := c.writes(rc)
	if _, err := writes.Current(rc, in.ID); err != nil {
		return nil, userError(err)
	}
	ctx := database.OnPrimary(rc.Context())
	if err := c.users.CheckDelete(ctx, in.ID); err != nil {
		return nil, userError(err)
	}
	// The sessions end first: their revocations outlive the user's rows.
	if err := c.sessions.EndUser(ctx, in.ID); err != nil {
		return nil, err
	}
	return nil, userError(writes.Delete(rc, in.ID, c.users.Delete))
}

// userAnswer is the answer of a route that writes or reads the user u: u
// in its API form, or the declared error err stands for.
func userAnswer(u *models.User, err error) (*dto.User, error) {
	if err != nil {
		return nil, userError(err)
	}
	out := dto.UserOf(*u)
	return &out, nil
}

// userError turns the repository's errors into declared ones: ErrNotFound,
// ErrDuplicate and ErrLastAdmin; nil and other errors pass through.
func userError(err error) error {
	switch {
	case errors.Is(err, repositories.ErrNotFound):
		return ErrUserNotFound
	case errors.Is(err, repositories.ErrDuplicate):
		return ErrEmailTaken.WithDetail("Another user already has this email.")
	case errors.Is(err, repositories.ErrLastAdmin):
		return ErrLastAdmin.WithDetail("The service must keep at least one active admin.")
	}
	return err
}
