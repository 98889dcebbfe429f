package paging

import (
	"strings"
	"time"
)

// Kind is the type of one sort key's values, as a cursor carries them.
type Kind uint8

// The kinds of sort key values a cursor can hold, each read back as one Go
// type.
const (
	// KindInt is an integer column's value, an int64.
	KindInt Kind = iota + 1
	// KindFloat is a floating-point column's value, a float64.
	KindFloat
	// KindBool is a boolean column's value, a bool.
	KindBool
	// KindString is a text column's value, a string.
	KindString
	// KindTime is a timestamp column's value, a time.Time.
	KindTime
)

// String names the Go type of the kind's values.
func (k Kind) String() string {
	switch k {
	case KindInt:
		return "int64"
	case KindFloat:
		return "float64"
	case KindBool:
		return "bool"
	case KindString:
		return "string"
	case KindTime:
		return "time.Time"
	}
	return "invalid kind"
}

// KindOf is the kind of v, one of the values a cursor can hold, and false
// for any other value.
func KindOf(v any) (Kind, bool) {
	switch v.(type) {
	case int64:
		return KindInt, true
	case float64:
		return KindFloat, true
	case bool:
		return KindBool, true
	case string:
		return KindString, true
	case time.Time:
		return KindTime, true
	}
	return 0, false
}

// Layout is what the cursors of one list carry, so that Decode takes only a
// cursor the list could have issued: a forged cursor signed with the right
// key but holding a text where the list has an integer would otherwise
// reach the database as a comparison it refuses.
type Layout struct {
	// Keys are the kinds of the list's sort keys, in order: the values of
	// Position.After.
	Keys []Kind
	// Row are the kinds of the columns that identify a row, in order: the
	// values of Position.After when Position.Row is true. Empty, the list
	// takes no such cursor.
	Row []Kind
}

// fits reports whether the values of a cursor are one of each kind of want,
// in order, and each one a database compares as a value of its column: a
// string without NUL (which PostgreSQL's text cannot hold) and a time whose
// year in UTC is between 1 and 9999 (PostgreSQL has no year 0, and SQLite
// orders times as text of four-digit years). An empty want fits nothing.
func fits(values []any, want []Kind) bool {
	if len(want) == 0 || len(values) != len(want) {
		return false
	}
	for i, v := range values {
		if kind, _ := KindOf(v); kind != want[i] {
			return false
		}
		switch v := v.(type) {
		case string:
			if strings.IndexByte(v, 0) >= 0 {
				return false
			}
		case time.Time:
			if year := v.UTC().Year(); year < 1 || year > 9999 {
				return false
			}
		}
	}
	return true
}
