package bench

import (
	"crypto/ed25519"
	"crypto/sha256"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/cors"
	"github.com/gofiber/fiber/v2/middleware/etag"
	"github.com/gofiber/fiber/v2/middleware/recover"
	"github.com/gofiber/fiber/v2/middleware/requestid"
	"github.com/golang-jwt/jwt/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/token"
)

// User is the item the list route returns.
type User struct {
	ID     int64  `json:"id"`
	Email  string `json:"email"`
	Name   string `json:"name"`
	Role   string `json:"role"`
	Active bool   `json:"active"`
}

// Users are the items every implementation answers with.
var Users = []User{
	{1, "ann@example.com", "Ann", "admin", true},
	{2, "bob@example.com", "Bob", "member", true},
	{3, "cy@example.com", "Cy", "guest", false},
}

// listQuery is the typed input of the list route.
type listQuery struct {
	paging.Query
	Role   string `query:"role" validate:"omitempty,oneof=admin member guest"`
	Q      string `query:"q" validate:"max=100"`
	Active *bool  `query:"active"`
}

func list(c *router.Ctx, in *listQuery) (*paging.Page[User], error) {
	p := paging.New(Users, 45, c.Paging())
	return &p, nil
}

const (
	// Target is the request every implementation answers.
	Target = "/api/users?page=1&limit=10&role=admin&q=ann&active=true"
	secret = "bench-secret-0123456789abcdef0123"
)

// RawApp is the baseline: the same route written by hand on plain Fiber,
// doing the same parsing and checks the router does; withMiddleware adds
// the request id, recover and CORS middleware the router runs.
func RawApp(withMiddleware bool) *fiber.App {
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	if withMiddleware {
		app.Use(requestid.New(), recover.New(), cors.New())
	}
	app.Get("/api/users", func(c *fiber.Ctx) error {
		q, field, status := rawQuery(c)
		if field != "" {
			return c.Status(status).JSON(fiber.Map{"field": field})
		}
		return c.JSON(paging.New(Users, 45, paging.Paging{Page: q.Page, Limit: q.Limit}))
	})
	return app
}

// rawQuery parses and checks the list's query by hand as the router does;
// a refused value is named by field, with its status.
func rawQuery(c *fiber.Ctx) (q listQuery, field string, status int) {
	var err error
	if q.Page, err = strconv.Atoi(c.Query("page", "0")); err != nil || q.Page < 0 {
		return q, "page", http.StatusBadRequest
	}
	if q.Limit, err = strconv.Atoi(c.Query("limit", "20")); err != nil || q.Limit < 1 || q.Limit > 100 {
		return q, "limit", http.StatusBadRequest
	}
	q.Role = c.Query("role")
	switch q.Role {
	case "", "admin", "member", "guest":
	default:
		return q, "role", http.StatusUnprocessableEntity
	}
	q.Q = c.Query("q")
	if len(q.Q) > 100 {
		return q, "q", http.StatusUnprocessableEntity
	}
	if v := c.Query("active"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return q, "active", http.StatusBadRequest
		}
		q.Active = &b
	}
	return q, "", 0
}

