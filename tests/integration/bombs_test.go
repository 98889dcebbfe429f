package integration

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/internal/testkit"

	"github.com/asapjs/fiber-template/platform/servicetest"
)

// Budgets of TestBombsLeaveTheServiceStanding (issue 21).
const (
	mib = 1 << 20
	// bombMemoryLimit is the memory limit of the binary under test.
	bombMemoryLimit = 256 * mib
	// bombPeakBudget is the most the binary may ever hold resident (VmHWM)
	// after any unauthenticated bomb.
	bombPeakBudget = 128 * mib
	// bombAnswerWithin is how soon each bomb must be answered, counted from
	// the first byte of the request.
	bombAnswerWithin = 2 * time.Second
	// bombProblemMax bounds every problem body: error lists are capped (20
	// entries and a count), so even 100k unknown keys get a short one.
	bombProblemMax = 16 << 10
)

// TestBombsLeaveTheServiceStanding starts the built binary on SQLite under
// a 256 MiB memory limit (see memoryLimit: cgroup v2 where the test can
// create one, else GOMEMLIMIT, ulimit -v and an RSS watchdog; the test logs
// which) and sends it the requests of issue 21 that used to exhaust its
// memory, each body made as it is sent: compression bombs, wrong-typed
// values of tens of megabytes, 100k unknown keys, deep nesting, chunked
// bodies, six 150 MB bodies at once, with and without a token, and a
// 150 MB body to each route that declares none (the metrics, the docs, the
// probes, the JWKS) and to a path no route serves (issue 39). Each must
// be answered with a 4xx problem within 2 s, the process must stay up and
// serving, and after every unauthenticated bomb its peak resident memory
// (VmHWM) must be under 128 MiB.
//
// One process takes all the bombs, the authenticated ones last. Should a
// bomb kill it, or leave its peak over the budget, the next bomb gets a
// fresh process (logged), so that each one is measured on its own.
func TestBombsLeaveTheServiceStanding(t *testing.T) {
	runsTheBinary(t)
	if runtime.GOOS != "linux" {
		testkit.Missing(t, "Linux: it reads the server's memory from /proc and limits it with cgroup v2 or ulimit")
	}
	go gzipBombs() // some seconds of compression, while the binary builds and starts

	limit := limitMemory(t, buildAPI(t), bombMemoryLimit)
	t.Logf("memory limit: %s", limit.how)

	var (
		target  *bombTarget
		summary []string
	)
	for _, c := range bombCases() {
		if target != nil {
			why := ""
			if err := target.serving(); err != nil {
				why = fmt.Sprintf("the last one is down (%v; %s)", err, limit.ooms())
			} else if peak, err := procStatus(target.pid(), "VmHWM"); err != nil {
				why = err.Error()
			} else if !c.token && peak >= bombPeakBudget {
				why = fmt.Sprintf("the last one peaked at %d MiB", peak/mib)
			}
			if why != "" {
				t.Logf("fresh process for %q: %s", c.name, why)
				target.stop()
				target = nil
			}
		}
		if target == nil {
			target = startBombTarget(t, limit)
		}
		t.Run(c.name, func(t *testing.T) {
			var line string
			defer func() { summary = append(summary, c.name+": "+line) }()
			target.fire(t, c, &line)
		})
	}
	t.Logf("memory limit: %s\n\t%s", limit.how, strings.Join(summary, "\n\t"))
}

// bombCase is a bomb: parallel requests at once, each with a body.
type bombCase struct {
	name     string
	method   string
	path     string // {id} stands for the admin's user id
	header   []string
	body     func() (io.Reader, int64) // a fresh body and its size
	chunked  bool                      // sent chunked, without Content-Length
	token    bool                      // sent with the admin's token
	parallel int                       // 0 is 1
	want     []int                     // acceptable statuses
	early    bool                      // answered before the client could send the whole body
	after    func(t *testing.T, target *bombTarget)
}

