package router

import (
	"context"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/clientip"
	"github.com/asapjs/fiber-template/platform/idempotency"
	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/token"
)

// HeaderIdempotencyKey is the request header an idempotent route reads,
// and HeaderIdempotentReplayed the answer header of a replay.
const (
	HeaderIdempotencyKey     = "Idempotency-Key"
	HeaderIdempotentReplayed = "Idempotent-Replayed"
)

// The problems of idempotent routes; routes whose input embeds
// IdempotencyKeyHeader declare them.
var (
	errIdempotencyInUse  = problem.Declare(http.StatusConflict, "idempotency_key_in_use", "Idempotency key in use")
	errIdempotencyReused = problem.Declare(http.StatusUnprocessableEntity, "idempotency_key_reused", "Idempotency key reused")
)

// replayedHeaders are the headers of an answer kept with it.
var replayedHeaders = []string{
	fiber.HeaderContentType, fiber.HeaderLocation, fiber.HeaderContentLocation,
	fiber.HeaderETag, fiber.HeaderLastModified, fiber.HeaderLink,
}

// idempotent is the Idempotency-Key handling of one route.
type idempotent struct {
	store idempotency.Store
	// route names the route in the key's ID: "POST /api/users".
	route string
	ttl   time.Duration
	// lease is how long a claimant may run: the request deadline, and a
	// margin for writing the answer.
	lease  time.Duration
	logger *slog.Logger
	// secret keys the fingerprints: Config.IdempotencySecret, which
	// every instance shares, or else derived from the token keys.
	secret []byte
}

// fingerprintLabel binds the fingerprints' key to its use, so that
// Config.IdempotencySecret may be a secret that keys other things too.
const fingerprintLabel = "fiber-template idempotency fingerprints v1"

func newIdempotent(r *Router, method, path string) (*idempotent, error) {
	secret, err := fingerprintKey(r.cfg.IdempotencySecret, r.keys)
	if err != nil {
		return nil, err
	}
	return &idempotent{
		secret: secret,
		store:  r.cfg.Idempotency,
		route:  method + " " + path,
		ttl:    r.cfg.IdempotencyTTL,
		lease:  r.cfg.RequestTimeout + 5*time.Second,
		logger: r.cfg.Logger,
	}, nil
}

// fingerprintKey is the key of the fingerprints: derived from secret with
// HKDF when it is set, else from the signing key of keys, else random.
func fingerprintKey(secret []byte, keys *token.Keys) ([]byte, error) {
	switch {
	case len(secret) > 0:
		key, err := hkdf.Key(sha256.New, secret, nil, fingerprintLabel, sha256.Size)
		if err != nil {
			return nil, fmt.Errorf("idempotency secret: %w", err)
		}
		return key, nil
	case keys != nil:
		return keys.Derive("idempotency fingerprints"), nil
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("idempotency secret: %w", err)
	}
	return key, nil
}

// idempotencyKey reads the request's Idempotency-Key: empty when none is
// sent, and a 400 naming the header when it is sent twice or malformed.
func idempotencyKey(fc *fiber.Ctx) (string, error) {
	fields := fc.Request().Header.PeekAll(HeaderIdempotencyKey)
	switch len(fields) {
	case 0:
		return "", nil
	case 1:
		return parseIdempotencyKey(string(fields[0]))
	}
	return "", fieldProblem("The Idempotency-Key header is malformed.", HeaderIdempotencyKey, repeatedMessage)
}