// SameAnswerApp is RawApp(true) answering what the router answers, by
// hand: the security headers of every answer (secure's four), Cache-Control,
// the page's rel="next" and rel="first" links keeping the filters, and a
// weak ETag of the body from Fiber's etag middleware, with 304 on a match.
// Against it, the router's ratio is what declaring the route costs, not
// what the answer carries.
func SameAnswerApp() *fiber.App {
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	app.Use(requestid.New(), recover.New(), cors.New(), func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
		c.Set(fiber.HeaderXFrameOptions, "DENY")
		c.Set(fiber.HeaderContentSecurityPolicy, "frame-ancestors 'none'")
		c.Set(fiber.HeaderReferrerPolicy, "no-referrer")
		return c.Next()
	}, etag.New(etag.Config{Weak: true}))
	app.Get("/api/users", func(c *fiber.Ctx) error {
		q, field, status := rawQuery(c)
		if field != "" {
			return c.Status(status).JSON(fiber.Map{"field": field})
		}
		page, limit, active := q.Page, q.Limit, c.Query("active")
		p := paging.New(Users, 45, paging.Paging{Page: q.Page, Limit: q.Limit})
		// The links: the filters sent, then the page size, then the page.
		link := make([]byte, 0, 256)
		link = append(link, c.Path()...)
		sep := byte('?')
		for _, kv := range [][2]string{{"role", q.Role}, {"q", q.Q}, {"active", active}} {
			if kv[1] != "" {
				link = append(append(append(append(link, sep), kv[0]...), '='), url.QueryEscape(kv[1])...)
				sep = '&'
			}
		}
		link = strconv.AppendInt(append(append(link, sep), "limit="...), int64(limit), 10)
		first := string(link)
		links := "<" + first + `>; rel="first"`
		if page > 0 {
			prev := strconv.AppendInt(append(link, "&page="...), int64(page-1), 10)
			links = "<" + string(prev) + `>; rel="prev", ` + links
		}
		if p.HasNext {
			next := strconv.AppendInt(append(link, "&page="...), int64(page+1), 10)
			links = "<" + string(next) + `>; rel="next", ` + links
		}
		c.Set(fiber.HeaderLink, links)
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.JSON(p)
	})
	return app
}

// RouterApp declares the route through the router, optionally behind JWT.
func RouterApp(auth bool) (*fiber.App, error) {
	return routerApp(auth, router.Config{})
}

// MetricsApp is RouterApp without JWT and with the request metrics on, in
// a registry of their own, as GET /metrics would serve them.
func MetricsApp() (*fiber.App, error) {
	return routerApp(false, router.Config{Metrics: prometheus.NewRegistry()})
}

// RevocationApp is RouterApp behind JWT with checker as the
// Config.TokenChecker run on every request's token: the service's is
// sessions.Service (issuer, audience and revoked sessions). The token must
// be signed with the benchmark's secret (Secret).
func RevocationApp(checker router.TokenChecker) (*fiber.App, error) {
	return routerApp(true, router.Config{TokenChecker: checker})
}

// routerApp declares the route on cfg, optionally behind JWT.
func routerApp(auth bool, cfg router.Config) (*fiber.App, error) {
	opts := []router.Option{router.Summary("List users")}
	if auth {
		opts = append(opts, router.Auth())
	}
	cfg.BasePath = "/api"
	keys, err := Keys()
	if err != nil {
		return nil, err
	}
	cfg.TokenKeys = keys
	cfg.Logger = slog.New(slog.DiscardHandler)
	cfg.Controllers = []router.Controller{router.Group{Path: "/users", Name: "Users", Declared: []router.Route{
		router.Get("/", list, opts...),
	}}}
	r, err := router.New(cfg)
	if err != nil {
		return nil, err
	}
	return r.App(), nil
}

// Secret is the HS256 secret of the benchmarks that measure that mode.
func Secret() []byte { return []byte(secret) }

// Keys are the Ed25519 keys the JWT routes verify tokens with, as a
// service whose tokens other services verify signs them: one key, made
// from a fixed seed so that every run signs alike.
func Keys() (*token.Keys, error) {
	seed := sha256.Sum256([]byte(secret))
	return token.NewEd25519(ed25519.NewKeyFromSeed(seed[:]))
}

// Token returns an access token the JWT route accepts for an hour: signed
// by Keys, with the claims the router requires.
func Token() (string, error) {
	keys, err := Keys()
	if err != nil {
		return "", err
	}
	now := time.Now()
	return keys.Sign(&token.Claims{
		RegisteredClaims: jwt.RegisteredClaims{
			Subject: "1", ID: "bench", IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour)),
		},
		SessionID: "bench",
	})
}
