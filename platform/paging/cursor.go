package paging

import (
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"strconv"
	"strings"
	"sync"
	"time"
)

// CursorQuery is the cursor query field of a list route that pages by
// keyset. A list route's input embeds it next to Query, which documents it
// in the spec and binds it; the handler passes Cursor on to the database.
type CursorQuery struct {
	// Cursor is the next_cursor of the previous page, or empty for a list
	// that starts at page. Its max is MaxCursorLength.
	Cursor string `query:"cursor" doc:"next_cursor of the previous answer: the page after it, found by key instead of by offset, so that rows inserted or deleted meanwhile are neither repeated nor skipped (when the last row's sort values are too long for a cursor, it names that row, and the page starts after the row's values when it is asked for: an edit of that row in between moves it, and its deletion makes the cursor a 400); page and limit then come from the cursor" validate:"max=512"`
}

// MaxCursorLength is the longest cursor a list issues or accepts, in
// characters: short enough for any request line.
const MaxCursorLength = 512

// Position is what a cursor carries: where the next page starts and which
// list it belongs to.
type Position struct {
	// Page is the index of the page the cursor was issued with; the cursor
	// leads to Page+1.
	Page int
	// Limit is the page size of that page, kept for the next.
	Limit int
	// Filter is a digest of the query the cursor pages through (filters
	// and sort order), so that a cursor cannot be used with other filters.
	Filter string
	// After holds the sort key of the last row of the page, one value per
	// keyset column: int64, float64, bool, string or time.Time.
	After []any
	// Count is the total the list's first page counted, which the pages
	// after it reuse until it is too old; nil when none travels.
	Count *Count
	// Row is true when the values of the sort keys were too long for a
	// cursor: After then holds only the row's unique key, and the next
	// page starts after that row's values as they are then.
	Row bool
}

// Count is a list's total as counted (or estimated) at a time.
type Count struct {
	// Total is the list's total: total_elements.
	Total int
	// Exact reports a total counted, not estimated: total_exact.
	Exact bool
	// At is when it was counted, to the second.
	At time.Time
}

// Messages of the cursor errors, which a client reads in the 400 answer.
const (
	msgCursorInvalid = "is not a cursor this service issued; start again without it"
	msgCursorFilters = "was issued for other filters, another sort or another list; start again without it"
)

// ErrCursorFilters is the FieldError of a valid cursor used with a list it
// was not issued for: other filters or another route.
var ErrCursorFilters = &FieldError{Field: CursorParam, Message: msgCursorFilters}

// ErrCursorRowGone is the FieldError of a cursor that continues after a
// row (see Position.Row) which was deleted since.
var ErrCursorRowGone = &FieldError{Field: CursorParam, Message: "continues after a record that is gone; start again without it"}

// ErrCursorInvalid is the FieldError of a cursor this service did not
// issue, or issued for a limit the list no longer allows.
var ErrCursorInvalid = &FieldError{Field: CursorParam, Message: msgCursorInvalid}

// ErrCursorUnsupported is the FieldError of a cursor sent to a list that
// does not page by key.
var ErrCursorUnsupported = &FieldError{Field: CursorParam, Message: "this list does not take cursors"}

// CursorError is the FieldError of a cursor the list cannot start after;
// why says what is wrong with it.
func CursorError(why string) error { return &FieldError{Field: CursorParam, Message: why} }

// cursorLabel binds the derived key to its use, so that the secret it comes
// from (often the JWT secret) signs nothing else with the same key.
const cursorLabel = "fiber-template paging cursor v1"

// macSize is the length of a cursor's signature, in bytes.
const macSize = 16

// Cursors signs the cursors a service hands out and verifies the ones it
// gets back. It is safe for concurrent use.
type Cursors struct {
	key []byte
	// macs holds HMAC-SHA256 states of key, reset and reused: making
	// one costs as much as signing a cursor.
	macs sync.Pool
}

// NewCursors returns the cursor signer whose key is derived from secret
// with HKDF-SHA256 and a label of its own, so the secret can be shared with
// another use, such as signing tokens. secret must not be empty.
func NewCursors(secret []byte) (*Cursors, error) {
	if len(secret) == 0 {
		return nil, errors.New("paging: the cursor secret is empty")
	}
	key, err := hkdf.Key(sha256.New, secret, nil, cursorLabel, sha256.Size)
	if err != nil {
		return nil, fmt.Errorf("paging: derive the cursor key: %w", err)
	}
	c := &Cursors{key: key}
	c.macs.New = func() any { return hmac.New(sha256.New, c.key) }
	return c, nil
}

// wirePosition is a Position in JSON: keys of one letter, and every sort
// key value written with its type so that it reads back as the same type.
type wirePosition struct {
	Page   int      `json:"p"`
	Limit  int      `json:"l"`
	Filter string   `json:"f"`
	After  []string `json:"a"`
	// Total, Exact and At (Unix seconds) are the Count; At is 0 without.
	Total int   `json:"t,omitempty"`
	Exact bool  `json:"x,omitempty"`
	At    int64 `json:"c,omitempty"`
	Row   bool  `json:"r,omitempty"`
}

