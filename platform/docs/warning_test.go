package docs_test

import (
	"strings"
	"testing"

	"github.com/asapjs/fiber-template/platform/docs"
)

func TestWarning(t *testing.T) {
	t.Parallel()
	t.Run("names the variables an operator sets, not internal settings", func(t *testing.T) {
		t.Parallel()
		got := docs.Warning()
		for _, want := range []string{"DOCS_AUTH=true", "DOCS_USERS="} {
			if !strings.Contains(got, want) {
				t.Errorf("Warning() = %q, want it to name %s", got, want)
			}
		}
		for _, internal := range []string{"apidocs", "useAuth", "UseAuth"} {
			if strings.Contains(got, internal) {
				t.Errorf("Warning() = %q names the internal setting %s", got, internal)
			}
		}
	})
}
