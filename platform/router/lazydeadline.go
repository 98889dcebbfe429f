package router

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// deadlineContext is a context with a deadline whose timer starts only
// when something waits on it. Most requests never call Done: their handler
// answers from memory, or a database driver only asks Deadline to set its
// own timeout. Those pay for one time read instead of a timer, a channel
// and a cancel function (context.WithDeadline's cost, about a fifth of a
// cached list request). The first call to Done derives a real
// context.WithDeadline from the parent, and from then on it answers.
type deadlineContext struct {
	parent   context.Context
	deadline time.Time

	mu     sync.Mutex // serialises starting the timer with cancel
	live   atomic.Pointer[liveDeadline]
	closed atomic.Bool
}

// liveDeadline is the standard deadline context made on first wait.
type liveDeadline struct {
	ctx    context.Context
	cancel context.CancelFunc
}

// newDeadlineContext returns parent with a deadline of now + timeout,
// or the parent's own deadline when it comes first.
func newDeadlineContext(parent context.Context, timeout time.Duration) *deadlineContext {
	d := time.Now().Add(timeout)
	if pd, ok := parent.Deadline(); ok && pd.Before(d) {
		d = pd
	}
	return &deadlineContext{parent: parent, deadline: d}
}

// Deadline implements context.Context.
func (c *deadlineContext) Deadline() (time.Time, bool) { return c.deadline, true }

// Value implements context.Context.
func (c *deadlineContext) Value(key any) any { return c.parent.Value(key) }

// Done implements context.Context: it starts the timer.
func (c *deadlineContext) Done() <-chan struct{} {
	if l := c.live.Load(); l != nil {
		return l.ctx.Done()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	l := c.live.Load()
	if l == nil {
		ctx, cancel := context.WithDeadline(c.parent, c.deadline)
		if c.closed.Load() {
			cancel()
		}
		l = &liveDeadline{ctx: ctx, cancel: cancel}
		c.live.Store(l)
	}
	return l.ctx.Done()
}

// Err implements context.Context. Before anything waited, it is worked
// out from the clock and the parent, as the timer would have.
func (c *deadlineContext) Err() error {
	if l := c.live.Load(); l != nil {
		return l.ctx.Err()
	}
	if c.closed.Load() {
		return context.Canceled
	}
	if err := c.parent.Err(); err != nil {
		return err
	}
	if !time.Now().Before(c.deadline) {
		return context.DeadlineExceeded
	}
	return nil
}

// cancel ends the context when its request is answered, stopping the
// timer if one was started.
func (c *deadlineContext) cancel() {
	c.mu.Lock()
	c.closed.Store(true)
	l := c.live.Load()
	c.mu.Unlock()
	// A Done after this makes its context cancelled already.
	if l != nil {
		l.cancel()
	}
}
