package paging

import (
	"fmt"
	"strconv"
)

// The names of the paging query parameters: the only place they are
// written (the tags of Query, CursorQuery and the sort parameter aside);
// the document, the binder, the links and the errors use these.
const (
	// PageParam is the 0-based page index.
	PageParam = "page"
	// LimitParam is the page size.
	LimitParam = "limit"
	// CursorParam is the next_cursor of the previous page.
	CursorParam = "cursor"
	// SortParam is the order of a sortable list.
	SortParam = "sort"
)

// Defaults of the paging query.
const (
	// DefaultPage is the page index used when the query has no page.
	DefaultPage = 0
	// DefaultLimit is the page size used when the query has no limit.
	DefaultLimit = 20
	// DefaultMaxLimit is the largest limit accepted unless configured otherwise.
	DefaultMaxLimit = 100
)

// Paging is the page/limit pair every handler receives.
type Paging struct {
	// Page is the 0-based page index.
	Page int
	// Limit is the number of items per page.
	Limit int
	// MaxLimit is the largest Limit the request could have asked for, as
	// Parse was given; 0 when unknown. A cursor carries its own limit, and
	// one over MaxLimit is refused, so that a lowered bound applies to the
	// cursors already handed out too.
	MaxLimit int
}

// DefaultLimitUnder is the limit of a request that sends none, where the
// largest is maxLimit: DefaultLimit, or maxLimit when that is smaller (0,
// no largest, leaves DefaultLimit).
func DefaultLimitUnder(maxLimit int) int {
	if maxLimit > 0 && maxLimit < DefaultLimit {
		return maxLimit
	}
	return DefaultLimit
}

// Offset returns the number of rows before the page: Limit * Page.
func (p Paging) Offset() int { return p.Limit * p.Page }

// Query is the built-in paging query (page and limit). A list
// route's query type embeds it to document page and limit next to its own
// filters; the values a handler uses are the ones in its Paging.
type Query struct {
	// Page is the 0-based page index.
	Page int `query:"page" doc:"page" format:"int32" default:"0" minimum:"0" paging:"page"`
	// Limit is the number of items per page.
	Limit int `query:"limit" doc:"items per page" format:"int32" default:"20" minimum:"1" paging:"limit"`
}

// FieldError reports a paging value that is not acceptable.
type FieldError struct {
	// Field is PageParam, LimitParam, CursorParam or SortParam.
	Field string
	// Message says what is wrong.
	Message string
}

// Error returns the field and the message.
func (e *FieldError) Error() string { return e.Field + ": " + e.Message }

// Parse parses raw page and limit values from a query string. An empty value
// takes its default (a limit DefaultLimitUnder(maxLimit)). Values must be base-10 integers with page >= 0 and
// 1 <= limit <= maxLimit; anything else is a *FieldError naming the field.
func Parse(page, limit []byte, maxLimit int) (Paging, error) {
	p := Paging{Page: DefaultPage, Limit: DefaultLimitUnder(maxLimit), MaxLimit: maxLimit}
	if len(page) > 0 {
		n, ok := parseInt(page)
		if !ok {
			return p, &FieldError{Field: PageParam, Message: notAnInt32}
		}
		if n < 0 {
			return p, &FieldError{Field: PageParam, Message: "must be 0 or greater"}
		}
		p.Page = n
	}
	if len(limit) > 0 {
		n, ok := parseInt(limit)
		if !ok {
			return p, &FieldError{Field: LimitParam, Message: notAnInt32}
		}
		if n < 1 {
			return p, &FieldError{Field: LimitParam, Message: "must be 1 or greater"}
		}
		if n > maxLimit {
			return p, &FieldError{Field: LimitParam, Message: fmt.Sprintf("must be %d or less", maxLimit)}
		}
		p.Limit = n
	}
	return p, nil
}

// notAnInt32 is what a page or limit that parseInt refuses is told, in the
// words of the router's integer parameters.
const notAnInt32 = "must be a base-10 integer, without + or leading zeros, that fits 32 bits"

// maxPage bounds the page index so that Limit*Page cannot overflow.
const maxPage = 1<<31 - 1

// parseInt accepts an optional minus followed by decimal digits only, with
// no leading zero (but 0 itself), so "0x10", "1e2", "1.5", " 1", "+1",
// "01" and "-0" are rejected, and values that do not fit an int32 are
// reported as unparsable.
func parseInt(b []byte) (int, bool) {
	s := b
	if s[0] == '-' {
		s = s[1:]
	}
	if len(s) == 0 || len(s) > 10 || (s[0] == '0' && len(b) > 1) {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(b), 10, 32)
	if err != nil || n > maxPage {
		return 0, false
	}
	return int(n), true
}
