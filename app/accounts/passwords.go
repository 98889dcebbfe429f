package accounts

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"runtime"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// MaxPasswordBytes is the most bcrypt reads of a password; it refuses
// longer ones rather than ignore the rest.
const MaxPasswordBytes = 72

var (
	// ErrBusy is returned when a password could not be hashed in time
	// because every hashing slot is taken.
	ErrBusy = errors.New("accounts: too many passwords are being checked at once")
	// ErrPasswordTooLong is returned by Hash for a password over
	// MaxPasswordBytes (validate's max counts characters, not bytes).
	ErrPasswordTooLong = fmt.Errorf("accounts: a password has at most %d bytes", MaxPasswordBytes)
)

// Passwords hashes and checks passwords with bcrypt at one cost, at most
// hashSlots() at a time: bcrypt is built to be slow, and a flood of logins
// must not take every core from the other routes.
type Passwords struct {
	cost int
	// dummy is a hash at the same cost that no password matches; a login
	// for an unknown email is checked against it, so that it takes as long
	// as one for a known email and the timing tells nothing.
	dummy []byte
	// slots holds a token per hashing in progress.
	slots chan struct{}
	// wait is how long a hashing waits for a slot before ErrBusy.
	wait time.Duration
}

// NewPasswords returns the password hasher at cost, between bcrypt.MinCost
// and bcrypt.MaxCost; a hashing waits at most wait for one of hashSlots()
// slots.
func NewPasswords(cost int, wait time.Duration) (*Passwords, error) {
	if cost < bcrypt.MinCost || cost > bcrypt.MaxCost {
		return nil, fmt.Errorf("bcrypt cost %d is not between %d and %d", cost, bcrypt.MinCost, bcrypt.MaxCost)
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, fmt.Errorf("generate dummy password: %w", err)
	}
	dummy, err := bcrypt.GenerateFromPassword(fmt.Appendf(nil, "%x", secret), cost)
	if err != nil {
		return nil, fmt.Errorf("hash dummy password: %w", err)
	}
	return &Passwords{cost: cost, dummy: dummy, slots: make(chan struct{}, hashSlots()), wait: wait}, nil
}

// hashSlots is how many passwords are hashed at once: one core fewer than
// Go runs on, so that requests of other routes find a core free instead of
// waiting for the scheduler to preempt a hashing (about 10 ms each time);
// one on a single core.
func hashSlots() int { return max(1, runtime.GOMAXPROCS(0)-1) }

// acquire takes a hashing slot, waiting at most p.wait; release gives it
// back.
func (p *Passwords) acquire(ctx context.Context) error {
	select {
	case p.slots <- struct{}{}:
		return nil
	default:
	}
	t := time.NewTimer(p.wait)
	defer t.Stop()
	select {
	case p.slots <- struct{}{}:
		return nil
	case <-t.C:
		return ErrBusy
	case <-ctx.Done():
		return ErrBusy
	}
}

func (p *Passwords) release() { <-p.slots }

// Hash returns the bcrypt hash of password: ErrPasswordTooLong over
// MaxPasswordBytes, ErrBusy when no slot freed in time.
func (p *Passwords) Hash(ctx context.Context, password string) (string, error) {
	if len(password) > MaxPasswordBytes {
		return "", ErrPasswordTooLong
	}
	if err := p.acquire(ctx); err != nil {
		return "", err
	}
	defer p.release()
	h, err := bcrypt.GenerateFromPassword([]byte(password), p.cost)
	if err != nil {
		return "", fmt.Errorf("hash password: %w", err)
	}
	return string(h), nil
}

// Check reports whether password matches hash; ErrBusy when no slot freed
// in time.
func (p *Passwords) Check(ctx context.Context, hash, password string) (bool, error) {
	if err := p.acquire(ctx); err != nil {
		return false, err
	}
	defer p.release()
	return bcrypt.CompareHashAndPassword([]byte(hash), []byte(password)) == nil, nil
}

// CheckNone spends the time of a Check on a password that matches nothing.
func (p *Passwords) CheckNone(ctx context.Context, password string) error {
	_, err := p.Check(ctx, string(p.dummy), password)
	return err
}
