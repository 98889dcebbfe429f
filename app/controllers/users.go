package controllers

import (
	"errors"
	"net/http"
	"strings"

	"github.com/asapjs/fiber-template/app/dto"
	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/router"
)

// Users is the controller of /users: public sign-up, and listing, reading,
// updating and deleting users for a logged-in caller.
type Users struct {
	users     *repositories.Users
	passwords *Passwords
}

// NewUsers returns the users controller.
func NewUsers(users *repositories.Users, passwords *Passwords) *Users {
	return &Users{users: users, passwords: passwords}
}

// BasePath returns "/users".
func (c *Users) BasePath() string { return "/users" }

// Tag returns "Users".
func (c *Users) Tag() string { return "Users" }

// Description is the Users tag's text in the docs UI.
func (c *Users) Description() string {
	return "Sign up, then list, read, update and delete the users of the service."
}

// Routes declares the routes of the controller.
func (c *Users) Routes() []router.Route {
	return []router.Route{
		router.Post("/", c.create,
			router.Title("Sign up"),
			router.Description("Creates a user. Public: this is how a new user gets an account to log in with. "+
				"The email is stored lower-cased and must be unique regardless of case."),
			router.OperationID("createUser"),
			router.Status(http.StatusCreated),
			router.Errors(ErrEmailTaken)),
		router.Get("/", c.list,
			router.Title("List users"),
			router.Description("Lists users by id, a page at a time, optionally filtered by role, active flag and a text "+
				"that the name or email contains. has_next is always exact; total_elements and max_page are exact when "+
				"total_exact is true, and an estimate or a lower bound when counting would take too long. For deep pages, "+
				"follow next_cursor with cursor: the next page is found by id, with no offset, so rows inserted meanwhile are "+
				"neither repeated nor skipped."),
			router.OperationID("listUsers"),
			router.Auth()),
		router.Get("/:id", c.get,
			router.Title("Get a user"),
			router.Description("Returns the user with the id."),
			router.OperationID("getUser"),
			router.Auth(),
			router.Errors(ErrUserNotFound)),
		router.Put("/:id", c.update,
			router.Title("Update a user"),
			router.Description("Replaces the email, name, role and active flag of a user."),
			router.OperationID("updateUser"),
			router.Auth(),
			router.Errors(ErrUserNotFound, ErrEmailTaken)),
		router.Delete("/:id", c.delete,
			router.Title("Delete a user"),
			router.Description("Deletes the user with the id; their email can sign up again."),
			router.OperationID("deleteUser"),
			router.Status(http.StatusNoContent),
			router.Auth(),
			router.Errors(ErrUserNotFound)),
	}
}

// CreateUserInput is the input of createUser.
type CreateUserInput struct {
	Body dto.CreateUserRequest
}

// ListUsersInput is the input of listUsers: paging and the filters.
type ListUsersInput struct {
	paging.Query
	paging.CursorQuery
	// Role keeps the users with this role.
	Role string `query:"role" doc:"Only users with this role" enum:"admin,member,guest" validate:"omitempty,oneof=admin member guest"`
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
	// ID is the user id.
	ID   int64 `path:"id" doc:"User id" example:"1"`
	Body dto.UpdateUserRequest
}

func (c *Users) create(rc *router.Ctx, in *CreateUserInput) (*dto.User, error) {
	hash, err := c.passwords.Hash(in.Body.Password)
	if err != nil {
		return nil, err
	}
	u := &models.User{
		Email:        normalizeEmail(in.Body.Email),
		Name:         in.Body.Name,
		PasswordHash: hash,
		Role:         in.Body.Role,
		Active:       in.Body.Active == nil || *in.Body.Active,
	}
	if u.Role == "" {
		u.Role = models.RoleMember
	}
	if err := c.users.Create(rc.Context(), u); err != nil {
		return nil, userError(err)
	}
	out := dto.UserOf(*u)
	return &out, nil
}

func (c *Users) list(rc *router.Ctx, in *ListUsersInput) (*paging.Page[dto.User], error) {
	page, err := c.users.List(rc.Context(), repositories.UserFilter{
		Role:   in.Role,
		Query:  in.Q,
		Active: in.Active,
	}, rc.Paging(), in.Cursor)
	if err != nil {
		return nil, userError(err)
	}
	out := paging.Map(page, dto.UserOf)
	return &out, nil
}

func (c *Users) get(rc *router.Ctx, in *UserIDInput) (*dto.User, error) {
	u, err := c.users.Get(rc.Context(), in.ID)
	if err != nil {
		return nil, userError(err)
	}
	out := dto.UserOf(*u)
	return &out, nil
}

func (c *Users) update(rc *router.Ctx, in *UpdateUserInput) (*dto.User, error) {
	u := &models.User{
		ID:     in.ID,
		Email:  normalizeEmail(in.Body.Email),
		Name:   in.Body.Name,
		Role:   in.Body.Role,
		Active: *in.Body.Active,
	}
	if err := c.users.Update(rc.Context(), u); err != nil {
		return nil, userError(err)
	}
	out := dto.UserOf(*u)
	return &out, nil
}

func (c *Users) delete(rc *router.Ctx, in *UserIDInput) (*router.NoContent, error) {
	if err := c.users.Delete(rc.Context(), in.ID); err != nil {
		return nil, userError(err)
	}
	return nil, nil
}

// userError turns the repository's sentinel errors into declared errors,
// and a bad cursor into a 400 naming it.
func userError(err error) error {
	var fe *paging.FieldError
	switch {
	case errors.As(err, &fe):
		p := problem.New(http.StatusBadRequest, "Invalid paging parameter "+fe.Field+": "+fe.Message+".")
		p.Errors = []problem.FieldError{{Field: fe.Field, Message: fe.Message}}
		return p
	case errors.Is(err, repositories.ErrNotFound):
		return ErrUserNotFound
	case errors.Is(err, repositories.ErrDuplicate):
		return ErrEmailTaken.WithDetail("Another user already has this email.")
	}
	return err
}

// normalizeEmail is the form emails are stored and looked up in, so that
// uniqueness and login ignore case.
func normalizeEmail(email string) string {
	return strings.ToLower(strings.TrimSpace(email))
}