// bombCases are the bombs of issues 21 and 39, unauthenticated ones first.
func bombCases() []bombCase {
	gen := func(runs ...run) func() (io.Reader, int64) {
		return func() (io.Reader, int64) { b := body(runs...); return b, b.Len() }
	}
	wrongType := func(size int64) func() (io.Reader, int64) {
		return gen(text(`{"name":[`), repeat("1,", (size-12)/2), text(`1]}`))
	}
	// update is a body of PUT /users/{id} of size bytes, a huge name.
	update := func(size int64) func() (io.Reader, int64) {
		head := `{"email":"root@example.com","role":"admin","active":true,"name":"`
		return gen(text(head), repeat("x", size-int64(len(head))-2), text(`"}`))
	}
	precomputed := func(b func() []byte) func() (io.Reader, int64) {
		return func() (io.Reader, int64) { return bytes.NewReader(b()), int64(len(b())) }
	}
	cases := []bombCase{{
		name: "double gzip of 4 GB to logout", method: http.MethodPost, path: "/api/auth/logout",
		header: []string{"Content-Encoding: gzip, gzip"}, want: []int{http.StatusUnsupportedMediaType},
		body: precomputed(func() []byte { return gzipBombs().double }),
	}, {
		name: "gzip of a 1 GB sign-up", method: http.MethodPost, path: "/api/users",
		header: []string{"Content-Encoding: gzip"}, want: []int{http.StatusUnsupportedMediaType},
		after: func(t *testing.T, target *bombTarget) {
			// The body was a valid sign-up: it must not have created the user.
			res := servicetest.Fetch(t, jsonRequest(t, http.MethodPost, target.url("/api/users"), gzipSignUp+"}"))
			if res.Status != http.StatusCreated {
				t.Errorf("plain sign-up after the gzip one: %d %s, want 201 (the gzip one must not have created the user)", res.Status, res.Body)
			}
		},
		body: precomputed(func() []byte { return gzipBombs().single }),
	}, {
		name: "20 MB array as the name", method: http.MethodPost, path: "/api/users",
		body: wrongType(20e6), want: []int{http.StatusRequestEntityTooLarge}, early: true,
	}, {
		name: "100 MB array as the name", method: http.MethodPost, path: "/api/users",
		body: wrongType(100e6), want: []int{http.StatusRequestEntityTooLarge}, early: true,
	}, {
		name: "54 MB object as the name", method: http.MethodPost, path: "/api/users",
		body: gen(text(`{"name":{`), numbered(`"m#######":1,`, int64(54e6)/13), text(`"z":1}}`)),
		want: []int{http.StatusRequestEntityTooLarge}, early: true,
	}, {
		name: "100k unknown keys", method: http.MethodPost, path: "/api/users",
		body: gen(text(`{`), numbered(`"unknown_######":1,`, 100_000),
			text(`"email":"keys@example.com","name":"Keys","password":"keys-pass-1"}`)),
		want: []int{http.StatusRequestEntityTooLarge, http.StatusBadRequest},
	}, {
		name: "100k nested arrays", method: http.MethodPost, path: "/api/users",
		body: gen(text(`{"name":`), repeat("[", 100_000), repeat("]", 100_000), text(`}`)),
		want: []int{http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity},
	}, {
		name: "20 MB array as the name, chunked", method: http.MethodPost, path: "/api/users",
		body: wrongType(20e6), chunked: true, want: []int{http.StatusRequestEntityTooLarge}, early: true,
	}, {
		name: "6 × 150 MB without a token", method: http.MethodPut, path: "/api/users/{id}",
		body: update(150 * mib), parallel: 6, want: []int{http.StatusUnauthorized}, early: true,
	}}
	// Routes that declare no body, those of the route model and those
	// mounted beside it (GET /metrics once read the whole of one), refuse
	// a body unread with a 413; a path no route serves answers its 404
	// unread too.
	for _, route := range []struct {
		method, path string
		want         int
	}{
		{http.MethodGet, "/metrics", http.StatusRequestEntityTooLarge},
		{http.MethodGet, "/api/docs/spec-ui.html", http.StatusRequestEntityTooLarge},
		{http.MethodGet, "/api/docs/spec.json", http.StatusRequestEntityTooLarge},
		{http.MethodGet, "/readyz", http.StatusRequestEntityTooLarge},
		{http.MethodGet, "/livez", http.StatusRequestEntityTooLarge},
		{http.MethodGet, "/.well-known/jwks.json", http.StatusRequestEntityTooLarge},
		{http.MethodPost, "/api/no-such-route", http.StatusNotFound},
	} {
		cases = append(cases, bombCase{
			name: "150 MB to " + route.method + " " + route.path, method: route.method, path: route.path,
			body: gen(repeat("x", 150*mib)), want: []int{route.want}, early: true,
		})
	}
	return append(cases, bombCase{
		name: "6 × 150 MB with a token", method: http.MethodPut, path: "/api/users/{id}",
		body: update(150 * mib), parallel: 6, token: true, want: []int{http.StatusRequestEntityTooLarge}, early: true,
	})
}

// gzipSignUp is the sign-up hidden in the gzip bomb, before 1 GB of spaces.
const gzipSignUp = `{"email":"gzip@example.com","name":"Gzip","password":"gzip-pass-1"`

// gzipBombs are the compressed bodies, made once per run (about 5 s): a
// logout of a 4 GB refresh token gzipped twice (some 20 KB), and a valid
// sign-up padded with 1 GB of spaces gzipped once (some 1.3 MB).
var gzipBombs = sync.OnceValue(func() (b struct{ double, single []byte }) {
	var wg sync.WaitGroup
	wg.Go(func() {
		b.double = gzipped(body(text(`{"refresh_token":"`), repeat("a", 4<<30), text(`"}`)), 2)
	})
	wg.Go(func() {
		b.single = gzipped(body(text(gzipSignUp), repeat(" ", 1<<30), text(`}`)), 1)
	})
	wg.Wait()
	return b
})