// run answers a request that carries an Idempotency-Key (key, as the
// binder read it): it claims the key for the caller and the request in,
// and runs answer, keeping a 2xx it writes; or replays the kept answer; or
// refuses a key in use (409) or reused for another request (422).
func (s *idempotent) run(fc *fiber.Ctx, c *Ctx, in any, key string, answer func() error) error {
	// An anonymous caller's keys are its address's: a client elsewhere
	// cannot replay, squat on or probe them.
	caller := "anonymous " + clientip.Key(clientip.From(fc))
	if c.claims != nil {
		caller = "subject " + c.claims.Subject
	}
	claim := idempotency.Claim{
		ID:          digest(caller, s.route, key),
		Fingerprint: s.fingerprint(in, fc),
		Now:         time.Now(),
		Lease:       s.lease,
		TTL:         s.ttl,
	}
	rec, claimed, err := s.store.Claim(c.Context(), claim)
	switch {
	case err != nil:
		s.logger.ErrorContext(c.Context(), "claim an idempotency key", "route", s.route, "err", err)
		return errUnavailable.WithDetail("The Idempotency-Key could not be checked; retry with the same key.")
	case !claimed && rec.Fingerprint != claim.Fingerprint:
		return errIdempotencyReused.WithDetail("This Idempotency-Key was used for another request; send a new key with a new request.")
	case !claimed && !rec.Done:
		fc.Set(fiber.HeaderRetryAfter, "1")
		return errIdempotencyInUse.WithDetail("A request with this Idempotency-Key is still running; retry when it is done.")
	case !claimed:
		return replay(fc, rec)
	}
	// Until the handler has succeeded, an error or a panic releases the
	// key for a retry; once it has, the key is never released here, as
	// the work is done.
	succeeded := false
	defer func() {
		if !succeeded {
			s.release(c.Context(), claim.ID)
		}
	}()
	if err := answer(); err != nil {
		return err
	}
	res := fc.Response()
	if res.StatusCode() < 200 || res.StatusCode() > 299 {
		return nil
	}
	succeeded = true
	kept := idempotency.Record{Status: res.StatusCode(), Body: append([]byte(nil), res.Body()...)}
	header := map[string]string{}
	for _, name := range replayedHeaders {
		if v := res.Header.Peek(name); len(v) > 0 {
			header[name] = string(v)
		}
	}
	kept.Header, _ = json.Marshal(header)
	ctx, cancel := context.WithTimeout(context.WithoutCancel(c.Context()), 5*time.Second)
	defer cancel()
	if err := s.store.Complete(ctx, claim.ID, kept); err != nil {
		// The answer stands, and the key stays claimed: a retry is a 409
		// until the lease ends, not a second run at once.
		s.logger.ErrorContext(ctx, "keep an idempotent answer", "route", s.route, "err", err)
	}
	return nil
}

// release forgets the claim id, even when the request's context is done.
func (s *idempotent) release(parent context.Context, id string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(parent), 5*time.Second)
	defer cancel()
	if err := s.store.Release(ctx, id); err != nil {
		s.logger.ErrorContext(ctx, "release an idempotency key", "route", s.route, "err", err)
	}
}

// replay writes a kept answer.
func replay(fc *fiber.Ctx, rec idempotency.Record) error {
	var header map[string]string
	if len(rec.Header) > 0 {
		if err := json.Unmarshal(rec.Header, &header); err != nil {
			return err
		}
	}
	for name, v := range header {
		fc.Set(name, v)
	}
	fc.Set(HeaderIdempotentReplayed, "true")
	fc.Status(rec.Status)
	return fc.Send(rec.Body)
}

// parseIdempotencyKey reads the header's value: printable ASCII, 1 to
// openapi.IdempotencyKeyMax characters, bare or as a structured-field
// string (RFC 8941: in double quotes, \" and \\ escaped).
func parseIdempotencyKey(v string) (string, error) {
	bad := func(why string) error {
		return fieldProblem("The Idempotency-Key header is malformed.", HeaderIdempotencyKey, why)
	}
	if len(v) > openapi.IdempotencyKeyMax {
		return "", bad("must have at most " + strconv.Itoa(openapi.IdempotencyKeyMax) + " characters")
	}
	for i := range len(v) {
		if v[i] < 0x20 || v[i] > 0x7e {
			return "", bad("must be printable ASCII")
		}
	}
	if strings.HasPrefix(v, `"`) {
		var b strings.Builder
		rest := v[1:]
		for {
			i := strings.IndexAny(rest, `"\`)
			if i < 0 {
				return "", bad("must end its string with a double quote")
			}
			b.WriteString(rest[:i])
			if rest[i] == '"' {
				if i != len(rest)-1 {
					return "", bad("must be one string")
				}
				break
			}
			if i+1 >= len(rest) || (rest[i+1] != '"' && rest[i+1] != '\\') {
				return "", bad(`must escape only " and \ in a string`)
			}
			b.WriteByte(rest[i+1])
			rest = rest[i+2:]
		}
		v = b.String()
	}
	if strings.TrimSpace(v) == "" {
		return "", bad("must not be empty")
	}
	return v, nil
}

// digest names a key of one caller on one route.
func digest(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// fingerprint digests a request: its bound input (path, query and body as
// the handler sees them), or its raw body when the input cannot be written
// as JSON. It is an HMAC with the router's secret, not a bare hash: the
// input may hold a password, and the stored fingerprint must not let
// anyone who reads the table test guesses of it.
func (s *idempotent) fingerprint(in any, fc *fiber.Ctx) string {
	b, err := json.Marshal(in)
	if err != nil {
		b = fc.Request().Body()
	}
	mac := hmac.New(sha256.New, s.secret)
	mac.Write(b)
	return hex.EncodeToString(mac.Sum(nil))
}
