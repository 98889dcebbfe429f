package database_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/paging"
)

// city is a Bun model: a plain struct with bun tags.
type city struct {
	bun.BaseModel `bun:"table:cities"`
	ID            int64  `bun:"id,pk,autoincrement" json:"id"`
	Name          string `bun:"name,notnull" json:"name"`
}

// Paginate answers one page of a select query in the paging envelope a
// list route returns: here the second page of two cities out of five, its
// total counted exactly. A handler passes c.Paging() as the page.
func ExamplePaginate() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "paginate")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = os.RemoveAll(dir) }()
	db, err := database.Open(ctx, "sqlite:"+filepath.Join(dir, "cities.db"))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer func() { _ = db.Close() }()
	rows := []city{{Name: "Lisbon"}, {Name: "Oslo"}, {Name: "Porto"}, {Name: "Rome"}, {Name: "Vienna"}}
	if _, err := db.NewCreateTable().Model((*city)(nil)).Exec(ctx); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := db.NewInsert().Model(&rows).Exec(ctx); err != nil {
		fmt.Println(err)
		return
	}

	page, err := database.Paginate[city](ctx, db.NewSelect().Order("id"),
		paging.Paging{Page: 1, Limit: 2}, database.WithCount(database.CountExact))
	if err != nil {
		fmt.Println(err)
		return
	}
	out, _ := json.Marshal(page)
	fmt.Println(string(out))
	// Output:
	// {"data":[{"id":3,"name":"Porto"},{"id":4,"name":"Rome"}],"page":1,"page_size":2,"max_page":2,"has_prev":true,"has_next":true,"total_elements":5,"total_exact":true}
}
