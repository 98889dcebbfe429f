package connlimit

import (
	"log/slog"
	"time"
)

// Config configures New.
type Config struct {
	// Total caps the connections open at once, from every client
	// together. A connection past it is refused.
	//
	// Optional. Default: DefaultLimits of the process's open-files limit
	// (RLIMIT_NOFILE): three quarters of it, at most MaxDefaultTotal
	Total int
	// PerAddress caps the connections open at once from one client
	// address (clientip.Key of the TCP peer: an IPv4 address, an IPv6
	// /64). A connection past it is refused. Trusted proxies are exempt.
	//
	// Optional. Default: an eighth of Total, at least 1
	PerAddress int
	// TrustedProxies lists the proxies, as IP addresses or CIDR ranges, as
	// clientip.Config spells them. Each stands for many clients, so its
	// connections count only against Total.
	//
	// Optional. Default: nil (every peer is one client)
	TrustedProxies []string
	// Logger receives a warning when accepting fails for want of
	// resources, and one at most every LogEvery while connections are
	// refused over a cap.
	//
	// Optional. Default: slog.Default()
	Logger *slog.Logger
}

// MaxDefaultTotal bounds the default Total: an idle connection holds about
// 12 KB (its read buffer, its goroutine and its request), so 10,000 hold
// about 120 MB. Set Total to go beyond.
const MaxDefaultTotal = 10000

// LogEvery is how often, at most, the connections refused over a cap are
// logged, with their number since the last line.
const LogEvery = 10 * time.Second

// DefaultLimits returns the caps of a Config that leaves them zero, for a
// process that may hold openFiles files open (RLIMIT_NOFILE; 0 when
// unknown): Total is three quarters of openFiles, the last quarter being
// left to the database pool, the logs and temporary files, and at most
// MaxDefaultTotal; PerAddress is an eighth of Total. With an open-files
// limit of 1024 that is 768 and 96: one address holding all the
// connections it can open leaves seven eighths to the others.
func DefaultLimits(openFiles uint64) (total, perAddress int) {
	total = MaxDefaultTotal
	if openFiles > 0 && openFiles/4*3 < MaxDefaultTotal {
		total = max(int(openFiles/4*3), 1)
	}
	return total, defaultPerAddress(total)
}

// defaultPerAddress is the PerAddress of a Config with this Total.
func defaultPerAddress(total int) int { return max(total/8, 1) }

// configDefault fills the zero fields of cfg.
func configDefault(cfg Config) Config {
	if cfg.Total <= 0 {
		cfg.Total, _ = DefaultLimits(OpenFilesLimit())
	}
	if cfg.PerAddress <= 0 {
		cfg.PerAddress = defaultPerAddress(cfg.Total)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return cfg
}
