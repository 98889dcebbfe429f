package docs

import (
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/clientip"
)

// DefaultRealm is the Basic-auth realm when GuardConfig.Realm is empty.
const DefaultRealm = "Developer"

// Defaults of the guard's throttle.
const (
	// DefaultMaxFailures is the default GuardConfig.MaxFailures.
	DefaultMaxFailures = 10
	// DefaultFailureWindow is the default GuardConfig.FailureWindow.
	DefaultFailureWindow = time.Minute
	// DefaultFailureBudget is the default GuardConfig.FailureBudget: 1 MiB,
	// the failures of 4,096 client addresses.
	DefaultFailureBudget = 1 << 20
)

// GuardConfig configures Guard.
type GuardConfig struct {
	// Users maps user names to the passwords Guard accepts. With no users
	// every request is refused: a guard that was asked for never fails open.
	//
	// Required.
	Users map[string]string

	// Realm names the protection space in the WWW-Authenticate challenge;
	// browsers show it in their login prompt.
	//
	// Optional. Default: "Developer"
	Realm string

	// MaxFailures is how many failed attempts (a request whose
	// Authorization header is not valid credentials) a client may make in one FailureWindow; then every
	// request of the client, right credentials or not, is a 429 with
	// Retry-After until the window ends. Successes do not count.
	//
	// Optional. Default: 10
	MaxFailures int

	// FailureWindow is the fixed window failures are counted in, from a
	// client's first failure.
	//
	// Optional. Default: 1 minute
	FailureWindow time.Duration

	// FailureBudget is the memory, in bytes, the failure counters of this
	// process may take (ratelimit.EntryBytes per client); past it the
	// client seen least recently is forgotten.
	//
	// Optional. Default: 1 MiB
	FailureBudget int

	// Key names the client failures count against.
	//
	// Optional. Default: clientip.Key(clientip.From(c)), the canonical
	// client address (IPv6 by /64)
	Key func(c *fiber.Ctx) string
}

// GuardConfigDefault is the default guard configuration. It has no Users,
// which Guard requires to let anyone in.
var GuardConfigDefault = GuardConfig{
	Realm:         DefaultRealm,
	MaxFailures:   DefaultMaxFailures,
	FailureWindow: DefaultFailureWindow,
	FailureBudget: DefaultFailureBudget,
	Key:           func(c *fiber.Ctx) string { return clientip.Key(clientip.From(c)) },
}

// guardConfigDefault fills the zero fields of cfg with their defaults.
func guardConfigDefault(cfg GuardConfig) GuardConfig {
	if cfg.Realm == "" {
		cfg.Realm = GuardConfigDefault.Realm
	}
	if cfg.MaxFailures <= 0 {
		cfg.MaxFailures = GuardConfigDefault.MaxFailures
	}
	if cfg.FailureWindow <= 0 {
		cfg.FailureWindow = GuardConfigDefault.FailureWindow
	}
	if cfg.FailureBudget <= 0 {
		cfg.FailureBudget = GuardConfigDefault.FailureBudget
	}
	if cfg.Key == nil {
		cfg.Key = GuardConfigDefault.Key
	}
	return cfg
}
