package router

import (
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/paging"
)

// TestConfigDefaults checks that each field a caller leaves zero, or sets
// out of range, gets its documented default, and that a value in range
// is kept.
func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	zero := configDefault(Config{})
	negative := configDefault(Config{
		BodyLimit: -1, MaxLimit: -1, HealthTimeout: -1, RequestTimeout: -1, RetryAfter: -1,
		ReadTimeout: -1, ReadHeaderTimeout: -1, WriteTimeout: -1, IdleTimeout: -1, IdempotencyTTL: -1,
	})
	set := configDefault(Config{
		Name: "orders", BodyLimit: 1, MaxLimit: 1, TokenCacheSize: 1, HealthTimeout: 1, RequestTimeout: 1,
		RetryAfter: time.Second, ReadTimeout: 2, ReadHeaderTimeout: 1, WriteTimeout: 1, IdleTimeout: 1, ProxyHeader: "X-Real-IP", Realm: "orders", IdempotencyTTL: time.Minute,
		CORS: CORS{AllowOrigins: "https://a.test", AllowHeaders: "X-A", ExposeHeaders: "X-B"},
	})
	tests := []struct {
		name           string
		zero, negative any // the defaulted values; negative is nil when not settable below zero
		want, set      any // the default, and the value a caller set
	}{
		{"Name", zero.Name, nil, defaultName, set.Name},
		{"BodyLimit", zero.BodyLimit, negative.BodyLimit, defaultBodyLimit, set.BodyLimit},
		{"MaxLimit", zero.MaxLimit, negative.MaxLimit, paging.DefaultMaxLimit, set.MaxLimit},
		{"TokenCacheSize", zero.TokenCacheSize, nil, defaultTokenCacheSize, set.TokenCacheSize},
		{"HealthTimeout", zero.HealthTimeout, negative.HealthTimeout, defaultHealthTimeout, set.HealthTimeout},
		{"RequestTimeout", zero.RequestTimeout, negative.RequestTimeout, DefaultRequestTimeout, set.RequestTimeout},
		{"RetryAfter", zero.RetryAfter, negative.RetryAfter, defaultRetryAfter, set.RetryAfter},
		{"ReadTimeout", zero.ReadTimeout, negative.ReadTimeout, defaultReadTimeout, set.ReadTimeout},
		{"ReadHeaderTimeout", zero.ReadHeaderTimeout, negative.ReadHeaderTimeout, DefaultReadHeaderTimeout, set.ReadHeaderTimeout},
		{"WriteTimeout", zero.WriteTimeout, negative.WriteTimeout, defaultWriteTimeout, set.WriteTimeout},
		{"IdleTimeout", zero.IdleTimeout, negative.IdleTimeout, defaultIdleTimeout, set.IdleTimeout},
		{"ProxyHeader", zero.ProxyHeader, nil, fiber.HeaderXForwardedFor, set.ProxyHeader},
		{"Realm", zero.Realm, nil, "api", set.Realm},
		{"IdempotencyTTL", zero.IdempotencyTTL, negative.IdempotencyTTL, defaultIdempotencyTTL, set.IdempotencyTTL},
		{"CORS.AllowOrigins", zero.CORS.AllowOrigins, nil, "*", set.CORS.AllowOrigins},
		{"CORS.AllowHeaders", zero.CORS.AllowHeaders, nil, DefaultCORSAllowHeaders, set.CORS.AllowHeaders},
		{"CORS.ExposeHeaders", zero.CORS.ExposeHeaders, nil, DefaultCORSExposeHeaders, set.CORS.ExposeHeaders},
	}
	for _, tt := range tests {
		if tt.zero != tt.want {
			t.Errorf("%s left zero is %v, want the default %v", tt.name, tt.zero, tt.want)
		}
		if tt.negative != nil && tt.negative != tt.want {
			t.Errorf("%s set below zero is %v, want the default %v", tt.name, tt.negative, tt.want)
		}
		if tt.set == tt.want {
			t.Errorf("%s: the test sets it to its default %v, so it checks nothing", tt.name, tt.set)
		}
	}
	// Set values are kept.
	if set.Name != "orders" || set.BodyLimit != 1 || set.MaxLimit != 1 || set.TokenCacheSize != 1 ||
		set.HealthTimeout != 1 || set.RequestTimeout != 1 || set.RetryAfter != time.Second ||
		set.ReadTimeout != 2 || set.ReadHeaderTimeout != 1 || set.WriteTimeout != 1 || set.IdleTimeout != 1 || set.ProxyHeader != "X-Real-IP" ||
		set.CORS.AllowOrigins != "https://a.test" || set.CORS.AllowHeaders != "X-A" || set.CORS.ExposeHeaders != "X-B" {
		t.Errorf("configDefault changed values the caller set: %+v", set)
	}
	// The head's bound is never past the body's.
	if got := configDefault(Config{ReadTimeout: time.Second}).ReadHeaderTimeout; got != time.Second {
		t.Errorf("ReadHeaderTimeout under a ReadTimeout of 1s is %v, want 1s", got)
	}
	// RetryAfter is whole seconds: under one second is the default.
	if got := configDefault(Config{RetryAfter: time.Second - 1}).RetryAfter; got != defaultRetryAfter {
		t.Errorf("RetryAfter of just under a second is %v, want the default %v", got, defaultRetryAfter)
	}
}
