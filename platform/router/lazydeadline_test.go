package router

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestDeadlineContext(t *testing.T) {
	t.Parallel()
	const short = 50 * time.Millisecond
	closedWithin := func(t *testing.T, done <-chan struct{}, d time.Duration) {
		t.Helper()
		select {
		case <-done:
		case <-time.After(d):
			t.Fatalf("Done not closed within %s", d)
		}
	}
	tests := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"the deadline is now plus the timeout, before anything waits", func(t *testing.T) {
			ctx := newDeadlineContext(context.Background(), time.Minute)
			defer ctx.cancel()
			dl, ok := ctx.Deadline()
			if left := time.Until(dl); !ok || left < 59*time.Second || left > time.Minute {
				t.Fatalf("Deadline() = %v, %v; want a minute from now", dl, ok)
			}
			if ctx.live.Load() != nil {
				t.Fatal("asking for the deadline started a timer")
			}
		}},
		{"a parent's earlier deadline wins", func(t *testing.T) {
			parent, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			ctx := newDeadlineContext(parent, time.Hour)
			defer ctx.cancel()
			pd, _ := parent.Deadline()
			if dl, _ := ctx.Deadline(); !dl.Equal(pd) {
				t.Fatalf("Deadline() = %v; want the parent's %v", dl, pd)
			}
		}},
		{"Err turns DeadlineExceeded when the time is up, with no timer", func(t *testing.T) {
			ctx := newDeadlineContext(context.Background(), short)
			defer ctx.cancel()
			if err := ctx.Err(); err != nil {
				t.Fatalf("Err() before the deadline = %v", err)
			}
			time.Sleep(2 * short)
			if err := ctx.Err(); !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Err() after the deadline = %v", err)
			}
			closedWithin(t, ctx.Done(), short)
		}},
		{"Done closes at the deadline", func(t *testing.T) {
			ctx := newDeadlineContext(context.Background(), short)
			defer ctx.cancel()
			start := time.Now()
			closedWithin(t, ctx.Done(), 20*short)
			if waited := time.Since(start); waited < short-5*time.Millisecond {
				t.Fatalf("Done closed after %s, before the deadline", waited)
			}
			if err := ctx.Err(); !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("Err() = %v", err)
			}
		}},
		{"the parent's cancellation reaches it, waited on or not", func(t *testing.T) {
			parent, cancel := context.WithCancel(context.Background())
			ctx := newDeadlineContext(parent, time.Hour)
			defer ctx.cancel()
			cancel()
			if err := ctx.Err(); !errors.Is(err, context.Canceled) {
				t.Fatalf("Err() = %v", err)
			}
			closedWithin(t, ctx.Done(), time.Second)
		}},
		{"ending the request cancels a started timer", func(t *testing.T) {
			ctx := newDeadlineContext(context.Background(), time.Hour)
			done := ctx.Done()
			ctx.cancel()
			closedWithin(t, done, time.Second)
			if err := ctx.Err(); !errors.Is(err, context.Canceled) {
				t.Fatalf("Err() = %v", err)
			}
		}},
		{"a wait after the request ended finds it cancelled", func(t *testing.T) {
			ctx := newDeadlineContext(context.Background(), time.Hour)
			ctx.cancel()
			if err := ctx.Err(); !errors.Is(err, context.Canceled) {
				t.Fatalf("Err() = %v", err)
			}
			closedWithin(t, ctx.Done(), time.Second)
		}},
		{"children derived from it inherit the deadline and values", func(t *testing.T) {
			type key struct{}
			ctx := newDeadlineContext(context.WithValue(context.Background(), key{}, "v"), short)
			defer ctx.cancel()
			child, cancel := context.WithCancel(ctx)
			defer cancel()
			if child.Value(key{}) != "v" {
				t.Fatal("the parent's value is lost")
			}
			closedWithin(t, child.Done(), 20*short)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.run(t)
		})
	}
}
