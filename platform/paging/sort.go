package paging

import (
	"slices"
	"strings"
)

// SortKey is one key of a list's order: a column, ascending unless Desc.
type SortKey struct {
	// Column is the key's name, as the client sends it and as the
	// database knows the column.
	Column string
	// Desc orders from the largest value down.
	Desc bool
}

// String writes the key as a client sends it: the column, after a - when
// descending.
func (k SortKey) String() string {
	if k.Desc {
		return "-" + k.Column
	}
	return k.Column
}

// ParseSort reads a sort query value: keys separated by commas, each a
// column of allowed, after a - for a descending order, none twice. Anything
// else is a *FieldError naming SortParam. An empty value is no key.
func ParseSort(value string, allowed []string) ([]SortKey, error) {
	if value == "" {
		return nil, nil
	}
	parts := strings.Split(value, ",")
	if len(parts) > len(allowed) {
		return nil, &FieldError{Field: SortParam, Message: "names more keys than the list has; each of " + strings.Join(allowed, ", ") + " may appear once"}
	}
	keys := make([]SortKey, 0, len(parts))
	for _, part := range parts {
		k := SortKey{Column: part}
		if c, ok := strings.CutPrefix(part, "-"); ok {
			k = SortKey{Column: c, Desc: true}
		}
		if !slices.Contains(allowed, k.Column) {
			return nil, &FieldError{Field: SortParam, Message: "must be keys of " + strings.Join(allowed, ", ") + ", separated by commas, each after a - for a descending order"}
		}
		for _, prev := range keys {
			if prev.Column == k.Column {
				return nil, &FieldError{Field: SortParam, Message: "names " + k.Column + " twice"}
			}
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// Sortable is implemented by a type whose zero value names the keys a
// list may be sorted by (columns, in the order the document lists them):
// the K of a SortQuery.
type Sortable interface {
	// SortKeys returns the keys, in the order the document lists them.
	SortKeys() []string
}

// SortQuery is the sort query parameter of a list whose keys K names. A
// list route's input embeds it: the document gets a sort parameter of
// those keys (an array sent as one comma-separated value, each key at
// most once, after a - for a descending order), and the router fills
// Sort from the request, nil when none is sent; any other value is a 400
// naming SortParam. The handler passes Sort on to the database.
//
//	type BookKeys struct{}
//
//	func (BookKeys) SortKeys() []string { return []string{"created_at", "title"} }
//
//	type ListBooksInput struct {
//		paging.Query
//		paging.SortQuery[BookKeys]
//	}
type SortQuery[K Sortable] struct {
	// Sort is the order the client asked for, none when it sent no sort.
	Sort []SortKey `paging:"sort"`
}

// SortKeys returns the keys of K: those the list may be sorted by.
func (SortQuery[K]) SortKeys() []string {
	var k K
	return k.SortKeys()
}
