package sessions

import (
	"testing"
	"time"
)

func TestRevokedSetPruneForgetsOnlyExpiredRevocations(t *testing.T) {
	now := time.Date(2030, time.January, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		name     string
		expires  time.Time
		wantKept bool
	}{
		{"expired an hour ago", now.Add(-time.Hour), false},
		{"expired a nanosecond ago", now.Add(-time.Nanosecond), false},
		{"expiring right now", now, false},
		{"expiring in a nanosecond", now.Add(time.Nanosecond), true},
		{"expiring in an hour", now.Add(time.Hour), true},
	}
	set := newRevokedSet()
	for _, c := range cases {
		set.add(c.name, c.expires)
	}
	set.prune(now)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := set.has(c.name); got != c.wantKept {
				t.Errorf("revoked after the prune: %v, want %v", got, c.wantKept)
			}
		})
	}
}

func TestRevokedSetKeepsTheLatestExpiry(t *testing.T) {
	now := time.Date(2030, time.January, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		name  string
		order []time.Duration
	}{
		{"later, then earlier", []time.Duration{time.Hour, time.Minute}},
		{"earlier, then later", []time.Duration{time.Minute, time.Hour}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			set := newRevokedSet()
			for _, d := range c.order {
				set.add("sid", now.Add(d))
			}
			set.prune(now.Add(30 * time.Minute))
			if !set.has("sid") {
				t.Error("an earlier expiry shortened a revocation")
			}
			set.prune(now.Add(time.Hour))
			if set.has("sid") {
				t.Error("the revocation outlived its latest expiry")
			}
		})
	}
}

func TestRevokedSetHas(t *testing.T) {
	set := newRevokedSet()
	set.add("revoked", time.Now().Add(time.Hour))
	cases := []struct {
		id   string
		want bool
	}{
		{"revoked", true},
		{"another", false},
		{"", false},
	}
	for _, c := range cases {
		if got := set.has(c.id); got != c.want {
			t.Errorf("has(%q) = %v, want %v", c.id, got, c.want)
		}
	}
}
