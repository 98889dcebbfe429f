package bench

import (
	"testing"

	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

// TestMain tears down the PostgreSQL server the service benchmarks start.
func TestMain(m *testing.M) { pgtest.Main(m) }
