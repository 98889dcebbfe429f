package router

import (
	"net/http"
	"slices"
	"testing"

	"github.com/asapjs/fiber-template/platform/problem"
)

// TestEveryRouteErrorsAddTheMiddlewares lists what every route answers:
// the built-in chain's declared errors, then those Config.MiddlewareErrors
// declares once for the user middleware.
func TestEveryRouteErrorsAddTheMiddlewares(t *testing.T) {
	t.Parallel()
	builtIn := []*problem.Error{errRequestTimeout, errUnavailable, errHeadersTooLarge, errReadTimeout}
	errTenant := problem.Declare(http.StatusBadRequest, "unknown_tenant", "Unknown tenant")
	cases := []struct {
		name       string
		middleware []*problem.Error
		want       []*problem.Error
	}{
		{"no middleware errors", nil, builtIn},
		{"a middleware error", []*problem.Error{errTenant}, append(slices.Clone(builtIn), errTenant)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := &Router{cfg: Config{MiddlewareErrors: tc.middleware}}
			if got := r.everyRouteErrors(); !slices.Equal(got, tc.want) {
				t.Errorf("every route answers %v, want %v", got, tc.want)
			}
		})
	}
}
