package integration

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/router"
)

// slowAnswer is the body of the slow test route.
type slowAnswer struct {
	Done bool `json:"done"`
}

func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	const slowFor = time.Second
	started := make(chan struct{}, 1)
	slow := router.Group{Path: "/slow", Name: "Test", Declared: []router.Route{
		router.Get("/", func(c *router.Ctx, in *struct{}) (*slowAnswer, error) {
			started <- struct{}{}
			time.Sleep(slowFor)
			return &slowAnswer{Done: true}, nil
		}),
	}}
	r := newService(t, inMemory, router.Config{BasePath: "/api", Controllers: []router.Controller{slow}})

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	addr := ln.Addr().String()
	served := make(chan error, 1)
	go func() { served <- r.App().Listener(ln) }()

	type result struct {
		status int
		body   []byte
		err    error
	}
	done := make(chan result, 1)
	go func() {
		client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
		res, err := client.Get("http://" + addr + "/api/slow")
		if err != nil {
			done <- result{err: err}
			return
		}
		defer res.Body.Close()
		body, err := io.ReadAll(res.Body)
		done <- result{status: res.StatusCode, body: body, err: err}
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the slow request never reached its handler")
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	begun := time.Now()
	if err := r.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	waited := time.Since(begun)

	t.Run("the request in flight completes", func(t *testing.T) {
		res := <-done
		if res.err != nil {
			t.Fatalf("slow request: %v", res.err)
		}
		if res.status != http.StatusOK {
			t.Fatalf("slow request: status %d, body %s", res.status, res.body)
		}
		var got slowAnswer
		if err := json.Unmarshal(res.body, &got); err != nil || !got.Done {
			t.Fatalf("slow request: body %s (%v)", res.body, err)
		}
	})

	t.Run("shutdown waits for it rather than cutting it off", func(t *testing.T) {
		if waited < slowFor/2 {
			t.Errorf("shutdown returned after %v, before the %v request could finish", waited, slowFor)
		}
	})

	t.Run("the server stops serving", func(t *testing.T) {
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("listener returned %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the listener still serves after shutdown")
		}
	})

	t.Run("new connections are refused", func(t *testing.T) {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			t.Fatalf("connected to %s after shutdown", addr)
		}
	})
}
