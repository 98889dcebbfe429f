package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// usage is what the processes used and what the service measured itself
// up to a moment, so that a phase's share is the difference of two.
type usage struct {
	// service and load are the CPU time of the service process and of
	// this one (the load), zero where /proc is not there.
	service, load time.Duration
	// buckets are the service's cumulative counts of the list's 200
	// answers by upper bound in seconds (http_request_duration_seconds);
	// failed says why there are none.
	buckets map[float64]uint64
	failed  string
}

// measure samples the usage of the service with process id pid, whose
// list route is route (such as /api/users).
func measure(ctx context.Context, c *http.Client, origin, route string, pid int) usage {
	u := usage{buckets: map[float64]uint64{}}
	u.service, _ = cpuTime(pid)
	u.load, _ = cpuTime(os.Getpid())
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, origin+"/metrics", nil)
	if err != nil {
		u.failed = err.Error()
		return u
	}
	resp, err := c.Do(req)
	if err != nil {
		u.failed = err.Error()
		return u
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		u.failed = fmt.Sprintf("GET /metrics answered %d", resp.StatusCode)
		return u
	}
	want := fmt.Sprintf(`method="GET",route=%q,status="200",le="`, route)
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "http_request_duration_seconds_bucket{"+want)
		if !ok {
			continue
		}
		le, count, ok := strings.Cut(rest, `"} `)
		bound, err1 := strconv.ParseFloat(le, 64)
		n, err2 := strconv.ParseUint(count, 10, 64)
		if ok && err1 == nil && err2 == nil {
			u.buckets[bound] = n
		}
	}
	return u
}

// cpuTime returns the user and system CPU time of the process pid from
// /proc (Linux; false elsewhere).
func cpuTime(pid int) (time.Duration, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// The fields after the command, which is in parentheses: state is
	// field 3, utime and stime are 14 and 15, in clock ticks of 1/100 s.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, false
	}
	user, err1 := strconv.ParseInt(f[11], 10, 64)
	sys, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(user+sys) * 10 * time.Millisecond, true
}

// spent is what was used between two samples.
type spent struct {
	service, load time.Duration
	// over are the list's 200 answers the service took more than each
	// bound (seconds) to answer, and total all of them, by its own
	// histogram.
	over  map[float64]uint64
	total uint64
	// unavailable says why the service's own timing is missing.
	unavailable string
}

// since returns what was used from before to u.
func (u usage) since(before usage) spent {
	s := spent{service: u.service - before.service, load: u.load - before.load, over: map[float64]uint64{}}
	if s.unavailable = cmp.Or(before.failed, u.failed); s.unavailable != "" {
		return s
	}
	s.total = u.buckets[inf] - before.buckets[inf]
	for bound, n := range u.buckets {
		s.over[bound] = s.total - (n - before.buckets[bound])
	}
	return s
}

// inf is the +Inf bucket's bound.
var inf, _ = strconv.ParseFloat("+Inf", 64)

// share is the part of the list's answers that took the service more
// than bound seconds, as a percentage.
func (s spent) share(bound float64) float64 {
	if s.total == 0 {
		return 0
	}
	return 100 * float64(s.over[bound]) / float64(s.total)
}

// origin returns the scheme and host of a URL.
func origin(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	return u.Scheme + "://" + u.Host
}

// routeOf returns the route template of the list under base.
func routeOf(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return "/users"
	}
	return strings.TrimRight(u.Path, "/") + "/users"
}
