// Package basicauth checks HTTP Basic credentials (RFC 7617) against a
// fixed set of accounts, in constant time: the docs guard and the routes
// that take a client's credentials (router.ClientAuth) share it.
package basicauth

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"strings"
)

// Accounts are the accepted name and password pairs, kept as digests:
// comparing fixed-length digests in constant time reveals neither the
// length nor the content of a name or a password.
type Accounts struct {
	list []account
}

type account struct {
	name, password [sha256.Size]byte
}

// New returns the accounts of passwords, by name.
func New(passwords map[string]string) *Accounts {
	a := &Accounts{list: make([]account, 0, len(passwords))}
	for name, password := range passwords {
		a.list = append(a.list, account{name: sha256.Sum256([]byte(name)), password: sha256.Sum256([]byte(password))})
	}
	return a
}

// Allow reports whether name and password are one of the accounts. It
// compares against every account whatever matches, so that the time taken
// does not tell which names exist.
func (a *Accounts) Allow(name, password string) bool {
	n, p := sha256.Sum256([]byte(name)), sha256.Sum256([]byte(password))
	match := 0
	for i := range a.list {
		match |= subtle.ConstantTimeCompare(n[:], a.list[i].name[:]) & subtle.ConstantTimeCompare(p[:], a.list[i].password[:])
	}
	return match == 1
}

// Parse reads an Authorization header of the Basic scheme. The scheme name
// is case-insensitive; the password may hold colons.
func Parse(header string) (name, password string, ok bool) {
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

// Challenge is the WWW-Authenticate value that asks for Basic credentials
// of realm (RFC 7617, section 2), with the realm escaped as a quoted-string.
func Challenge(realm string) string {
	return `Basic realm="` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(realm) + `"`
}
