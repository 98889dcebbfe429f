package integration

import (
	"testing"

	"github.com/asapjs/fiber-template/tests/integration/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }
