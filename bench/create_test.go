package bench

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/router"
)

// createBody is the JSON body of a sign-up, as the users example takes it.
const createBody = `{"email":"ada@example.com","name":"Ada Lovelace","password":"correct-horse-battery","role":"member"}`

// newUser is the create route's body: the users example's rules.
type newUser struct {
	Email    string `json:"email" validate:"required,email,max=254"`
	Name     string `json:"name" validate:"required,max=100"`
	Password string `json:"password" validate:"required,min=8,max=72"`
	Role     string `json:"role,omitempty" validate:"omitempty,oneof=admin member guest"`
}

type createInput struct{ Body newUser }

type created struct {
	ID    int64  `json:"id"`
	Email string `json:"email"`
	Name  string `json:"name"`
}

// createApps are the create route written by hand on Fiber (BodyParser and
// the same checks) and declared through the router.
func createApps(b *testing.B) map[string]*fiber.App {
	raw := fiber.New(fiber.Config{DisableStartupMessage: true})
	raw.Post("/api/users", func(c *fiber.Ctx) error {
		var in newUser
		if err := c.BodyParser(&in); err != nil {
			return c.Status(http.StatusBadRequest).JSON(fiber.Map{"field": "body"})
		}
		if in.Email == "" || len(in.Email) > 254 || !strings.Contains(in.Email, "@") || in.Name == "" || len(in.Name) > 100 ||
			len(in.Password) < 8 || len(in.Password) > 72 {
			return c.Status(http.StatusUnprocessableEntity).JSON(fiber.Map{"field": "body"})
		}
		return c.Status(http.StatusCreated).JSON(created{ID: 1, Email: in.Email, Name: in.Name})
	})
	r, err := router.New(router.Config{BasePath: "/api", Logger: slog.New(slog.DiscardHandler),
		Controllers: []router.Controller{router.Group{Path: "/users", Name: "Users", Declared: []router.Route{
			router.Post("/", func(_ *router.Ctx, in *createInput) (*created, error) {
				return &created{ID: 1, Email: in.Body.Email, Name: in.Body.Name}, nil
			}, router.Status(http.StatusCreated)),
		}}}})
	if err != nil {
		b.Fatal(err)
	}
	return map[string]*fiber.App{"raw-fiber": raw, "router": r.App()}
}

// BenchmarkCreateHTTP sends a sign-up body through app.Test to each
// implementation of the create route.
func BenchmarkCreateHTTP(b *testing.B) {
	apps := createApps(b)
	for _, name := range []string{"raw-fiber", "router"} {
		app := apps[name]
		b.Run("impl="+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/api/users", strings.NewReader(createBody))
				req.Header.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
				resp, err := app.Test(req, -1)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
				if resp.StatusCode != http.StatusCreated {
					b.Fatalf("status %d", resp.StatusCode)
				}
			}
		})
	}
}
