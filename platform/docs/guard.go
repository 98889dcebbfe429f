package docs

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/asapjs/fiber-template/platform/problem"
)

// credential is one accepted account, kept as digests: comparing
// fixed-length digests in constant time reveals neither the length nor the
// content of a name or a password.
type credential struct {
	user, password [sha256.Size]byte
}

// Guard returns middleware that lets a request through only with HTTP Basic
// credentials (RFC 7617) of one of cfg.Users. Any other request, including
// one whose Authorization header is malformed, gets 401 Unauthorized with a
// WWW-Authenticate challenge and a problem details body.
//
//	docs.Guard(docs.GuardConfig{Users: map[string]string{"dev": "s3cret"}})
func Guard(cfg GuardConfig) fiber.Handler {
	cfg = guardConfigDefault(cfg)
	accounts := make([]credential, 0, len(cfg.Users))
	for user, password := range cfg.Users {
		accounts = append(accounts, credential{user: sha256.Sum256([]byte(user)), password: sha256.Sum256([]byte(password))})
	}
	challenge := `Basic realm="` + quoteRealm(cfg.Realm) + `"`

	return func(c *fiber.Ctx) error {
		if user, password, ok := basicCredentials(c.Get(fiber.HeaderAuthorization)); ok && allowed(accounts, user, password) {
			return c.Next()
		}
		c.Set(fiber.HeaderWWWAuthenticate, challenge)
		c.Status(fiber.StatusUnauthorized)
		return c.JSON(problem.New(fiber.StatusUnauthorized, "valid Basic credentials are required to view the API docs"), problem.ContentType)
	}
}

// allowed reports whether user and password belong to one of accounts. It
// compares against every account whatever matches, so that the time taken
// does not tell which user names exist.
func allowed(accounts []credential, user, password string) bool {
	u, p := sha256.Sum256([]byte(user)), sha256.Sum256([]byte(password))
	match := 0
	for i := range accounts {
		match |= subtle.ConstantTimeCompare(u[:], accounts[i].user[:]) & subtle.ConstantTimeCompare(p[:], accounts[i].password[:])
	}
	return match == 1
}

// basicCredentials parses an Authorization header of the Basic scheme. The
// scheme name is case-insensitive; the password may hold colons.
func basicCredentials(header string) (user, password string, ok bool) {
	const scheme = "basic "
	if len(header) < len(scheme) || !strings.EqualFold(header[:len(scheme)], scheme) {
		return "", "", false
	}
	decoded, err := base64.StdEncoding.DecodeString(strings.TrimSpace(header[len(scheme):]))
	if err != nil {
		return "", "", false
	}
	return strings.Cut(string(decoded), ":")
}

// quoteRealm escapes a realm for use inside an HTTP quoted-string.
func quoteRealm(realm string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(realm)
}
