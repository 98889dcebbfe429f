package pgtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
)

// envServer is the server TEST_DATABASE_URL names; the harness neither
// starts nor stops it.
type envServer struct {
	url string
}

// fromEnv uses TEST_DATABASE_URL when it is set. A URL that is set but
// unusable is an error: the developer asked for that server.
func fromEnv(ctx context.Context) (server, error) {
	raw := os.Getenv("TEST_DATABASE_URL")
	if raw == "" {
		return nil, &unavailableError{reasons: []string{"TEST_DATABASE_URL is not set"}}
	}
	if !strings.HasPrefix(raw, "postgres://") && !strings.HasPrefix(raw, "postgresql://") {
		return nil, fmt.Errorf("TEST_DATABASE_URL must be a postgres:// or postgresql:// URL")
	}
	if _, err := url.Parse(raw); err != nil {
		return nil, fmt.Errorf("TEST_DATABASE_URL: %w", err)
	}
	s := &envServer{url: raw}
	if err := ping(ctx, raw); err != nil {
		return nil, fmt.Errorf("%s does not answer: %w", s.source(), err)
	}
	return s, nil
}

func (s *envServer) source() string { return "the server of TEST_DATABASE_URL" }

func (s *envServer) adminURL() string { return s.url }

func (s *envServer) close(context.Context) error { return nil }
