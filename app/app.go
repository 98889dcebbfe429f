package app

import (
	"github.com/uptrace/bun"

	"github.com/asapjs/fiber-template/platform/database"
	"github.com/asapjs/fiber-template/platform/router"
)

// New builds the service on db: the database extension with the models of
// the example service, and its controllers, on top of cfg.
func New(db *bun.DB, cfg router.Config) (*router.Router, error) {
	cfg.Extensions = append(cfg.Extensions, database.NewExtension(db))
	return router.New(cfg)
}
