// Command flood checks that a flood of wrong-password logins does not
// starve the service's other routes: it runs the real service binary
// (cmd/api) as a process of its own on a loopback port, logs in as the
// bootstrap admin, and measures the authenticated users list alone and
// while connections flood the login route, in alternating phases of the
// same run. It exits non-zero when, in a variant, the list's p99 latency
// during the floods exceeds -max-ratio times its p99 alone, or when the
// list failed to answer 200.
//
//	go -C bench run ./flood [-duration 20s] [-flood-conns 16] [-list-conns 4] [-rounds 2]
//
// Two variants, each on a fresh service process:
//
//   - throttled: the default configuration (AUTH_RATE_LIMIT=30 per minute
//     per address, 5 failed logins per account and address); the flood
//     comes from one address against one account, the admin's.
//   - hashing: AUTH_RATE_LIMIT=0 and every flood request against another,
//     unknown account, so that no throttle answers and each login costs a
//     bcrypt comparison; only the bounded hashing (GOMAXPROCS-1 at a time,
//     then 503) protects the list.
//
// The service runs on SQLite in a temporary directory, or on PostgreSQL
// when -database-url (default $DATABASE_URL) names one; use a scratch
// database, since each run adds an admin and login failures to it.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// options are the flags.
type options struct {
	duration    time.Duration
	warmup      time.Duration
	floodConns  int
	listConns   int
	rounds      int
	maxRatio    float64
	databaseURL string
	api         string
	variants    string
}

func main() {
	var o options
	flag.DurationVar(&o.duration, "duration", 20*time.Second, "length of each phase")
	flag.DurationVar(&o.warmup, "warmup", 2*time.Second, "list load before the first phase of a variant, not measured")
	flag.IntVar(&o.floodConns, "flood-conns", 16, "connections flooding the login route")
	flag.IntVar(&o.listConns, "list-conns", 4, "connections loading the users list")
	flag.IntVar(&o.rounds, "rounds", 2, "rounds of a phase alone and a phase with the flood, per variant")
	flag.Float64Var(&o.maxRatio, "max-ratio", 3, "largest p99(flood)/p99(alone) of the list that passes")
	flag.StringVar(&o.databaseURL, "database-url", os.Getenv("DATABASE_URL"), "PostgreSQL DSN to run the service on; empty runs it on SQLite in a temporary directory")
	flag.StringVar(&o.api, "api", "", "service binary to run; empty builds ./cmd/api")
	flag.StringVar(&o.variants, "variants", "throttled,hashing", "variants to run, comma-separated")
	flag.Parse()
	if o.duration <= 0 || o.floodConns < 1 || o.listConns < 1 || o.rounds < 1 || o.maxRatio <= 0 {
		fmt.Fprintln(os.Stderr, "flood: -duration, -flood-conns, -list-conns, -rounds and -max-ratio must be above 0")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ok, err := run(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "flood:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

// run runs the variants in turn and reports whether every one passed.
func run(ctx context.Context, o options) (bool, error) {
	selected, err := pick(o.variants)
	if err != nil {
		return false, err
	}
	work, err := os.MkdirTemp("", "flood-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(work)
	bin := o.api
	if bin == "" {
		fmt.Println("building ./cmd/api")
		if bin, err = build(ctx, work); err != nil {
			return false, err
		}
	} else if bin, err = filepath.Abs(bin); err != nil {
		return false, err
	}
	// One admin per run and variant, so that runs on a shared PostgreSQL
	// do not meet each other's admins, lockouts or sessions.
	id := make([]byte, 4)
	_, _ = rand.Read(id)
	run := hex.EncodeToString(id)
	database := "SQLite in a temporary directory"
	if o.databaseURL != "" {
		u, err := url.Parse(o.databaseURL)
		if err != nil {
			return false, errors.New("-database-url is not a URL")
		}
		database = "PostgreSQL at " + u.Host + u.Path
	}
	fmt.Printf("service on %s; phases of %s, list %d connections, flood %d connections, %d rounds\n",
		database, o.duration, o.listConns, o.floodConns, o.rounds)
	pass := true
	for _, v := range selected {
		res, err := runVariant(ctx, o, bin, work, run, v)
		if err != nil {
			return false, fmt.Errorf("variant %s: %w", v.name, err)
		}
		if !res.report(o.maxRatio) {
			pass = false
		}
	}
	if pass {
		fmt.Printf("\nPASS: in every variant the list's p99 during the flood is within %.3gx of its p99 alone\n", o.maxRatio)
	} else {
		fmt.Printf("\nFAIL: see the variants above\n")
	}
	return pass, nil
}

// pick returns the variants named in a comma-separated list.
func pick(names string) ([]variant, error) {
	var out []variant
	for name := range strings.SplitSeq(names, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, v := range variants {
			if v.name == name {
				out, found = append(out, v), true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown variant %q (want throttled or hashing)", name)
		}
	}
	return out, nil
}
