package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// dotenvFile is the file of local settings read from the working
// directory. It is optional, never committed (.env.example is), and never
// copied into the container image.
const dotenvFile = ".env"

// withDotenv returns a lookup that answers from lookupEnv first and falls
// back to the variables of the file at path, so the real environment always
// wins over the file. A missing file is not an error: the lookup is then
// lookupEnv itself.
func withDotenv(path string, lookupEnv func(string) (string, bool)) (func(string) (string, bool), error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return lookupEnv, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	vars, err := parseDotenv(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return func(key string) (string, bool) {
		if v, ok := lookupEnv(key); ok {
			return v, true
		}
		v, ok := vars[key]
		return v, ok
	}, nil
}

// parseDotenv reads KEY=VALUE lines. It accepts what .env files commonly
// hold and refuses the rest instead of guessing:
//
//   - blank lines and lines starting with # are skipped;
//   - an optional "export " prefix is dropped, so the file can be sourced
//     by a shell too;
//   - an unquoted value is trimmed and ends at " #" (a comment);
//   - a value in single quotes is taken literally;
//   - a value in double quotes understands \n, \t, \" and \\;
//   - a value spans one line only.
//
// A later line for the same key wins.
func parseDotenv(r io.Reader) (map[string]string, error) {
	vars := map[string]string{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if n == 1 {
			line = strings.TrimPrefix(line, "\uFEFF")
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "export "); ok {
			line = strings.TrimSpace(rest)
		}
		key, raw, ok := strings.Cut(line, "=")
		key = strings.TrimSpace(key)
		if !ok {
			return nil, fmt.Errorf("line %d: want KEY=VALUE", n)
		}
		if !validEnvKey(key) {
			return nil, fmt.Errorf("line %d: %q is not a variable name (letters, digits and _, not starting with a digit)", n, key)
		}
		value, err := dotenvValue(strings.TrimSpace(raw))
		if err != nil {
			return nil, fmt.Errorf("line %d: %s: %w", n, key, err)
		}
		vars[key] = value
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return vars, nil
}

// dotenvValue decodes the text after the = sign, already trimmed.
func dotenvValue(raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	switch quote := raw[0]; quote {
	case '\'':
		end := strings.IndexByte(raw[1:], '\'')
		if end < 0 {
			return "", errors.New("missing closing '")
		}
		return raw[1 : 1+end], afterQuote(raw[2+end:])
	case '"':
		var b strings.Builder
		for i := 1; i < len(raw); i++ {
			c := raw[i]
			switch {
			case c == '"':
				return b.String(), afterQuote(raw[i+1:])
			case c == '\\' && i+1 < len(raw):
				i++
				switch raw[i] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				case '"', '\\':
					b.WriteByte(raw[i])
				default:
					b.WriteByte('\\')
					b.WriteByte(raw[i])
				}
			default:
				b.WriteByte(c)
			}
		}
		return "", errors.New(`missing closing "`)
	}
	if i := strings.Index(raw, " #"); i >= 0 {
		raw = raw[:i]
	}
	if i := strings.Index(raw, "\t#"); i >= 0 {
		raw = raw[:i]
	}
	return strings.TrimSpace(raw), nil
}

// afterQuote accepts what may follow a closing quote: nothing, or a comment.
func afterQuote(rest string) error {
	rest = strings.TrimSpace(rest)
	if rest == "" || strings.HasPrefix(rest, "#") {
		return nil
	}
	return fmt.Errorf("unexpected %q after the closing quote", rest)
}

func validEnvKey(key string) bool {
	if key == "" {
		return false
	}
	for i, c := range key {
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
