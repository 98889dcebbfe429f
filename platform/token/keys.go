package token

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"slices"
)

// Algorithms of the keys. EdDSA (Ed25519, RFC 8037) is the one other
// services verify with the published keys: small keys and signatures,
// deterministic signing (no per-signature randomness to get wrong), fast
// verification, and supported by golang-jwt, keyfunc and the JOSE libraries
// of other languages. HS256 is the single-service mode: one shared secret
// that signs and verifies, never published.
const (
	AlgEdDSA = "EdDSA"
	AlgHS256 = "HS256"
)

// Key is one key of a Keys: an Ed25519 key pair or an HS256 secret.
type Key struct {
	// ID is the key's kid: the RFC 7638 thumbprint of an Ed25519 public
	// key unless the key came with one; empty for a secret.
	ID string
	// Alg is AlgEdDSA or AlgHS256: the only algorithm the key signs and
	// verifies with.
	Alg    string
	sign   any // ed25519.PrivateKey or []byte
	verify any // ed25519.PublicKey or []byte
}

// Keys are the keys of the access tokens: the first signs, every one
// verifies the tokens that name it by kid. Rotation puts a new key first
// and keeps the old ones until their last tokens expire.
type Keys struct {
	keys    []*Key
	byID    map[string]*Key
	methods []string
}

// ErrNoKeys is a key list without a key.
var ErrNoKeys = errors.New("token: no keys")

// NewSecret returns the keys of the single-service mode: the HS256 secret,
// without a kid.
func NewSecret(secret []byte) (*Keys, error) {
	if len(secret) == 0 {
		return nil, ErrNoKeys
	}
	return newKeys([]*Key{{Alg: AlgHS256, sign: slices.Clone(secret), verify: slices.Clone(secret)}})
}

// NewEd25519 returns the keys of the Ed25519 private keys, the first the
// signing one, each named by its thumbprint.
func NewEd25519(private ...ed25519.PrivateKey) (*Keys, error) {
	keys := make([]*Key, len(private))
	for i, p := range private {
		keys[i] = ed25519Key(p, "")
	}
	return newKeys(keys)
}

func ed25519Key(p ed25519.PrivateKey, kid string) *Key {
	pub := p.Public().(ed25519.PublicKey)
	if kid == "" {
		kid = thumbprint(pub)
	}
	return &Key{ID: kid, Alg: AlgEdDSA, sign: p, verify: pub}
}

func newKeys(keys []*Key) (*Keys, error) {
	if len(keys) == 0 {
		return nil, ErrNoKeys
	}
	k := &Keys{keys: keys, byID: map[string]*Key{}}
	for _, key := range keys {
		if _, ok := k.byID[key.ID]; ok {
			return nil, fmt.Errorf("token: two keys with the kid %q", key.ID)
		}
		k.byID[key.ID] = key
		if !slices.Contains(k.methods, key.Alg) {
			k.methods = append(k.methods, key.Alg)
		}
	}
	if len(k.methods) > 1 {
		return nil, errors.New("token: an HS256 secret and Ed25519 keys cannot be mixed")
	}
	return k, nil
}

// ParseKeys reads Ed25519 private keys, the first the signing one: PEM
// blocks of PKCS #8 private keys ("PRIVATE KEY", as openssl genpkey
// -algorithm ed25519 writes them), or a JWK Set (or a single JWK) of OKP
// Ed25519 keys with their private part d, whose kid is kept.
func ParseKeys(data []byte) (*Keys, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, ErrNoKeys
	}
	if data[0] == '{' {
		return parseJWKs(data)
	}
	var keys []*Key
	for len(bytes.TrimSpace(data)) > 0 {
		block, rest := pem.Decode(data)
		if block == nil {
			return nil, fmt.Errorf("token: key %d is neither PEM nor JSON", len(keys)+1)
		}
		data = rest
		if block.Type != "PRIVATE KEY" {
			return nil, fmt.Errorf("token: key %d is a PEM %q, want a PKCS #8 \"PRIVATE KEY\"", len(keys)+1, block.Type)
		}
		parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("token: key %d: %w", len(keys)+1, err)
		}
		p, ok := parsed.(ed25519.PrivateKey)
		if !ok {
			return nil, fmt.Errorf("token: key %d is a %T, want an Ed25519 key", len(keys)+1, parsed)
		}
		keys = append(keys, ed25519Key(p, ""))
	}
	return newKeys(keys)
}

