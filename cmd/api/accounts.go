package main

import (
	"context"

	"github.com/asapjs/fiber-template/app"
)

// accountOptions maps the accounts settings onto the service's options:
// token lifetimes, the bootstrap admin, and the auth rate limit. Its
// counters are the service's default: in the database on PostgreSQL, so
// every instance counts together, swept while ctx lasts; in memory, within
// a fixed budget, on SQLite (one process).
func accountOptions(ctx context.Context, cfg config) app.Options {
	a := cfg.Accounts
	opts := app.Options{
		AccessTokenTTL:       a.AccessTTL,
		RefreshTokenTTL:      a.RefreshTTL,
		AuthRateLimit:        a.AuthRateLimit,
		Context:              ctx,
		IntrospectionClients: a.IntrospectionClients,
		PublicURL:            cfg.Fleet.PublicURL,
	}
	if a.AdminEmail != "" {
		opts.Admin = &app.NewUser{Email: a.AdminEmail, Name: "Administrator", Password: a.AdminPassword, Role: "admin"}
	}
	return opts
}
