package main

import (
	"log/slog"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/database"
)

// databaseSession gives each request a database session: its reads go to
// a read replica until it writes or opens a transaction, then to the
// primary, so a request always reads its own writes. It sits here, where
// the router and the database meet, so that neither imports the other.
func databaseSession(c *fiber.Ctx) error {
	c.SetUserContext(database.WithSession(c.UserContext()))
	return c.Next()
}

// logReplicaStats writes what each read replica served, at shutdown.
func logReplicaStats(logger *slog.Logger, replicas *database.Replicas) {
	if replicas == nil {
		return
	}
	for _, s := range replicas.Stats() {
		logger.Info("read replica",
			slog.String("replica", s.Name), slog.Bool("healthy", s.Healthy),
			slog.Int64("reads", s.Reads), slog.Int64("failovers", s.Failovers))
	}
	logger.Info("reads served by the primary while no replica was up", slog.Int64("reads", replicas.PrimaryReads()))
}
