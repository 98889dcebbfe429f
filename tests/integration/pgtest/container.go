package pgtest

import (
	"context"
	"fmt"
	"time"

	"github.com/testcontainers/testcontainers-go"
	tclog "github.com/testcontainers/testcontainers-go/log"
	tcpostgres "github.com/testcontainers/testcontainers-go/modules/postgres"
)

// containerImage is the PostgreSQL image of the container source.
const containerImage = "postgres:16-alpine"

// dockerProbeTimeout bounds the check for a Docker provider, which must be
// quick where there is none.
const dockerProbeTimeout = 3 * time.Second

// containerServer is a throwaway PostgreSQL container.
type containerServer struct {
	ctr *tcpostgres.PostgresContainer
	url string
}

// fromContainer runs PostgreSQL in a container when a Docker provider
// answers; without one it passes, quietly.
func fromContainer(ctx context.Context) (server, error) {
	if err := dockerHealthy(ctx); err != nil {
		return nil, &unavailableError{reasons: []string{"no Docker provider for testcontainers answered"}}
	}
	ctr, err := tcpostgres.Run(ctx, containerImage, tcpostgres.BasicWaitStrategies())
	if err != nil {
		if ctr != nil {
			_ = testcontainers.TerminateContainer(ctr)
		}
		return nil, fmt.Errorf("start PostgreSQL container: %w", err)
	}
	url, err := ctr.ConnectionString(ctx, "sslmode=disable")
	if err != nil {
		_ = testcontainers.TerminateContainer(ctr)
		return nil, fmt.Errorf("PostgreSQL container address: %w", err)
	}
	return &containerServer{ctr: ctr, url: url}, nil
}

// dockerHealthy asks the Docker provider for its info, briefly and without
// logging.
func dockerHealthy(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, dockerProbeTimeout)
	defer cancel()
	p, err := testcontainers.NewDockerProvider(testcontainers.WithLogger(tclog.NewNoopLogger()))
	if err != nil {
		return err
	}
	return p.Health(ctx) // Health closes the provider
}

func (s *containerServer) source() string { return "a testcontainers PostgreSQL container" }

func (s *containerServer) adminURL() string { return s.url }

func (s *containerServer) close(ctx context.Context) error {
	if err := s.ctr.Terminate(ctx); err != nil {
		return fmt.Errorf("terminate container: %w", err)
	}
	return nil
}
