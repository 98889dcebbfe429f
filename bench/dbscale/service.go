package dbscale

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/uptrace/bun"
	"github.com/valyala/fasthttp"

	"github.com/asapjs/fiber-template/app"
	"github.com/asapjs/fiber-template/app/models"
	"github.com/asapjs/fiber-template/app/sessions"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/token"
)

// secret signs the bench's bearer token.
var secret = []byte("dbscale-bench-secret-0123456789abcdef")

// target is an application called on the handler path: the request as
// fasthttp hands it over once parsed, through the whole Fiber app.
type target struct {
	app           *fiber.App
	handler       fasthttp.RequestHandler
	authorization string
	// ctxs are the request contexts of the workers.
	ctxs []fasthttp.RequestCtx
}

func newTarget(app *fiber.App, authorization string, workers int) *target {
	return &target{app: app, handler: app.Handler(), authorization: authorization, ctxs: make([]fasthttp.RequestCtx, workers)}
}

// accessTTL is the lifetime of the benchmark's access token, longer than
// any run.
const accessTTL = 24 * time.Hour

// newService is the example service on db: through the router, JWT,
// binding, the repository, Bun and the JSON encoding.
func newService(ctx context.Context, db *bun.DB, workers int) (*target, error) {
	r, err := app.NewWithOptions(db, router.Config{
		BasePath:  "/api",
		JWTSecret: secret,
		Logger:    slog.New(slog.DiscardHandler),
	}, app.Options{Context: ctx, AccessTokenTTL: accessTTL, CountMaxAge: countMaxAge})
	if err != nil {
		return nil, fmt.Errorf("build the service: %w", err)
	}
	token, err := adminToken(ctx, db)
	if err != nil {
		return nil, err
	}
	return newTarget(r.App(), "Bearer "+token, workers), nil
}

// adminToken logs in the first seeded admin as the service would (the
// list is for admins): a session and its access token, valid for a day.
// The seed makes every admin inactive, and a session begins only for an
// active user, so that one is made active first: one row of the table,
// which every implementation reads alike.
func adminToken(ctx context.Context, db *bun.DB) (string, error) {
	var admin models.User
	if err := db.NewSelect().Model(&admin).Where("role = ?", models.RoleAdmin).OrderExpr("id").Limit(1).Scan(ctx); err != nil {
		return "", fmt.Errorf("find an admin: %w", err)
	}
	if !admin.Active {
		if _, err := db.NewUpdate().Model(&admin).Set("active = ?", true).WherePK().Exec(ctx); err != nil {
			return "", fmt.Errorf("activate the admin: %w", err)
		}
		admin.Active = true
	}
	keys, err := token.NewSecret(secret)
	if err != nil {
		return "", err
	}
	sess := sessions.New(db, sessions.Config{
		Keys: keys, Issuer: app.DefaultIssuer, Audience: app.DefaultAudience,
		AccessTTL: accessTTL, RefreshTTL: app.DefaultRefreshTokenTTL,
		Logger: slog.New(slog.DiscardHandler),
	})
	tok, err := sess.Begin(ctx, &admin, sessions.Client{}, time.Now())
	if err != nil {
		return "", fmt.Errorf("log the admin in: %w", err)
	}
	return tok.AccessToken, nil
}

// get serves path on the worker's context and returns the body, which is
// only valid until the worker's next request.
func (s *target) get(_ context.Context, worker int, path string) ([]byte, error) {
	rc := &s.ctxs[worker]
	// What fasthttp's server resets between two requests of a connection;
	// the request's context lives in the user values.
	rc.Request.Reset()
	rc.Response.Reset()
	rc.ResetUserValues()
	rc.Request.Header.SetMethod(fiber.MethodGet)
	rc.Request.SetRequestURI(path)
	rc.Request.Header.SetHost("bench.test")
	if s.authorization != "" {
		rc.Request.Header.Set(fiber.HeaderAuthorization, s.authorization)
	}
	s.handler(rc)
	if rc.Response.StatusCode() != http.StatusOK {
		return nil, fmt.Errorf("GET %s: status %d: %s", path, rc.Response.StatusCode(), rc.Response.Body())
	}
	return rc.Response.Body(), nil
}

// cursorBefore asks the service for the page before s and returns its
// next_cursor.
func (s *target) cursorBefore(ctx context.Context, sc scenario) (string, error) {
	before := sc
	before.page, before.byCursor = sc.page-1, false
	body, err := s.get(ctx, 0, before.path())
	if err != nil {
		return "", err
	}
	var page struct {
		NextCursor string `json:"next_cursor"`
	}
	if err := json.Unmarshal(body, &page); err != nil {
		return "", err
	}
	if page.NextCursor == "" {
		return "", fmt.Errorf("page %d has no next_cursor", before.page)
	}
	return page.NextCursor, nil
}
