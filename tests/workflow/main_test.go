package workflow

import (
	"testing"

	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// TestMain tears down the PostgreSQL server the tests that ask for one
// started (pgtest starts it on first use).
func TestMain(m *testing.M) { pgtest.Main(m) }
