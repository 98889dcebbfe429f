package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The client addresses the service sees, through X-Forwarded-For, which it
// trusts from any peer by default (README, security model): the flood's
// own, and the admin's, so that the per-address limits of the flood never
// touch the admin's logins. Both are documentation ranges (RFC 5737).
const (
	floodAddress = "198.51.100.7"
	adminAddress = "192.0.2.10"
)

// listPath is the request the list connections repeat, under the API root.
const listPath = "/users?page=0&limit=20"

// newClient returns a client keeping up to conns connections alive to one
// host.
func newClient(conns int) *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConns:        conns,
			MaxIdleConnsPerHost: conns,
			MaxConnsPerHost:     conns,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true,
		},
		// Far above any answer the service should give (its request
		// deadline is 10 s): a hung request is a failure, not a wait.
		Timeout: 30 * time.Second,
	}
}

// login posts the password grant as a form from address and returns the
// status and the body.
func login(ctx context.Context, c *http.Client, base, username, password, address string) (int, []byte, error) {
	form := url.Values{"grant_type": {"password"}, "username": {username}, "password": {password}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/auth/login", strings.NewReader(form.Encode()))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Forwarded-For", address)
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return resp.StatusCode, body, err
}

// adminToken logs the admin in and returns the authorization header of
// its access token; a busy or throttled answer is tried again.
func adminToken(ctx context.Context, c *http.Client, base, email, password string) (string, error) {
	for try := 1; ; try++ {
		status, body, err := login(ctx, c, base, email, password, adminAddress)
		if err != nil {
			return "", fmt.Errorf("log in as the admin: %w", err)
		}
		if status == http.StatusOK {
			var tok struct {
				AccessToken string `json:"access_token"`
			}
			if err := json.Unmarshal(body, &tok); err != nil || tok.AccessToken == "" {
				return "", fmt.Errorf("log in as the admin: no access_token in %s", body)
			}
			return "Bearer " + tok.AccessToken, nil
		}
		if (status != http.StatusServiceUnavailable && status != http.StatusTooManyRequests) || try == 10 {
			return "", fmt.Errorf("log in as the admin: status %d: %s", status, body)
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// answers are the list's answers on some connections.
type answers struct {
	// latencies are those of the 200 answers.
	latencies []time.Duration
	// failed counts the other answers and the transport errors; failure
	// is the first of them.
	failed  int
	failure string
}

// fail counts a failure.
func (a *answers) fail(what string) {
	a.failed++
	if a.failure == "" {
		a.failure = what
	}
}

// add adds b's answers to a's.
func (a *answers) add(b answers) {
	a.latencies = append(a.latencies, b.latencies...)
	a.failed += b.failed
	if a.failure == "" {
		a.failure = b.failure
	}
}

// phase is what one phase measured.
type phase struct {
	flood bool
	round int
	// elapsed is from the start of the list load to its last answer.
	elapsed time.Duration
	// list are the list's answers, their latencies sorted.
	list answers
	// statuses counts the flood's answers by status, 0 for transport
	// errors.
	statuses map[int]int
	// floodElapsed is from the start of the flood to its last answer.
	floodElapsed time.Duration
	// spent is the CPU the processes used and the service's own timing
	// of the list during the phase.
	spent spent
}

// load is the traffic of a variant against one service.
type load struct {
	base string
	// admin, list and flood are the clients of the admin's logins, the
	// list and the flood: each connection carries one kind of request.
	admin, list, flood *http.Client
	listConns          int
	floodConns         int
	authorization      string
	// username is the account of the flood's nth login.
	username func(n uint64) string
}

// run loads the list with l.listConns connections for d, and floods the
// login with l.floodConns more meanwhile when flood is set. Each
// connection sends its next request when the last one is answered, until
// d has passed.
func (l *load) run(ctx context.Context, d time.Duration, flood bool) *phase {
	p := &phase{flood: flood, statuses: map[int]int{}}
	start := time.Now()
	end := start.Add(d)
	var floods sync.WaitGroup
	if flood {
		var n atomic.Uint64
		var mu sync.Mutex
		for range l.floodConns {
			floods.Go(func() {
				counts := map[int]int{}
				for ctx.Err() == nil && time.Now().Before(end) {
					status, _, _ := login(ctx, l.flood, l.base, l.username(n.Add(1)), "not-the-password", floodAddress)
					counts[status]++
				}
				mu.Lock()
				for status, k := range counts {
					p.statuses[status] += k
				}
				mu.Unlock()
			})
		}
	}
	results := make([]answers, l.listConns)
	var lists sync.WaitGroup
	for i := range results {
		lists.Go(func() { results[i] = l.repeatList(ctx, end) })
	}
	lists.Wait()
	p.elapsed = time.Since(start)
	floods.Wait()
	p.floodElapsed = time.Since(start)
	for _, r := range results {
		p.list.add(r)
	}
	slices.Sort(p.list.latencies)
	return p
}

// repeatList sends the list request on one connection until end.
func (l *load) repeatList(ctx context.Context, end time.Time) answers {
	var r answers
	for ctx.Err() == nil && time.Now().Before(end) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, l.base+listPath, nil)
		if err != nil {
			r.fail(err.Error())
			return r
		}
		req.Header.Set("Authorization", l.authorization)
		t0 := time.Now()
		resp, err := l.list.Do(req)
		if err != nil {
			if !errors.Is(err, context.Canceled) {
				r.fail(err.Error())
			}
			continue
		}
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		took := time.Since(t0)
		switch {
		case err != nil:
			r.fail(err.Error())
		case resp.StatusCode != http.StatusOK:
			r.fail(fmt.Sprintf("status %d: %.200s", resp.StatusCode, body))
		default:
			r.latencies = append(r.latencies, took)
		}
	}
	return r
}

// percentile returns the q-quantile (0 < q ≤ 1) of sorted latencies by
// nearest rank, 0 for none.
func percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}
