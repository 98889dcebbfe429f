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
	"github.com/asapjs/fiber-template/app/repositories"
	"github.com/asapjs/fiber-template/app/sessions"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/token"
)

// secret signs the bench's bearer token.
var secret = []byte("dbscale-bench-secret-0123456789abcdef")

// service is the example service on one database, called on the handler
// path: the request as fasthttp hands it over once parsed, through the
// router, JWT, binding, the repository, Bun and the JSON encoding.
type service struct {
	handler       fasthttp.RequestHandler
	authorization string
	// ctxs are the request contexts of the workers.
	ctxs []fasthttp.RequestCtx
}

// accessTTL is the lifetime of the benchmark's access token, longer than
// any run.
const accessTTL = 24 * time.Hour

func newService(ctx context.Context, db *bun.DB, workers int) (*service, error) {
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
	return &service{handler: r.App().Handler(), authorization: "Bearer " + token, ctxs: make([]fasthttp.RequestCtx, workers)}, nil
}

// adminToken logs in the first seeded admin as the service would (the
// list is for admins): a session and its access token, valid for a day.
// (The seed makes every admin inactive, which a login would refuse, but a
// session begun directly serves the benchmark the same.)
func adminToken(ctx context.Context, db *bun.DB) (string, error) {
	var admin models.User
	if err := db.NewSelect().Model(&admin).Where("role = ?", models.RoleAdmin).OrderExpr("id").Limit(1).Scan(ctx); err != nil {
		return "", fmt.Errorf("find an admin: %w", err)
	}
	keys, err := token.NewSecret(secret)
	if err != nil {
		return "", err
	}
	sess := sessions.New(db, repositories.NewUsers(db), sessions.Config{
		Keys: keys, Issuer: app.DefaultIssuer, Audience: app.DefaultAudience,
		AccessTTL: accessTTL, RefreshTTL: app.DefaultRefreshTokenTTL,
		Logger: slog.New(slog.DiscardHandler),
	})
	tok, err := sess.Begin(ctx, &admin, sessions.Client{})
	if err != nil {
		return "", fmt.Errorf("log the admin in: %w", err)
	}
	return tok.AccessToken, nil
}

// get serves path on the worker's context and returns the body, which is
// only valid until the worker's next request.
func (s *service) get(_ context.Context, worker int, path string) ([]byte, error) {
	rc := &s.ctxs[worker]
	// What fasthttp's server resets between two requests of a connection;
	// the request's context lives in the user values.
	rc.Request.Reset()
	rc.Response.Reset()
	rc.ResetUserValues()
	rc.Request.Header.SetMethod(fiber.MethodGet)
	rc.Request.SetRequestURI(path)
	rc.Request.Header.Set(fiber.HeaderAuthorization, s.authorization)
	s.handler(rc)
	if rc.Response.StatusCode() != http.StatusOK {
		return nil, fmt.Errorf("GET %s: status %d: %s", path, rc.Response.StatusCode(), rc.Response.Body())
	}
	return rc.Response.Body(), nil
}

// cursorBefore asks the service for the page before s and returns its
// next_cursor and the id and creation time of its last user.
func (s *service) cursorBefore(ctx context.Context, sc scenario) (string, int64, time.Time, error) {
	before := sc
	before.page, before.byCursor = sc.page-1, false
	body, err := s.get(ctx, 0, before.path())
	if err != nil {
		return "", 0, time.Time{}, err
	}
	var page struct {
		Data []struct {
			ID        int64     `json:"id"`
			CreatedAt time.Time `json:"created_at"`
		} `json:"data"`
		NextCursor string `json:"next_cursor"`
	}
	if err := json.Unmarshal(body, &page); err != nil {
		return "", 0, time.Time{}, err
	}
	if page.NextCursor == "" || len(page.Data) == 0 {
		return "", 0, time.Time{}, fmt.Errorf("page %d has no next_cursor", before.page)
	}
	last := page.Data[len(page.Data)-1]
	return page.NextCursor, last.ID, last.CreatedAt, nil
}
