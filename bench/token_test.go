package bench

import (
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/asapjs/fiber-template/platform/token"
)

// BenchmarkTokenVerify is the cost of verifying an access token that is
// not in the router's cache (its first request on an instance): the
// signature and every RFC 8725 check, with the Ed25519 keys (EdDSA) and
// with an HS256 secret.
func BenchmarkTokenVerify(b *testing.B) {
	ed, err := Keys()
	if err != nil {
		b.Fatal(err)
	}
	hs, err := token.NewSecret(Secret())
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []struct {
		name string
		keys *token.Keys
	}{{"alg=EdDSA", ed}, {"alg=HS256", hs}} {
		b.Run(mode.name, func(b *testing.B) {
			now := time.Now()
			raw, err := mode.keys.Sign(&token.Claims{
				RegisteredClaims: jwt.RegisteredClaims{
					Subject: "1", Issuer: "api", Audience: jwt.ClaimStrings{"api"}, ID: "bench",
					IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(time.Hour)),
				},
				Role: "admin", SessionID: "bench",
			})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := mode.keys.Verify(raw, time.Hour); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