// gzipped is r compressed times times over, streaming.
func gzipped(r io.Reader, times int) []byte {
	var out bytes.Buffer
	var w io.Writer = &out
	var layers []*gzip.Writer
	for range times {
		z, _ := gzip.NewWriterLevel(w, gzip.BestSpeed) // the level is valid
		layers = append(layers, z)
		w = z
	}
	// Writes into a bytes.Buffer through gzip cannot fail.
	_, _ = io.Copy(w, r)
	for i := len(layers) - 1; i >= 0; i-- {
		_ = layers[i].Close()
	}
	return out.Bytes()
}

// bombTarget is the binary under test, with an admin logged in.
type bombTarget struct {
	api    *testkit.Process
	addr   string
	token  string
	userID int64
}

// startBombTarget starts the binary under limit on a fresh SQLite database
// and logs in as its admin.
func startBombTarget(t *testing.T, limit *memoryLimit) *bombTarget {
	t.Helper()
	port := testkit.Port(t)
	api := limit.start(t, sqliteAPI(t, port, map[string]string{
		"ADMIN_EMAIL":    "root@example.com",
		"ADMIN_PASSWORD": "bombs-pass-1",
		"LOG_REQUESTS":   "false",
		"METRICS":        "true", // served on the service's port
	}))
	api.WaitOK(t, healthCheck(port))
	target := &bombTarget{api: api, addr: fmt.Sprintf("127.0.0.1:%d", port)}
	login := servicetest.Fetch(t, jsonRequest(t, http.MethodPost, target.url("/api/auth/login"), `{"username":"root@example.com","password":"bombs-pass-1"}`))
	target.token = servicetest.Decode[struct {
		AccessToken string `json:"access_token"`
	}](t, login.Body).AccessToken
	if target.token == "" {
		t.Fatalf("login: %d %s", login.Status, login.Body)
	}
	me := jsonRequest(t, http.MethodGet, target.url("/api/users/me"), "")
	me.Header.Set("Authorization", "Bearer "+target.token)
	target.userID = servicetest.Decode[struct {
		ID int64 `json:"id"`
	}](t, servicetest.Fetch(t, me).Body).ID
	rss, _ := procStatus(target.pid(), "VmHWM")
	t.Logf("started pid %d on %s, peak resident %d MiB", target.pid(), target.addr, rss/mib)
	return target
}

func (b *bombTarget) url(path string) string { return "http://" + b.addr + path }

func (b *bombTarget) pid() int { return b.api.Cmd.Process.Pid }

func (b *bombTarget) alive() bool {
	select {
	case <-b.api.Done():
		return false
	default:
		return true
	}
}

// serving reports whether the process is up and answers its health check.
func (b *bombTarget) serving() error {
	if !b.alive() {
		return fmt.Errorf("exited: %v", b.api.Err())
	}
	res, err := (&http.Client{Timeout: 2 * time.Second}).Get(b.url("/health-check"))
	if err != nil {
		return err
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("health check: %d", res.StatusCode)
	}
	return nil
}

func (b *bombTarget) stop() {
	if b.alive() {
		_ = b.api.Cmd.Process.Kill()
		<-b.api.Done()
	}
}

// fire sends c and checks the answers and the process, having set
// summary to a line on them.
func (b *bombTarget) fire(t *testing.T, c bombCase, summary *string) {
	t.Helper()
	path := strings.ReplaceAll(c.path, "{id}", fmt.Sprint(b.userID))
	header := c.header
	if c.token {
		header = append(header[:len(header):len(header)], "Authorization: Bearer "+b.token)
	}
	answers := make([]bombAnswer, max(1, c.parallel))
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() {
			r, size := c.body()
			answers[i] = b.send(c.method, path, header, r, size, c.chunked)
		})
	}
	wg.Wait()

	var line strings.Builder
	for i, a := range answers {
		if i > 0 {
			line.WriteString("; ")
		}
		line.WriteString(a.String())
	}
	peak, peakErr := procStatus(b.pid(), "VmHWM")
	if peakErr == nil {
		fmt.Fprintf(&line, "; peak resident %d MiB", peak/mib)
	}
	serving := b.serving()
	if serving != nil {
		fmt.Fprintf(&line, "; process down: %v", serving)
	}
	*summary = line.String()
	t.Log(*summary)

	if serving != nil {
		t.Errorf("the process is not serving after the bomb: %v\n%s", serving, tail(b.api.Output()))
	}
	if !c.token {
		switch {
		case peakErr != nil:
			t.Errorf("peak resident memory: %v", peakErr)
		case peak >= bombPeakBudget:
			t.Errorf("peak resident memory %d MiB, want under %d MiB", peak/mib, bombPeakBudget/mib)
		}
	}
	for _, a := range answers {
		if a.err != nil {
			t.Errorf("no answer: %v (after %v, %d body bytes sent)", a.err, a.elapsed.Round(time.Millisecond), a.sent)
			continue
		}
		if a.elapsed > bombAnswerWithin {
			t.Errorf("answered after %v, want within %v", a.elapsed.Round(time.Millisecond), bombAnswerWithin)
		}
		if c.early && a.finished {
			t.Errorf("answered only once the whole body (%d bytes) was sent: it was read", a.size)
		}
		if len(a.body) >= bombProblemMax {
			t.Errorf("problem of %d bytes, want under %d: %.300s…", len(a.body), bombProblemMax, a.body)
			continue
		}
		p := servicetest.WantProblem(t, a.status, a.header, a.body, c.want...)
		if len(p.Errors) > 20 {
			t.Errorf("problem lists %d errors, want at most 20 (and a count)", len(p.Errors))
		}
	}
	if c.after != nil && serving == nil {
		c.after(t, b)
	}
}

