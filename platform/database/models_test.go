package database_test

import (
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

// The library models: an author has one profile and many books, a book
// belongs to its author and has many tags through book_tags.
type (
	author struct {
		bun.BaseModel `bun:"table:authors" doc:"Writers of books"`

		ID      int64    `bun:"id,pk,autoincrement"`
		Name    string   `bun:"name,notnull" doc:"Pen name, as 'printed'"`
		Email   string   `bun:"email,notnull,unique"`
		Profile *profile `bun:"rel:has-one,join:id=author_id"`
		Books   []*book  `bun:"rel:has-many,join:id=author_id"`
	}
	profile struct {
		bun.BaseModel `bun:"table:profiles"`

		ID       int64  `bun:"id,pk,autoincrement"`
		AuthorID int64  `bun:"author_id,notnull,unique"`
		Bio      string `bun:"bio"`
	}
	book struct {
		bun.BaseModel `bun:"table:books"`

		ID        int64     `bun:"id,pk,autoincrement"`
		AuthorID  int64     `bun:"author_id,notnull"`
		Title     string    `bun:"title,notnull"`
		Status    string    `bun:"status,notnull,default:'draft'"`
		CreatedAt time.Time `bun:"created_at,notnull,default:current_timestamp"`
		Author    *author   `bun:"rel:belongs-to,join:author_id=id,on_delete:cascade"`
		Tags      []*tag    `bun:"m2m:book_tags,join:Book=Tag"`
	}
	tag struct {
		bun.BaseModel `bun:"table:tags"`

		ID   int64  `bun:"id,pk,autoincrement"`
		Name string `bun:"name,notnull,unique"`
	}
	bookTag struct {
		bun.BaseModel `bun:"table:book_tags"`

		BookID int64 `bun:"book_id,pk"`
		Book   *book `bun:"rel:belongs-to,join:book_id=id"`
		TagID  int64 `bun:"tag_id,pk"`
		Tag    *tag  `bun:"rel:belongs-to,join:tag_id=id"`
	}
)

// Indexes declares the secondary indexes of books.
func (*book) Indexes() []database.Index {
	return []database.Index{
		{Columns: []string{"author_id", "title"}, Unique: true},
		{Name: "books_by_date", Columns: []string{"created_at"}},
	}
}

// library lists the library models. The join model comes last: the
// extension resolves it before the models whose m2m relations use it.
func library() []any {
	return []any{(*author)(nil), (*profile)(nil), (*book)(nil), (*tag)(nil), (*bookTag)(nil)}
}

// openSQLite opens a temporary SQLite database for t.
func openSQLite(t *testing.T) *bun.DB { return servicetest.SQLite(t) }
