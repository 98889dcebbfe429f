package sessions

import (
	"sync"
	"time"
)

// revokedSet is this instance's copy of the revocation records: the
// sessions whose access tokens are refused, each until its last access
// token expires. Every request with a token looks it up, so it is a map
// behind a read lock.
type revokedSet struct {
	mu       sync.RWMutex
	sessions map[string]time.Time
}

func newRevokedSet() *revokedSet {
	return &revokedSet{sessions: make(map[string]time.Time)}
}

// has reports whether the session with the id is revoked.
func (s *revokedSet) has(id string) bool {
	s.mu.RLock()
	_, ok := s.sessions[id]
	s.mu.RUnlock()
	return ok
}

// add records the session with the id as revoked until expires.
func (s *revokedSet) add(id string, expires time.Time) {
	s.mu.Lock()
	if expires.After(s.sessions[id]) {
		s.sessions[id] = expires
	}
	s.mu.Unlock()
}

// prune forgets the revocations that expired by now.
func (s *revokedSet) prune(now time.Time) {
	s.mu.Lock()
	for id, exp := range s.sessions {
		if !now.Before(exp) {
			delete(s.sessions, id)
		}
	}
	s.mu.Unlock()
}
