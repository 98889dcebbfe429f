package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// variant is a configuration of the service and the flood's choice of
// accounts.
type variant struct {
	name, about string
	// env is added to the service's environment.
	env []string
	// username is the account of the flood's nth login in the run with id
	// run, whose admin is admin.
	username func(run, admin string, n uint64) string
}

var variants = []variant{
	{
		name: "throttled",
		about: "the default configuration (AUTH_RATE_LIMIT=30 a minute per address, 5 failed logins per account and address); " +
			"the flood from one address against the admin's account",
		username: func(_, admin string, _ uint64) string { return admin },
	},
	{
		name: "hashing",
		about: "AUTH_RATE_LIMIT=0 and every flood login against another, unknown account: no throttle answers, each login is a " +
			"bcrypt comparison, at most GOMAXPROCS-1 at a time and then a 503 after 1 s",
		env:      []string{"AUTH_RATE_LIMIT=0"},
		username: func(run, _ string, n uint64) string { return fmt.Sprintf("nobody-%s-%d@example.com", run, n) },
	},
}

// settle is the pause between two phases.
const settle = time.Second

// result is what a variant measured.
type result struct {
	v      variant
	phases []*phase
	// notes are the service's log lines above info during the phases.
	notes []string
}

// runVariant starts a service for v and runs its phases: a warm-up, then
// rounds of the list alone and the list during a flood.
func runVariant(ctx context.Context, o options, bin, work, run string, v variant) (*result, error) {
	dir, err := os.MkdirTemp(work, v.name+"-")
	if err != nil {
		return nil, err
	}
	dsn := o.databaseURL
	if dsn == "" {
		dsn = "sqlite:" + filepath.Join(dir, "app.db")
	}
	// An admin of the variant's own: on a shared PostgreSQL the first
	// variant's admin exists already, with another password.
	admin := "admin-" + run + "-" + v.name + "@example.com"
	password, secret := random(12), random(32)
	fmt.Printf("\n== %s: %s\n", v.name, v.about)
	srv, err := start(ctx, bin, dir, append([]string{
		"APP_ENV=production",
		"JWT_SECRET=" + secret,
		"HOST=127.0.0.1",
		"PORT=0",
		"DATABASE_URL=" + dsn,
		"ADMIN_EMAIL=" + admin,
		"ADMIN_PASSWORD=" + password,
	}, v.env...))
	if err != nil {
		return nil, err
	}
	defer func() {
		if err := srv.stop(); err != nil {
			fmt.Fprintf(os.Stderr, "flood: the %s service exited with %v\n", v.name, err)
		}
	}()
	l := &load{
		base:       srv.base,
		admin:      newClient(1),
		list:       newClient(o.listConns),
		flood:      newClient(o.floodConns),
		listConns:  o.listConns,
		floodConns: o.floodConns,
		username:   func(n uint64) string { return v.username(run, admin, n) },
	}
	defer l.admin.CloseIdleConnections()
	defer l.list.CloseIdleConnections()
	defer l.flood.CloseIdleConnections()
	res := &result{v: v}
	if l.authorization, err = adminToken(ctx, l.admin, l.base, admin, password); err != nil {
		return nil, err
	}
	if w := l.run(ctx, o.warmup, false); w.list.failed > 0 {
		return nil, fmt.Errorf("warm-up: the list failed %d times, first: %s", w.list.failed, w.list.failure)
	}
	srv.takeNotes()
	for round := 1; round <= o.rounds; round++ {
		for _, flood := range []bool{false, true} {
			if err := pause(ctx, settle); err != nil {
				return nil, err
			}
			// A fresh token for every phase: a run longer than the access
			// token's 15 minutes still lists.
			if l.authorization, err = adminToken(ctx, l.admin, l.base, admin, password); err != nil {
				return nil, err
			}
			before := measure(ctx, l.list, origin(l.base), routeOf(l.base), srv.cmd.Process.Pid)
			p := l.run(ctx, o.duration, flood)
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			p.spent = measure(ctx, l.list, origin(l.base), routeOf(l.base), srv.cmd.Process.Pid).since(before)
			p.round = round
			res.phases = append(res.phases, p)
			res.print(p)
		}
	}
	res.notes = srv.takeNotes()
	return res, nil
}

