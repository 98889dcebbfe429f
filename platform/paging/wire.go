package paging

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// appendWire appends w as encoding/json writes it, byte for byte, without
// its reflection: the payload of every cursor a page hands out.
func appendWire(b []byte, w wirePosition) []byte {
	b = append(b, `{"p":`...)
	b = strconv.AppendInt(b, int64(w.Page), 10)
	b = append(b, `,"l":`...)
	b = strconv.AppendInt(b, int64(w.Limit), 10)
	b = append(b, `,"f":`...)
	b = appendWireString(b, w.Filter)
	b = append(b, `,"a":`...)
	if w.After == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, s := range w.After {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendWireString(b, s)
		}
		b = append(b, ']')
	}
	if w.Total != 0 {
		b = append(b, `,"t":`...)
		b = strconv.AppendInt(b, int64(w.Total), 10)
	}
	if w.Exact {
		b = append(b, `,"x":true`...)
	}
	if w.At != 0 {
		b = append(b, `,"c":`...)
		b = strconv.AppendInt(b, w.At, 10)
	}
	if w.Row {
		b = append(b, `,"r":true`...)
	}
	return append(b, '}')
}

// appendWireString appends s as a JSON string as encoding/json writes it:
// printable ASCII as it is, and anything it escapes (quotes, backslashes,
// <, > and &, control characters, non-ASCII) by encoding/json itself.
func appendWireString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			quoted, _ := json.Marshal(s) // a string always marshals
			return append(b, quoted...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// readWire reads a cursor's payload as Encode writes it (appendWire, the
// bytes encoding/json writes): an object of wirePosition's keys, in its
// field order, each once, numbers as integers, no spaces. It reports false
// for any other text, which json.Unmarshal then reads: this is a fast path
// for the payloads every request brings, not a second format.
func readWire(payload []byte, w *wirePosition) bool {
	r := wireReader{b: payload}
	if !r.byte('{') {
		return false
	}
	for first := true; !r.byte('}'); first = false {
		if !first && !r.byte(',') {
			return false
		}
		key, ok := r.plainString()
		if !ok || !r.byte(':') {
			return false
		}
		switch key {
		case "p":
			w.Page, ok = r.int()
		case "l":
			w.Limit, ok = r.int()
		case "f":
			w.Filter, ok = r.string()
		case "a":
			w.After, ok = r.strings()
		case "t":
			w.Total, ok = r.int()
		case "x":
			w.Exact, ok = r.bool()
		case "c":
			var at int
			at, ok = r.int()
			w.At = int64(at)
		case "r":
			w.Row, ok = r.bool()
		default:
			return false
		}
		if !ok {
			return false
		}
	}
	return len(r.b) == 0
}

// wireReader reads JSON values off the front of b.
type wireReader struct{ b []byte }

// byte reads c, when it is next.
func (r *wireReader) byte(c byte) bool {
	if len(r.b) == 0 || r.b[0] != c {
		return false
	}
	r.b = r.b[1:]
	return true
}

// int reads a JSON integer: an optional minus, and digits without a
// leading zero.
func (r *wireReader) int() (int, bool) {
	i := 0
	if len(r.b) > 0 && r.b[0] == '-' {
		i++
	}
	start := i
	for i < len(r.b) && r.b[i] >= '0' && r.b[i] <= '9' {
		i++
	}
	if i-start > 1 && r.b[start] == '0' {
		return 0, false
	}
	n, err := strconv.Atoi(string(r.b[:i]))
	r.b = r.b[i:]
	return n, err == nil
}

// bool reads true or false.
func (r *wireReader) bool() (bool, bool) {
	switch {
	case bytes.HasPrefix(r.b, []byte("true")):
		r.b = r.b[4:]
		return true, true
	case bytes.HasPrefix(r.b, []byte("false")):
		r.b = r.b[5:]
		return false, true
	}
	return false, false
}

// plainString reads a string without escapes, of valid UTF-8 and no
// control characters (which JSON refuses raw).
func (r *wireReader) plainString() (string, bool) {
	if !r.byte('"') {
		return "", false
	}
	end := bytes.IndexByte(r.b, '"')
	if end < 0 || !plain(r.b[:end]) {
		return "", false
	}
	s := string(r.b[:end])
	r.b = r.b[end+1:]
	return s, true
}

// plain reports whether b is valid UTF-8 without a backslash or a control
// character: a JSON string's text as it reads.
func plain(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == '\\' {
			return false
		}
	}
	return utf8.Valid(b)
}

// string reads a string, its escapes included: those encoding/json
// writes (\", \\, \n, \r, \t, \b, \f and \uXXXX, no surrogate) read as
// Go reads them; any other escape, or a control character, is not read.
func (r *wireReader) string() (string, bool) {
	if s, ok := (&wireReader{b: r.b}).plainString(); ok {
		r.b = r.b[len(s)+2:]
		return s, true
	}
	if !bytes.HasPrefix(r.b, []byte(`"`)) {
		return "", false
	}
	end := 1
	for end < len(r.b) && r.b[end] != '"' {
		switch c := r.b[end]; {
		case c < 0x20:
			return "", false
		case c == '\\':
			if end+1 >= len(r.b) || bytes.IndexByte([]byte(`"\\bfnrtu`), r.b[end+1]) < 0 {
				return "", false
			}
			end++
		}
		end++
	}
	if end >= len(r.b) || !utf8.Valid(r.b[:end]) {
		return "", false
	}
	s, err := strconv.Unquote(string(r.b[:end+1]))
	r.b = r.b[end+1:]
	return s, err == nil
}

// strings reads an array of strings, or null.
func (r *wireReader) strings() ([]string, bool) {
	if bytes.HasPrefix(r.b, []byte("null")) {
		r.b = r.b[4:]
		return nil, true
	}
	if !r.byte('[') {
		return nil, false
	}
	out := make([]string, 0, 2)
	for first := true; !r.byte(']'); first = false {
		if !first && !r.byte(',') {
			return nil, false
		}
		s, ok := r.string()
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}
