package apiclient

import (
	"context"
	"fmt"
	"iter"
)

// StatusError is an answer other than the one a helper expected: its
// status and its body, a problem (application/problem+json) for every
// error the service answers.
type StatusError struct {
	Status int
	Body   []byte
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("status %d: %s", e.Status, e.Body)
}

// walk iterates the items of every page of a list that pages by cursor:
// fetch gets the page after cursor (nil for the first) and returns its
// items and the cursor of the next page, nil on the last. It stops at the
// first error, which it yields once, and when the caller stops ranging.
func walk[T any](ctx context.Context, fetch func(ctx context.Context, cursor *string) ([]T, *string, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var cursor *string
		for {
			items, next, err := fetch(ctx, cursor)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if next == nil || *next == "" {
				return
			}
			cursor = next
		}
	}
}