// pause waits d unless ctx ends first.
func pause(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// random returns n random bytes, URL-safe base64.
func random(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ms formats d in milliseconds.
func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

// print prints a phase as soon as it is measured.
func (r *result) print(p *phase) {
	kind := "alone"
	if p.flood {
		kind = "flood"
	}
	lat := p.list.latencies
	line := fmt.Sprintf("  round %d %-5s  list %7d req %8.0f req/s  p50 %9s  p90 %9s  p99 %9s",
		p.round, kind, len(lat), float64(len(lat))/p.elapsed.Seconds(), ms(percentile(lat, .50)), ms(percentile(lat, .90)), ms(percentile(lat, .99)))
	if p.list.failed > 0 {
		line += fmt.Sprintf("  list failures %d (first: %s)", p.list.failed, p.list.failure)
	}
	if p.flood {
		line += "  |  flood " + floodSummary(p)
	}
	fmt.Println(line)
	sp := p.spent
	wall := p.floodElapsed.Seconds()
	timing := fmt.Sprintf("service's own timing %.1f%% / %.1f%%", sp.share(0.005), sp.share(0.01))
	if sp.unavailable != "" {
		timing = "service's own timing unavailable: " + sp.unavailable
	}
	fmt.Printf("                 cpu: service %.2f, load %.2f of %d cores;  list over 5 ms / 10 ms: client %.1f%% / %.1f%%, %s\n",
		sp.service.Seconds()/wall, sp.load.Seconds()/wall, runtime.NumCPU(),
		over(lat, 5*time.Millisecond), over(lat, 10*time.Millisecond), timing)
}

// over is the percentage of sorted latencies above d.
func over(sorted []time.Duration, d time.Duration) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i, _ := slices.BinarySearch(sorted, d+1)
	return 100 * float64(len(sorted)-i) / float64(len(sorted))
}

// floodSummary is the flood's requests, rate and answers by status.
func floodSummary(p *phase) string {
	total := 0
	for _, k := range p.statuses {
		total += k
	}
	var other []string
	for _, status := range slices.Sorted(maps.Keys(p.statuses)) {
		switch status {
		case 401, 429, 503:
		case 0:
			other = append(other, fmt.Sprintf("transport errors %d", p.statuses[status]))
		default:
			other = append(other, fmt.Sprintf("%d: %d", status, p.statuses[status]))
		}
	}
	s := fmt.Sprintf("%d req %.0f req/s  401: %d  429: %d  503: %d", total, float64(total)/p.floodElapsed.Seconds(),
		p.statuses[401], p.statuses[429], p.statuses[503])
	if len(other) > 0 {
		s += "  other: " + strings.Join(other, ", ")
	}
	return s
}

// pooled returns the sorted latencies of the phases with or without the
// flood, and their failures.
func (r *result) pooled(flood bool) (latencies []time.Duration, failed int) {
	for _, p := range r.phases {
		if p.flood == flood {
			latencies = append(latencies, p.list.latencies...)
			failed += p.list.failed
		}
	}
	slices.Sort(latencies)
	return latencies, failed
}

// report prints the variant's pooled figures and ratios and reports
// whether it passed: the list never failed and its p99 during the floods
// is within maxRatio of its p99 alone.
func (r *result) report(maxRatio float64) bool {
	alone, aloneFailed := r.pooled(false)
	flooded, floodFailed := r.pooled(true)
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "  all rounds\tlist req\tp50\tp90\tp99\tfailed\t")
	for _, row := range []struct {
		name   string
		lat    []time.Duration
		failed int
	}{{"alone", alone, aloneFailed}, {"flood", flooded, floodFailed}} {
		fmt.Fprintf(w, "  %s\t%d\t%s\t%s\t%s\t%d\t\n", row.name, len(row.lat),
			ms(percentile(row.lat, .50)), ms(percentile(row.lat, .90)), ms(percentile(row.lat, .99)), row.failed)
	}
	_ = w.Flush()
	ratio := float64(percentile(flooded, .99)) / float64(percentile(alone, .99))
	var rounds []string
	for i := 0; i+1 < len(r.phases); i += 2 {
		a, f := r.phases[i], r.phases[i+1]
		rounds = append(rounds, fmt.Sprintf("%.2f", float64(percentile(f.list.latencies, .99))/float64(percentile(a.list.latencies, .99))))
	}
	fmt.Printf("  p99 flood/alone: %.2f (by round: %s; at most %.3g passes)\n", ratio, strings.Join(rounds, ", "), maxRatio)
	if len(r.notes) > 0 {
		fmt.Printf("  the service logged %d lines above info during the phases; the last: %s\n", len(r.notes), r.notes[len(r.notes)-1])
	}
	ok := ratio <= maxRatio && aloneFailed == 0 && floodFailed == 0
	if !ok {
		fmt.Printf("  %s: FAIL\n", r.v.name)
	}
	return ok
}
