package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// build compiles ./cmd/api of the repository the working directory is in
// (the bench module, or the service's module above it) into dir and
// returns the binary's path.
func build(ctx context.Context, dir string) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(out)))
	for {
		if _, err := os.Stat(filepath.Join(root, "cmd", "api")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			return "", errors.New("run it from the repository, whose module has ./cmd/api, or pass -api")
		}
		root = parent
	}
	bin := filepath.Join(dir, "api")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/api")
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build ./cmd/api: %w", err)
	}
	return bin, nil
}

// passed are the variables of this process's environment the service
// gets too: the runtime's knobs and libpq's. Everything else it gets from
// the variant, so that a variable of the shell cannot change what is
// measured.
func passed() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "PATH", name == "HOME", name == "TMPDIR", name == "TZ",
			name == "GOMAXPROCS", name == "GOGC", name == "GOMEMLIMIT", name == "GODEBUG",
			strings.HasPrefix(name, "PG"):
			env = append(env, kv)
		}
	}
	return env
}

// server is a running service process.
type server struct {
	cmd *exec.Cmd
	// base is the URL of the API root, such as http://127.0.0.1:41234/api.
	base string
	// exited is closed once the process has exited; err is then its exit.
	exited chan struct{}
	err    error
	stop   func() error

	mu sync.Mutex
	// startup is the log up to the listening line, notes the lines after
	// it at levels above info (the request lines are info).
	startup, notes []string
}

// start runs bin in dir with env and waits until it listens.
func start(ctx context.Context, bin, dir string, env []string) (*server, error) {
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Env = append(passed(), env...)
	logs, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start the service: %w", err)
	}
	s := &server{cmd: cmd, exited: make(chan struct{})}
	s.stop = sync.OnceValue(func() error {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-s.exited:
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			<-s.exited
		}
		return s.err
	})
	listening := make(chan string, 1)
	go func() {
		s.read(logs, listening)
		s.err = cmd.Wait()
		close(s.exited)
	}()
	select {
	case url := <-listening:
		s.base = strings.TrimRight(url, "/")
		return s, nil
	case <-s.exited:
		return nil, fmt.Errorf("the service exited before listening (%v):\n%s", s.err, s.startupLog())
	case <-time.After(2 * time.Minute):
		_ = s.stop()
		return nil, fmt.Errorf("the service did not listen within 2 minutes:\n%s", s.startupLog())
	case <-ctx.Done():
		_ = s.stop()
		return nil, ctx.Err()
	}
}

// read follows the service's log (JSON lines, APP_ENV=production): the
// listening line's url goes to listening, the lines above info are kept.
func (s *server) read(logs io.Reader, listening chan<- string) {
	sc := bufio.NewScanner(logs)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	up := false
	for sc.Scan() {
		line := sc.Bytes()
		if !up {
			s.mu.Lock()
			s.startup = append(s.startup, string(line))
			s.mu.Unlock()
			var entry struct {
				Msg string `json:"msg"`
				URL string `json:"url"`
			}
			if json.Unmarshal(line, &entry) == nil && entry.Msg == "listening" {
				up = true
				listening <- entry.URL
			}
			continue
		}
		if !bytes.Contains(line, []byte(`"level":"INFO"`)) {
			s.mu.Lock()
			s.notes = append(s.notes, string(line))
			s.mu.Unlock()
		}
	}
	// A line over the buffer ends the scan; the pipe must still be read.
	_, _ = io.Copy(io.Discard, logs)
}

// takeNotes returns the lines above info logged since the last call.
func (s *server) takeNotes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	notes := s.notes
	s.notes = nil
	return notes
}

// startupLog is the log up to the listening line.
func (s *server) startupLog() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.startup, "\n")
}
