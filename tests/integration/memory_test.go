package integration

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/asapjs/fiber-template/internal/testkit"
)

// bigBody is a JSON body of size bytes, {"name":"xxx…"}, made as it is
// sent, so the client never holds it.
type bigBody struct {
	sent, size int64
}

const bigBodyHead = `{"name":"`

func (b *bigBody) Read(p []byte) (int, error) {
	if b.sent >= b.size {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && b.sent < b.size {
		switch {
		case b.sent < int64(len(bigBodyHead)):
			p[n] = bigBodyHead[b.sent]
		case b.sent >= b.size-2:
			p[n] = `"}`[b.sent-(b.size-2)]
		default:
			p[n] = 'x'
		}
		n++
		b.sent++
	}
	return n, nil
}

// memoryOf reads a /proc/<pid>/status field in bytes: VmRSS (resident now)
// or VmHWM (the most ever resident).
func memoryOf(t *testing.T, pid int, field string) int64 {
	t.Helper()
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("%s: %v", field, err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// TestLargeBodiesKeepMemoryBounded sends six 150 MB bodies at once to the
// built service, first without a token, then with one, and reads the
// server's peak resident memory: unauthenticated bodies are answered
// before they are read, and authenticated ones are held once.
func TestLargeBodiesKeepMemoryBounded(t *testing.T) {
	runsTheBinary(t)
	if runtime.GOOS != "linux" {
		t.Skip("reads the server's memory from /proc")
	}
	const (
		parallel = 6
		size     = 150 << 20
		mb       = 1 << 20
	)
	port := freePort(t)
	api := startAPI(t, buildAPI(t), sqliteAPI(t, port, map[string]string{
		"ADMIN_EMAIL":    "root@example.com",
		"ADMIN_PASSWORD": "memory-pass-1",
		"LOG_REQUESTS":   "false",
	}))
	api.waitHealthy(t, port)
	pid := api.cmd.Process.Pid
	base := fmt.Sprintf("http://127.0.0.1:%d/api", port)
	login := testkit.Fetch(t, jsonRequest(t, http.MethodPost, base+"/auth/login", `{"username":"root@example.com","password":"memory-pass-1"}`))
	token := testkit.Decode[struct {
		AccessToken string `json:"access_token"`
	}](t, login.Body).AccessToken
	if token == "" {
		t.Fatalf("login: %d %s", login.Status, login.Body)
	}
	me := jsonRequest(t, http.MethodGet, base+"/users/me", "")
	me.Header.Set("Authorization", "Bearer "+token)
	id := testkit.Decode[struct {
		ID int64 `json:"id"`
	}](t, testkit.Fetch(t, me).Body).ID

	// send sends the six bodies at once and returns their statuses.
	send := func(t *testing.T, authorization string) []int {
		t.Helper()
		statuses := make([]int, parallel)
		var wg sync.WaitGroup
		for i := range parallel {
			wg.Go(func() {
				req, err := http.NewRequest(http.MethodPut, fmt.Sprintf("%s/users/%d", base, id), &bigBody{size: size})
				if err != nil {
					t.Error(err)
					return
				}
				req.ContentLength = size
				req.Header.Set("Content-Type", "application/json")
				if authorization != "" {
					req.Header.Set("Authorization", authorization)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Errorf("PUT %d: %v", i, err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				statuses[i] = resp.StatusCode
			})
		}
		wg.Wait()
		return statuses
	}
	want := func(t *testing.T, statuses []int, status int) {
		t.Helper()
		for _, got := range statuses {
			if got != status {
				t.Fatalf("statuses %v, want %d each\n%s", statuses, status, api.output())
			}
		}
	}

	t.Run("bodies without a token are not read", func(t *testing.T) {
		want(t, send(t, ""), http.StatusUnauthorized)
		peak := memoryOf(t, pid, "VmHWM")
		if peak >= 100*mb {
			t.Errorf("peak resident memory %d MB, want under 100 MB", peak/mb)
		}
		t.Logf("peak resident memory %d MB", peak/mb)
	})
	t.Run("authenticated bodies are held once", func(t *testing.T) {
		before := memoryOf(t, pid, "VmRSS")
		// Each body's name is far over its documented 100 characters.
		want(t, send(t, "Bearer "+token), http.StatusUnprocessableEntity)
		grown := memoryOf(t, pid, "VmHWM") - before
		if limit := int64(parallel*size) * 3 / 2; grown > limit {
			t.Errorf("resident memory grew by %d MB for %d MB of bodies, want at most %d MB", grown/mb, parallel*size/mb, limit/mb)
		}
		t.Logf("resident memory grew by %d MB for %d MB of bodies", grown/mb, parallel*size/mb)
	})
}

// jsonRequest is a request with a JSON body.
func jsonRequest(t *testing.T, method, url, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	return req
}
