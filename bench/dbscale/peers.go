package dbscale

import (
	"context"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humafiber"
	"github.com/gofiber/fiber/v2"
	_ "github.com/jackc/pgx/v5/stdlib" // the pgx driver of database/sql, for sqlx
	"github.com/jmoiron/sqlx"
	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/paging"
)

// The peers serve the same users page as the stacks a team might pick
// instead of this one, each written the way its documentation shows:
// neither documents keyset paging, so each counts and pages by LIMIT and
// OFFSET, and a cursor scenario is the same page by offset (as for
// today's strategy). Both answer the paging envelope of paging.New.

// openSQLx opens the sqlx peer's pool: pgx's database/sql driver, as
// sqlx's documentation opens PostgreSQL.
func openSQLx(dsn string) (*sqlx.DB, error) {
	db, err := sqlx.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(25)
	return db, nil
}

// sqlxApp is the list on Fiber with sqlx over pgx's database/sql driver,
// the stack of create-go-app/fiber-go-template: the query parameters read
// by hand, count(*) and the page with Get and Select into tagged structs.
func sqlxApp(db *sqlx.DB) *fiber.App {
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	app.Get("/api/users", func(c *fiber.Ctx) error {
		s, err := scenarioOf(func(key string) string { return c.Query(key) })
		if err != nil {
			return c.Status(fiber.StatusBadRequest).JSON(fiber.Map{"error": true, "msg": err.Error()})
		}
		ctx := c.UserContext()
		cond, args := where(s)
		var total int
		if err := db.GetContext(ctx, &total, "SELECT count(*) FROM users"+cond, args...); err != nil {
			return c.Status(fiber.StatusInternalServerError).JSON(fiber.Map{"error": true, "msg": err.Error()})
		}
		users := []user{}
		query := "SELECT " + columns + " FROM users" + cond + orderBy(s) + " LIMIT $" + strconv.Itoa(len(args)+1) + " OFFSET $" + strconv.Itoa(len(args)+2)
		if err := db.SelectContext(ctx, &users, query, append(args, limit, s.page*limit)...); err != nil {
			return c.Status(fiber.StatusInternalServerError).JSON(fiber.Map{"error": true, "msg": err.Error()})
		}
		return c.JSON(paging.New(users, total, paging.Paging{Page: s.page, Limit: limit}))
	})
	return app
}

// humaInput is the list's input in huma's tags, with its rules.
type humaInput struct {
	Page  int    `query:"page" default:"0" minimum:"0"`
	Limit int    `query:"limit" default:"20" minimum:"1" maximum:"100"`
	Role  string `query:"role" enum:"admin,member,guest"`
	Q     string `query:"q" maxLength:"100"`
	Sort  string `query:"sort" enum:"-created_at"`
}

// humaOutput is the list's answer.
type humaOutput struct {
	Body paging.Page[user]
}

// humaApp is the list declared with huma v2 on Fiber (humafiber), read
// with Bun the way Bun's documentation pages: Limit, Offset and
// ScanAndCount, which runs the count and the page side by side.
func humaApp(db *bun.DB) *fiber.App {
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	api := humafiber.New(app, huma.DefaultConfig("Users", "1.0.0"))
	huma.Register(api, huma.Operation{OperationID: "listUsers", Method: "GET", Path: "/api/users"},
		func(ctx context.Context, in *humaInput) (*humaOutput, error) {
			var users []user
			q := db.NewSelect().Model(&users).Limit(int64(in.Limit)).Offset(int64(in.Page * in.Limit))
			if in.Role != "" {
				q = q.Where("role = ?", in.Role)
			}
			if in.Q != "" {
				pattern := "%" + strings.ToLower(in.Q) + "%"
				q = q.Where("(lower(name) LIKE ? ESCAPE '!' OR lower(email) LIKE ? ESCAPE '!')", pattern, pattern)
			}
			if in.Sort == "-created_at" {
				q = q.Order("created_at DESC", "id DESC")
			} else {
				q = q.Order("id ASC")
			}
			total, err := q.ScanAndCount(ctx)
			if err != nil {
				return nil, huma.Error500InternalServerError("list users", err)
			}
			if users == nil {
				users = []user{}
			}
			return &humaOutput{Body: paging.New(users, int(total), paging.Paging{Page: in.Page, Limit: in.Limit})}, nil
		})
	return app
}
