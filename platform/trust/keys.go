package trust

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/MicahParks/jwkset"
)

// key is one public key of the issuer and the one algorithm it verifies.
type key struct {
	alg string
	pub any
}

// keySet is a JWK Set as fetched, with when it should be fetched again.
type keySet struct {
	byID map[string]key
	// only is the set's key when it has exactly one, which verifies a
	// token without a kid.
	only    *key
	expires time.Time
}

// find returns the key that verifies a token with kid: the one it names,
// or with no kid the set's only key.
func (s *keySet) find(kid string) (key, bool) {
	if s == nil {
		return key{}, false
	}
	if kid == "" {
		if s.only != nil {
			return *s.only, true
		}
		return key{}, false
	}
	k, ok := s.byID[kid]
	return k, ok
}

// remoteKeys keeps the issuer's JWK Set: fetched again once its max-age
// passed, or for an unknown kid, each at most once per minRefresh; a
// failed fetch keeps the keys it had.
type remoteKeys struct {
	url        string
	client     *http.Client
	minRefresh time.Duration
	now        func() time.Time
	logger     *slog.Logger

	set atomic.Pointer[keySet]
	// mu serializes the fetches and guards the times of the last ones:
	// any, and the last one an unknown kid asked for.
	mu                 sync.Mutex
	tried, triedForKid time.Time
}

var errUnknownKey = errors.New("trust: no key of the issuer verifies the token")

// lookup returns the key for kid: from the set unless it expired, else
// from a new one. An unknown kid fetches the set again, unless one did
// within minRefresh, so a token signed by the issuer's new key verifies
// as soon as the issuer publishes it, and tokens of made-up kids make at
// most one fetch per minRefresh.
func (r *remoteKeys) lookup(ctx context.Context, kid string) (key, error) {
	s := r.set.Load()
	k, ok := s.find(kid)
	switch {
	case ok && r.now().Before(s.expires):
		return k, nil
	case ok:
		s = r.refresh(ctx, false)
	default:
		s = r.refresh(ctx, true)
	}
	if k, ok := s.find(kid); ok {
		return k, nil
	}
	return key{}, errUnknownKey
}

// refresh fetches the set unless one was fetched within minRefresh (for
// an unknown kid: unless an unknown kid made one), and returns the newest
// set it has.
func (r *remoteKeys) refresh(ctx context.Context, forKid bool) *keySet {
	r.mu.Lock()
	defer r.mu.Unlock()
	current := r.set.Load()
	now := r.now()
	last := r.tried
	if forKid {
		last = r.triedForKid
	}
	if !last.IsZero() && now.Sub(last) < r.minRefresh {
		return current
	}
	r.tried = now
	if forKid {
		r.triedForKid = now
	}
	s, err := r.fetch(ctx)
	if err != nil {
		r.logger.Warn("the issuer's keys could not be fetched: the keys fetched before are kept", slog.String("jwks_url", r.url), slog.Any("error", err))
		return current
	}
	r.set.Store(s)
	return s
}

// fetch reads the JWK Set: its signature keys of a known kind, each with
// the algorithm its alg names or its kind implies.
func (r *remoteKeys) fetch(ctx context.Context) (*keySet, error) {
	var m jwkset.JWKSMarshal
	header, err := getJSON(ctx, r.client, r.url, &m)
	if err != nil {
		return nil, err
	}
	s := &keySet{byID: map[string]key{}, expires: r.now().Add(keysMaxAge(header, r.minRefresh))}
	var last key
	for _, jm := range m.Keys {
		if jm.USE != "" && jm.USE != jwkset.UseSig {
			continue
		}
		// Only the public part is read: no x5u is fetched, no d kept.
		j, err := jwkset.NewJWKFromMarshal(jm, jwkset.JWKMarshalOptions{}, jwkset.JWKValidateOptions{})
		if err != nil {
			r.logger.Warn("a key of the issuer's JWK Set is skipped", slog.String("kid", jm.KID), slog.Any("error", err))
			continue
		}
		alg, err := algOf(j.Key(), string(jm.ALG))
		if err != nil {
			r.logger.Warn("a key of the issuer's JWK Set is skipped", slog.String("kid", jm.KID), slog.Any("error", err))
			continue
		}
		last = key{alg: alg, pub: j.Key()}
		if _, dup := s.byID[jm.KID]; dup {
			return nil, fmt.Errorf("trust: two keys with the kid %q", jm.KID)
		}
		s.byID[jm.KID] = last
	}
	if len(s.byID) == 0 {
		return nil, fmt.Errorf("trust: %s has no signature key", r.url)
	}
	if len(s.byID) == 1 {
		s.only = &last
	}
	return s, nil
}

// algOf is the one algorithm a public key verifies: the JWK's alg when it
// has one, which must suit the key, else the one its kind implies (RS256
// for RSA, as OpenID Connect does). Symmetric keys are refused: a
// published secret verifies nothing.
func algOf(pub any, alg string) (string, error) {
	var suits []string
	switch k := pub.(type) {
	case ed25519.PublicKey:
		suits = []string{"EdDSA"}
	case *ecdsa.PublicKey:
		switch k.Curve {
		case elliptic.P256():
			suits = []string{"ES256"}
		case elliptic.P384():
			suits = []string{"ES384"}
		case elliptic.P521():
			suits = []string{"ES512"}
		}
	case *rsa.PublicKey:
		if k.N.BitLen() < 2048 {
			return "", fmt.Errorf("an RSA key of %d bits, fewer than 2048", k.N.BitLen())
		}
		suits = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512"}
	}
	switch {
	case len(suits) == 0:
		return "", fmt.Errorf("a %T is no signature key", pub)
	case alg == "":
		return suits[0], nil
	}
	for _, s := range suits {
		if s == alg {
			return alg, nil
		}
	}
	return "", fmt.Errorf("the alg %s does not suit a %T", alg, pub)
}

// keysMaxAge is how long a JWK Set is kept: its Cache-Control max-age,
// at least minRefresh and at most a day; defaultKeysMaxAge without one.
func keysMaxAge(h http.Header, minRefresh time.Duration) time.Duration {
	age := defaultKeysMaxAge
	for _, directive := range strings.Split(h.Get("Cache-Control"), ",") {
		name, value, _ := strings.Cut(strings.TrimSpace(directive), "=")
		switch strings.ToLower(name) {
		case "no-cache", "no-store":
			age = 0
		case "max-age":
			if n, err := strconv.Atoi(strings.Trim(value, `"`)); err == nil && n >= 0 {
				age = time.Duration(n) * time.Second
			}
		}
	}
	return min(max(age, minRefresh), maxKeysAge)
}
