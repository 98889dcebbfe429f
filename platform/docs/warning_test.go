package docs_test

import (
	"testing"

	"github.com/asapjs/fiber-template/platform/docs"
)

func TestWarning(t *testing.T) {
	t.Parallel()
	t.Run("tells how to turn docs authentication on", func(t *testing.T) {
		t.Parallel()
		const want = "API docs UI authentication is disabled: set DOCS_AUTH=true and DOCS_USERS (apidocs useAuth and user accounts) to protect it"
		if got := docs.Warning(); got != want {
			t.Errorf("Warning() = %q, want %q", got, want)
		}
	})
}
