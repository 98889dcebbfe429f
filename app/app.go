package app

import (
	"crypto/rand"
	"fmt"
	"time"

	"github.com/uptrace/bun"
	"golang.org/x/crypto/bcrypt"

	"github.com/asapjs/fiber-template/app/controllers"
	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/router/bunext"
)

// Options tune the example service beyond the router's Config.
type Options struct {
	// BcryptCost is the bcrypt cost of password hashes, between
	// bcrypt.MinCost and bcrypt.MaxCost. Tests lower it to sign up many
	// users quickly.
	//
	// Optional. Default: bcrypt.DefaultCost
	BcryptCost int
	// TokenTTL is how long an access token from the login is valid.
	//
	// Optional. Default: 1h
	TokenTTL time.Duration
	// CursorSecret signs the cursors of the list routes (next_cursor).
	//
	// Optional. Default: the router Config's JWTSecret; either way the key
	// is derived from it with a label of its own (see paging.NewCursors)
	CursorSecret []byte
	// Count is how the list routes count their total_elements.
	//
	// Optional. Default: database.CountAuto(database.DefaultCountBudget)
	Count database.CountStrategy
}

// Defaults of the Options.
const (
	// DefaultTokenTTL is the lifetime of an access token.
	DefaultTokenTTL = time.Hour
)

func optionsDefault(o Options) Options {
	if o.BcryptCost == 0 {
		o.BcryptCost = bcrypt.DefaultCost
	}
	if o.TokenTTL <= 0 {
		o.TokenTTL = DefaultTokenTTL
	}
	return o
}

// Models are the Bun models of the example service, in the order their
// tables are created.
func Models() []any {
	return []any{(*models.User)(nil)}
}

// New builds the service on db with the default Options: the database
// extension with the models of the example service, and its controllers,
// on top of cfg. The tables must exist; see package migrations.
func New(db *bun.DB, cfg router.Config) (*router.Router, error) {
	return NewWithOptions(db, cfg, Options{})
}

// NewWithOptions is New with Options. cfg.JWTSecret signs the tokens of the
// login and verifies them on the other routes; when it is empty a random
// secret is made up, so tokens do not outlive the process.
func NewWithOptions(db *bun.DB, cfg router.Config, opts Options) (*router.Router, error) {
	opts = optionsDefault(opts)
	if len(cfg.JWTSecret) == 0 {
		cfg.JWTSecret = make([]byte, 32)
		if _, err := rand.Read(cfg.JWTSecret); err != nil {
			return nil, fmt.Errorf("app: generate JWT secret: %w", err)
		}
	}
	passwords, err := controllers.NewPasswords(opts.BcryptCost)
	if err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	cursorSecret := opts.CursorSecret
	if len(cursorSecret) == 0 {
		cursorSecret = cfg.JWTSecret
	}
	cursors, err := paging.NewCursors(cursorSecret)
	if err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	users := repositories.NewUsers(db, database.WithCursors(cursors), database.WithCount(opts.Count))

	cfg.Extensions = append(cfg.Extensions, bunext.New(database.NewCatalog(db, Models()...)))
	// The service's controllers come first; the caller's are kept after.
	cfg.Controllers = append([]router.Controller{
		controllers.NewAuth(users, passwords, cfg.JWTSecret, opts.TokenTTL),
		controllers.NewUsers(users, passwords),
	}, cfg.Controllers...)
	return router.New(cfg)
}
