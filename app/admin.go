package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/app/accounts"
	"github.com/asapjs/fiber-template/app/controllers"
	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/platform/database"
)

// NewUser is a user created outside the API: the bootstrap admin, or one
// made by `api users create`.
type NewUser struct {
	Email, Name, Password string
	// Role is admin, member or guest; the bootstrap admin is always an
	// admin.
	Role string
}

// ErrUserExists is returned by CreateUser for an email already taken.
var ErrUserExists = errors.New("a user with this email exists")

// CreateUser creates an active user from nu on db, hashing its password at
// cost (0 is bcrypt's default); a taken email is ErrUserExists.
func CreateUser(ctx context.Context, db *bun.DB, nu NewUser, cost int) (*models.User, error) {
	passwords, err := accounts.NewPasswords(optionsDefault(Options{BcryptCost: cost}).BcryptCost, DefaultHashWait)
	if err != nil {
		return nil, err
	}
	return createUser(ctx, repositories.NewUsers(db), passwords, nu)
}

func createUser(ctx context.Context, users *repositories.Users, passwords *accounts.Passwords, nu NewUser) (*models.User, error) {
	switch nu.Role {
	case models.RoleAdmin, models.RoleMember, models.RoleGuest:
	default:
		return nil, fmt.Errorf("role must be admin, member or guest, got %q", nu.Role)
	}
	email, err := controllers.NormalizeEmail(nu.Email)
	if err != nil {
		return nil, fmt.Errorf("email %q: %w", nu.Email, err)
	}
	if len(nu.Password) < 8 || len(nu.Password) > 72 {
		return nil, errors.New("password must have 8 to 72 bytes")
	}
	name := strings.TrimSpace(nu.Name)
	if name == "" {
		name = "Administrator"
	}
	hash, err := passwords.Hash(ctx, nu.Password)
	if err != nil {
		return nil, err
	}
	u := &models.User{Email: email, Name: name, PasswordHash: hash, Role: nu.Role, Active: true}
	if err := users.Create(ctx, u); err != nil {
		if errors.Is(err, repositories.ErrDuplicate) {
			return nil, ErrUserExists
		}
		return nil, err
	}
	return u, nil
}

// ensureAdmin creates the bootstrap admin unless a user with its email
// exists; an existing user is left as it is. Creating it is logged at info
// level with the email, never the password.
func ensureAdmin(ctx context.Context, users *repositories.Users, passwords *accounts.Passwords, nu NewUser, logger *slog.Logger) error {
	nu.Role = models.RoleAdmin
	email, err := controllers.NormalizeEmail(nu.Email)
	if err != nil {
		return fmt.Errorf("admin email %q: %w", nu.Email, err)
	}
	_, err = users.GetByEmail(database.OnPrimary(ctx), email)
	switch {
	case err == nil:
		return nil
	case !errors.Is(err, repositories.ErrNotFound):
		return err
	}
	u, err := createUser(ctx, users, passwords, nu)
	switch {
	case errors.Is(err, ErrUserExists):
		// Another instance starting at once created it first.
		return nil
	case err != nil:
		return err
	}
	logger.InfoContext(ctx, "created the bootstrap admin", slog.String("email", u.Email), slog.Int64("id", u.ID))
	return nil
}