// bombAnswer is what one request of a bomb got.
type bombAnswer struct {
	status   int
	header   http.Header
	body     []byte
	elapsed  time.Duration // from the first byte of the request to the end of the answer
	size     int64         // of the body
	chunked  bool          // whether it was sent chunked
	sent     int64         // body bytes written when the answer came (with chunk framing)
	finished bool          // whether the whole body had been written by then
	err      error
}

func (a bombAnswer) String() string {
	if a.err != nil {
		return fmt.Sprintf("error after %v: %v", a.elapsed.Round(time.Millisecond), a.err)
	}
	sent := fmt.Sprintf("%s of %s sent", bytesize(a.sent), bytesize(a.size))
	if a.chunked {
		sent += " chunked"
	}
	return fmt.Sprintf("%d %s in %v (%s; %d-byte body)", a.status, a.header.Get("Content-Type"), a.elapsed.Round(time.Millisecond), sent, len(a.body))
}

// send writes a request on its own connection, the body from r (size
// bytes, with Content-Length or chunked), while reading the answer: a server
// may, and here should, answer before the body is all sent. A raw
// connection rather than net/http, so that such an early answer is read
// rather than lost to the write error of the rest of the body, and so the
// framing is exactly what the case says.
func (b *bombTarget) send(method, path string, header []string, r io.Reader, size int64, chunked bool) (a bombAnswer) {
	a.size, a.chunked = size, chunked
	start := time.Now()
	defer func() { a.elapsed = time.Since(start) }()
	conn, err := net.DialTimeout("tcp", b.addr, 5*time.Second)
	if err != nil {
		a.err = err
		return a
	}
	defer conn.Close()
	_ = conn.SetDeadline(start.Add(15 * time.Second))

	var sent atomic.Int64
	var finished atomic.Bool
	written := make(chan struct{})
	go func() {
		defer close(written)
		var head strings.Builder
		fmt.Fprintf(&head, "%s %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n", method, path, b.addr)
		for _, h := range header {
			head.WriteString(h + "\r\n")
		}
		if chunked {
			head.WriteString("Transfer-Encoding: chunked\r\n\r\n")
		} else {
			fmt.Fprintf(&head, "Content-Length: %d\r\n\r\n", size)
		}
		if _, err := io.WriteString(conn, head.String()); err != nil {
			return
		}
		w := &countingWriter{w: conn, n: &sent}
		if chunked {
			cw := httputil.NewChunkedWriter(w)
			if _, err := io.Copy(cw, r); err != nil {
				return
			}
			if cw.Close() != nil {
				return
			}
			if _, err := io.WriteString(conn, "\r\n"); err != nil {
				return
			}
		} else if _, err := io.Copy(w, r); err != nil {
			return
		}
		finished.Store(true)
	}()
	defer func() { conn.Close(); <-written }()

	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	a.sent, a.finished = sent.Load(), finished.Load()
	if err != nil {
		a.err = fmt.Errorf("read the answer: %w", err)
		return a
	}
	defer res.Body.Close()
	a.status, a.header = res.StatusCode, res.Header
	if a.body, err = io.ReadAll(io.LimitReader(res.Body, 4*bombProblemMax)); err != nil {
		a.err = fmt.Errorf("read the answer's body: %w", err)
	}
	return a
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n *atomic.Int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n.Add(int64(n))
	return n, err
}

// bytesize is n in kB or MB.
func bytesize(n int64) string {
	if n < 1e6 {
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// tail is the end of a log, for a failure message.
func tail(s string) string {
	const keep = 4 << 10
	if len(s) > keep {
		return "…" + s[len(s)-keep:]
	}
	return s
}