// jwk is a JSON Web Key of an OKP Ed25519 key (RFC 8037).
type jwk struct {
	Kty string `json:"kty"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	D   string `json:"d,omitempty"`
	Kid string `json:"kid,omitempty"`
	Alg string `json:"alg,omitempty"`
	Use string `json:"use,omitempty"`
}

func parseJWKs(data []byte) (*Keys, error) {
	var set struct {
		Keys []jwk `json:"keys"`
	}
	if err := json.Unmarshal(data, &set); err != nil {
		return nil, fmt.Errorf("token: JWK Set: %w", err)
	}
	if set.Keys == nil {
		var one jwk
		if err := json.Unmarshal(data, &one); err != nil {
			return nil, fmt.Errorf("token: JWK: %w", err)
		}
		set.Keys = []jwk{one}
	}
	keys := make([]*Key, 0, len(set.Keys))
	for i, j := range set.Keys {
		if j.Kty != "OKP" || j.Crv != "Ed25519" || (j.Alg != "" && j.Alg != AlgEdDSA) {
			return nil, fmt.Errorf("token: JWK %d is %s %s %s, want an OKP Ed25519 key for EdDSA", i+1, j.Kty, j.Crv, j.Alg)
		}
		seed, err := base64.RawURLEncoding.DecodeString(j.D)
		if err != nil || len(seed) != ed25519.SeedSize {
			return nil, fmt.Errorf("token: JWK %d has no private key d of %d bytes", i+1, ed25519.SeedSize)
		}
		p := ed25519.NewKeyFromSeed(seed)
		if j.X != "" && j.X != base64.RawURLEncoding.EncodeToString(p.Public().(ed25519.PublicKey)) {
			return nil, fmt.Errorf("token: JWK %d: x is not the public key of d", i+1)
		}
		keys = append(keys, ed25519Key(p, j.Kid))
	}
	return newKeys(keys)
}

// GenerateEd25519 returns a new Ed25519 private key as a PKCS #8 PEM
// block, which ParseKeys reads.
func GenerateEd25519() ([]byte, error) {
	_, p, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("token: generate a key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(p)
	if err != nil {
		return nil, fmt.Errorf("token: encode a key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// thumbprint is the RFC 7638 thumbprint of an Ed25519 public key: the
// base64url SHA-256 of its JWK's required members in lexical order.
func thumbprint(pub ed25519.PublicKey) string {
	canonical := `{"crv":"Ed25519","kty":"OKP","x":"` + base64.RawURLEncoding.EncodeToString(pub) + `"}`
	sum := sha256.Sum256([]byte(canonical))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// Signing is the key that signs: the first.
func (k *Keys) Signing() *Key { return k.keys[0] }

// IDs are the kids of the keys, the signing one first.
func (k *Keys) IDs() []string {
	ids := make([]string, len(k.keys))
	for i, key := range k.keys {
		ids[i] = key.ID
	}
	return ids
}

// Published reports whether the keys verify with public keys other
// services can have: Ed25519, not a secret.
func (k *Keys) Published() bool { return k.methods[0] == AlgEdDSA }

// JWKSet is a JSON Web Key Set (RFC 7517) of public keys, as
// /.well-known/jwks.json serves it.
type JWKSet struct {
	// Keys are the public keys, the signing one first.
	Keys []JWK `json:"keys" doc:"The public keys of the access tokens; the first signs new tokens, the others verify tokens signed before a rotation" validate:"required"`
}

// JWK is a public Ed25519 key (RFC 8037): what another service verifies
// the tokens that name its kid with.
type JWK struct {
	// Kty is the key type (kty, RFC 7517 section 4.1): "OKP", an octet key pair
	// (RFC 8037).
	Kty string `json:"kty" doc:"Key type" example:"OKP" validate:"required,oneof=OKP"`
	// Crv is the curve of the octet key pair (crv, RFC 8037): "Ed25519".
	Crv string `json:"crv" doc:"Curve" example:"Ed25519" validate:"required,oneof=Ed25519"`
	// X is the public key (x, RFC 8037), base64url without padding.
	X string `json:"x" doc:"The public key, base64url" example:"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" validate:"required"`
	// Kid is the key ID (kid, RFC 7517 section 4.5), matched against a token's
	// kid header.
	Kid string `json:"kid" doc:"Key id: the kid header of the tokens this key verifies" example:"kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k" validate:"required"`
	// Alg is the only algorithm the key is used with (alg, RFC 7517 section
	// 4.4): "EdDSA".
	Alg string `json:"alg" doc:"The only algorithm the key verifies" example:"EdDSA" validate:"required,oneof=EdDSA"`
	// Use is the intended use of the public key (use, RFC 7517 section 4.2):
	// "sig", signatures.
	Use string `json:"use" doc:"Public key use: signatures" example:"sig" validate:"required,oneof=sig"`
}

// PublicKeys is the JWK Set of the public keys: every Ed25519 key's
// public part, never a secret.
func (k *Keys) PublicKeys() JWKSet {
	set := JWKSet{Keys: []JWK{}}
	for _, key := range k.keys {
		if pub, ok := key.verify.(ed25519.PublicKey); ok {
			set.Keys = append(set.Keys, JWK{Kty: "OKP", Crv: "Ed25519", X: base64.RawURLEncoding.EncodeToString(pub), Kid: key.ID, Alg: AlgEdDSA, Use: "sig"})
		}
	}
	return set
}

// Derive is a secret derived from the signing key for purpose, for what
// else the service signs with a secret of its own (cursors, idempotency
// fingerprints) when it has no HS256 secret. It changes when the signing
// key does.
func (k *Keys) Derive(purpose string) []byte {
	var material []byte
	switch s := k.Signing().sign.(type) {
	case ed25519.PrivateKey:
		material = s.Seed()
	case []byte:
		material = s
	}
	sum := sha256.Sum256(append([]byte("derived from the signing key for "+purpose+"\x00"), material...))
	return sum[:]
}
