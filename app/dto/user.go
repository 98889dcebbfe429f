package dto

import (
	"time"

	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/platform/etag"
)

// User is a user as the API shows it: never with a password or its hash.
type User struct {
	// ID is the user's id, the subject of the user's tokens.
	ID int64 `json:"id" doc:"User id" example:"1" validate:"required"`
	// Email is the user's email, normalised (NFKC, case-folded).
	Email string `json:"email" doc:"Email address, normalised (Unicode NFKC, case-folded, the domain in ASCII); the login user name" format:"email" example:"ada@example.com" validate:"required"`
	// Name is the user's display name.
	Name string `json:"name" doc:"Display name" example:"Ada Lovelace" validate:"required"`
	// Role is admin, member or guest.
	Role string `json:"role" doc:"Role of the user" example:"member" validate:"required,oneof=admin member guest"`
	// Active is false for a user who may not log in.
	Active bool `json:"active" doc:"Whether the user may log in" example:"true" validate:"required"`
	// CreatedAt is when the user signed up.
	CreatedAt time.Time `json:"created_at" doc:"When the user signed up" example:"2024-05-01T12:00:00Z" validate:"required"`
	// Version is the row's version, sent as the ETag, not in the body.
	Version int64 `json:"-"`
}

// EntityTag is the user's version: the ETag of every answer that is one
// user, and what If-Match names on its writes.
func (u *User) EntityTag() string { return etag.Version(u.Version) }

// UserOf maps a user row to its API form.
func UserOf(u models.User) User {
	return User{
		ID:        u.ID,
		Email:     u.Email,
		Name:      u.Name,
		Role:      u.Role,
		Active:    u.Active,
		CreatedAt: u.CreatedAt.UTC(),
		Version:   u.Version,
	}
}

// CreateUserRequest is the body of a sign-up.
type CreateUserRequest struct {
	// Email is the login user name; it is stored normalised (NFKC,
	// case-folded) and must be unique in that form.
	Email string `json:"email" doc:"Email address, unique regardless of case and Unicode width; a local part mixing scripts (Latin with Cyrillic, say) is refused" example:"ada@example.com" validate:"required,email,max=254"`
	// Name is the display name.
	Name string `json:"name" doc:"Display name" example:"Ada Lovelace" validate:"required,max=100"`
	// Password is hashed with bcrypt, which reads at most 72 bytes.
	Password string `json:"password" doc:"Password, 8 to 72 bytes" format:"password" example:"correct-horse-battery" validate:"required,min=8,max=72"`
	// Role defaults to member.
	Role string `json:"role,omitempty" doc:"Role of the user" default:"member" example:"member" validate:"omitempty,oneof=admin member guest"`
	// Active defaults to true.
	Active *bool `json:"active,omitempty" doc:"Whether the user may log in" default:"true" example:"true"`
}

// UpdateUserRequest is the body of a user update; every field is replaced.
type UpdateUserRequest struct {
	// Email is the new email, unique regardless of case.
	Email string `json:"email" doc:"Email address, unique regardless of case and Unicode width; a local part mixing scripts is refused" example:"ada@example.com" validate:"required,email,max=254"`
	// Name is the new display name.
	Name string `json:"name" doc:"Display name" example:"Ada Lovelace" validate:"required,max=100"`
	// Role is the new role.
	Role string `json:"role" doc:"Role of the user" example:"member" validate:"required,oneof=admin member guest"`
	// Active is a pointer so that a missing value is an error rather than
	// a silent false.
	Active *bool `json:"active" doc:"Whether the user may log in" example:"true" validate:"required"`
}

// UpdateRequestOf is the update that leaves u as it is: what a merge
// patch of a user applies to.
func UpdateRequestOf(u models.User) UpdateUserRequest {
	return UpdateUserRequest{Email: u.Email, Name: u.Name, Role: u.Role, Active: &u.Active}
}

// PasswordChange is the body of a password change.
type PasswordChange struct {
	// CurrentPassword proves the caller knows the password.
	CurrentPassword string `json:"current_password" doc:"The password now" format:"password" example:"correct-horse-battery" validate:"required,max=72"`
	// NewPassword replaces it.
	NewPassword string `json:"new_password" doc:"The new password, 8 to 72 bytes" format:"password" example:"battery-staple-horse" validate:"required,min=8,max=72"`
}
