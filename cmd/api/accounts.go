package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/storage/postgres/v3"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/platform/database"
)

// rateLimitTable is the table the PostgreSQL storage keeps the auth rate
// limit counters in; a migration creates it (see migrations).
const rateLimitTable = "rate_limits"

// accountOptions maps the accounts settings onto the service's options:
// token lifetimes, the bootstrap admin, and the auth rate limit with its
// counters in PostgreSQL when the service runs on it, so every instance
// counts together (SQLite is one process: its counters stay in memory).
// The returned close releases the storage.
func accountOptions(ctx context.Context, cfg config, logger *slog.Logger) (app.Options, func(), error) {
	a := cfg.Accounts
	opts := app.Options{
		AccessTokenTTL:  a.AccessTTL,
		RefreshTokenTTL: a.RefreshTTL,
		AuthRateLimit:   a.AuthRateLimit,
		Context:         ctx,
	}
	if a.AdminEmail != "" {
		opts.Admin = &app.NewUser{Email: a.AdminEmail, Name: "Administrator", Password: a.AdminPassword, Role: "admin"}
	}
	closeStorage := func() {}
	if a.AuthRateLimit > 0 {
		if dialect, _ := database.DialectOf(cfg.DatabaseURL); dialect == database.Postgres {
			storage, err := postgresStorage(cfg.DatabaseURL)
			if err != nil {
				return opts, closeStorage, err
			}
			opts.RateLimitStorage = storage
			closeStorage = func() {
				if err := storage.Close(); err != nil {
					logger.Warn("close rate limit storage", slog.Any("error", err))
				}
			}
		}
	}
	return opts, closeStorage, nil
}

// postgresStorage opens the gofiber/storage PostgreSQL backend, which
// panics when it cannot connect; the panic becomes an error.
func postgresStorage(dsn string) (storage fiber.Storage, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("open rate limit storage: %v", p)
		}
	}()
	return postgres.New(postgres.Config{ConnectionURI: dsn, Table: rateLimitTable}), nil
}