// Encode returns the signed, URL-safe cursor of pos.
func (c *Cursors) Encode(pos Position) (string, error) {
	w, err := wireOf(pos)
	if err != nil {
		return "", err
	}
	return c.seal(appendWire(make([]byte, 0, 192), w)), nil
}

// wireOf is pos as its cursor's payload holds it.
func wireOf(pos Position) (wirePosition, error) {
	w := wirePosition{Page: pos.Page, Limit: pos.Limit, Filter: pos.Filter, After: make([]string, len(pos.After)), Row: pos.Row}
	for i, v := range pos.After {
		s, err := encodeKey(v)
		if err != nil {
			return wirePosition{}, err
		}
		w.After[i] = s
	}
	if n := pos.Count; n != nil {
		w.Total, w.Exact, w.At = n.Total, n.Exact, n.At.Unix()
	}
	return w, nil
}

// seal is payload and its signature, as a cursor: both in base64url,
// joined by a dot, encoded into one buffer.
func (c *Cursors) seal(payload []byte) string {
	var mac [macSize]byte
	c.sign(mac[:0], payload)
	enc := base64.RawURLEncoding
	n := enc.EncodedLen(len(payload))
	b := make([]byte, n+1+enc.EncodedLen(macSize))
	enc.Encode(b, payload)
	b[n] = '.'
	enc.Encode(b[n+1:], mac[:])
	return string(b)
}

// Decode verifies a cursor of the list whose cursors layout describes and
// returns its position. A cursor that is not one Encode made with the same
// key, whose page or limit is out of range, or whose values are not of the
// kinds of layout (Layout.Keys, or Layout.Row for a cursor naming a row),
// is a *FieldError naming CursorParam: a cursor decoded without an error holds
// values the list's columns can be compared with.
func (c *Cursors) Decode(cursor string, layout Layout) (Position, error) {
	invalid := &FieldError{Field: CursorParam, Message: msgCursorInvalid}
	body, sig, ok := strings.Cut(cursor, ".")
	if !ok {
		return Position{}, invalid
	}
	enc := base64.RawURLEncoding
	if len(sig) != enc.EncodedLen(macSize) {
		return Position{}, invalid // before decoding it into mac, which it would overrun
	}
	payload, err1 := enc.DecodeString(body)
	var mac, signed [macSize]byte
	n, err2 := enc.Decode(mac[:], []byte(sig))
	if err1 != nil || err2 != nil || n != macSize || !hmac.Equal(mac[:], c.sign(signed[:0], payload)) {
		return Position{}, invalid
	}
	// The payload is one Encode wrote with this key (its signature says
	// so); the checks below are of values a release before this one may
	// have written.
	var w wirePosition
	if !readWire(payload, &w) {
		w = wirePosition{}
		if json.Unmarshal(payload, &w) != nil {
			return Position{}, invalid
		}
	}
	if w.Page < 0 || w.Page >= maxPage || w.Limit < 1 || w.Total < 0 || w.At < 0 {
		return Position{}, invalid
	}
	pos := Position{Page: w.Page, Limit: w.Limit, Filter: w.Filter, After: make([]any, len(w.After)), Row: w.Row}
	if w.At > 0 {
		pos.Count = &Count{Total: w.Total, Exact: w.Exact, At: time.Unix(w.At, 0)}
	}
	for i, s := range w.After {
		v, err := decodeKey(s)
		if err != nil {
			return Position{}, invalid
		}
		pos.After[i] = v
	}
	want := layout.Keys
	if pos.Row {
		want = layout.Row
	}
	if !fits(pos.After, want) {
		return Position{}, invalid
	}
	return pos, nil
}

// sign appends payload's signature, the first macSize bytes of its
// HMAC-SHA256, to dst.
func (c *Cursors) sign(dst, payload []byte) []byte {
	m := c.macs.Get().(hash.Hash)
	m.Reset()
	m.Write(payload)
	var sum [sha256.Size]byte
	m.Sum(sum[:0])
	c.macs.Put(m)
	return append(dst, sum[:macSize]...)
}

// encodeKey writes a sort key value with a one-letter type prefix.
func encodeKey(v any) (string, error) {
	switch v := v.(type) {
	case int64:
		return "i:" + strconv.FormatInt(v, 10), nil
	case float64:
		return "f:" + strconv.FormatFloat(v, 'g', -1, 64), nil
	case bool:
		return "b:" + strconv.FormatBool(v), nil
	case string:
		return "s:" + v, nil
	case time.Time:
		return "t:" + v.Format(time.RFC3339Nano), nil
	}
	return "", fmt.Errorf("paging: a cursor cannot hold a sort key of type %T", v)
}

// decodeKey reads a value encodeKey wrote.
func decodeKey(s string) (any, error) {
	kind, text, ok := strings.Cut(s, ":")
	if !ok {
		return nil, errors.New("no type")
	}
	switch kind {
	case "i":
		return strconv.ParseInt(text, 10, 64)
	case "f":
		return strconv.ParseFloat(text, 64)
	case "b":
		return strconv.ParseBool(text)
	case "s":
		return text, nil
	case "t":
		return time.Parse(time.RFC3339Nano, text)
	}
	return nil, fmt.Errorf("unknown type %q", kind)
}
