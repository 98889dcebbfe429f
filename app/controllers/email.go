package controllers

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
	"golang.org/x/text/secure/precis"
	"golang.org/x/text/unicode/norm"

	"github.com/asapjs/fiber-template/platform/problem"
)

// Emails are stored and compared in one form, so that spellings a reader
// cannot tell apart are one account: "ａdmin@x.test" (fullwidth),
// "ADMIN@x.test" and "admin@x.test" are the same address, and
// "аdmin@x.test" (a Cyrillic а among Latin letters) is refused rather than
// becoming a look-alike of it.

// maxEmailBytes is the longest email a user may have (RFC 5321's path
// limit), counted after normalisation, which may lengthen it.
const maxEmailBytes = 254

var (
	// ErrEmailInvalid is returned by NormalizeEmail for a string that is
	// not an email address it can normalise.
	ErrEmailInvalid = errors.New("not a valid email address")
	// ErrEmailMixedScripts is returned by NormalizeEmail for a local part
	// that mixes scripts, such as Latin with Cyrillic or Greek.
	ErrEmailMixedScripts = errors.New("the local part mixes scripts")
)

// NormalizeEmail returns the form an email is stored and looked up in:
// surrounding blanks removed; the local part (before the last @) mapped by
// a PRECIS identifier profile (RFC 8264) with width folding, Unicode case
// folding and NFKC, and refused when it mixes scripts; the domain mapped
// for lookup and written in ASCII (IDNA, UTS #46), e.g. "Bücher.test" is
// "xn--bcher-kva.test". A string it cannot normalise is an error wrapping
// ErrEmailInvalid or ErrEmailMixedScripts.
//
//	NormalizeEmail("ＡＤＭＩＮ@X.test") // "admin@x.test", nil
//	NormalizeEmail("аdmin@x.test")    // "", ErrEmailMixedScripts (Cyrillic а)
func NormalizeEmail(email string) (string, error) {
	email = strings.TrimSpace(email)
	at := strings.LastIndexByte(email, '@')
	if at <= 0 || at == len(email)-1 {
		return "", fmt.Errorf("email: no local part or domain: %w", ErrEmailInvalid)
	}
	local, err := localPartProfile().String(email[:at])
	if err != nil {
		return "", fmt.Errorf("email local part: %w: %w", ErrEmailInvalid, err)
	}
	if mixesScripts(local) {
		return "", fmt.Errorf("email: %w", ErrEmailMixedScripts)
	}
	domain, err := domainProfile().ToASCII(email[at+1:])
	if err != nil {
		return "", fmt.Errorf("email domain: %w: %w", ErrEmailInvalid, err)
	}
	out := local + "@" + domain
	if len(out) > maxEmailBytes {
		return "", fmt.Errorf("email: over %d bytes: %w", maxEmailBytes, ErrEmailInvalid)
	}
	return out, nil
}

// localPartProfile is the PRECIS profile of local parts: RFC 8265's
// UsernameCaseMapped with case folding for lower-casing and NFKC for NFC,
// so compatibility variants (fullwidth, ligatures, ß) meet their plain
// form. Every printable ASCII character an unquoted local part may have is
// in its identifier class.
func localPartProfile() *precis.Profile {
	return precis.NewIdentifier(precis.FoldWidth, precis.FoldCase(), precis.Norm(norm.NFKC), precis.BidiRule, precis.DisallowEmpty)
}

// domainProfile maps a domain for lookup (case folding and NFKC, UTS #46)
// and checks its labels and lengths as DNS requires.
func domainProfile() *idna.Profile {
	return idna.New(idna.MapForLookup(), idna.BidiRule(), idna.VerifyDNSLength(true))
}

// mixesScripts reports whether s has letters of more than one script,
// Common and Inherited characters (digits, punctuation, combining marks)
// aside. Like UTS #39's "highly restrictive" level, Latin with Han and
// Hiragana or Katakana, with Han and Bopomofo, or with Han and Hangul, as
// written in Japanese, Chinese and Korean, is one script.
func mixesScripts(s string) bool {
	var seen []string
	for _, r := range s {
		if name := scriptOf(r); name != "" && !slices.Contains(seen, name) {
			seen = append(seen, name)
		}
	}
	if len(seen) <= 1 {
		return false
	}
	for _, together := range [][]string{
		{"Latin", "Han", "Hiragana", "Katakana"},
		{"Latin", "Han", "Bopomofo"},
		{"Latin", "Han", "Hangul"},
	} {
		if !slices.ContainsFunc(seen, func(name string) bool { return !slices.Contains(together, name) }) {
			return false
		}
	}
	return true
}

// scriptOf returns the name of r's script, or "" for Common, Inherited and
// unassigned characters.
func scriptOf(r rune) string {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
			return "Latin"
		}
		return ""
	}
	if unicode.In(r, unicode.Common, unicode.Inherited) {
		return ""
	}
	for name, table := range unicode.Scripts {
		if unicode.Is(table, r) {
			return name
		}
	}
	return ""
}

// normalizeEmailField normalises the email a client sent in field, or
// answers 422 naming the field, as a violation of the documented rules is
// answered.
func normalizeEmailField(field, email string) (string, error) {
	out, err := NormalizeEmail(email)
	if err == nil {
		return out, nil
	}
	msg := "must be a valid email address"
	if errors.Is(err, ErrEmailMixedScripts) {
		msg = "must not mix scripts before the @ (such as Latin with Cyrillic or Greek)"
	}
	return "", problem.Invalid(problem.FieldError{Field: field, Message: msg})
}
