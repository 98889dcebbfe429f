package paging

// Page is the flat paging response a list route returns. Data is never nil,
// so it is always a JSON array.
type Page[T any] struct {
	// Data holds the items of the current page.
	Data []T `json:"data" doc:"items of the current page" validate:"required"`
	// The examples below describe one coherent page: the first of three
	// pages of 20 out of 42 records, counted exactly, with a cursor to the
	// second.
	// Page is the current 0-based page index.
	Page int `json:"page" doc:"current page" format:"int32" example:"0" validate:"required"`
	// PageSize is the requested limit.
	PageSize int `json:"page_size" doc:"items per page" format:"int32" example:"20" validate:"required"`
	// MaxPage is ceil(total/limit) - 1, so -1 for an empty result.
	MaxPage int `json:"max_page" doc:"index of the last page (pages count from 0), -1 when the list is empty; exact when total_exact is true" format:"int32" example:"2" validate:"required"`
	// HasPrev is true when Page is not 0.
	HasPrev bool `json:"has_prev" doc:"previous possible" example:"false" validate:"required"`
	// HasNext is true when a record follows the page. It is always exact:
	// the list fetches one record past the page to know.
	HasNext bool `json:"has_next" doc:"next possible; always exact, whatever total_exact says" example:"true" validate:"required"`
	// TotalElements is the total number of records, exact when TotalExact
	// is true.
	TotalElements int `json:"total_elements" doc:"total record count; exact when total_exact is true" format:"int32" example:"42" validate:"required"`
	// TotalExact is true when TotalElements and MaxPage are exact, and
	// false when they are the database planner's estimate or a lower bound
	// (a table too large to count within the time budget).
	TotalExact bool `json:"total_exact" doc:"true when total_elements and max_page are exact; false when they are an estimate or a lower bound" example:"true" validate:"required"`
	// NextCursor is the opaque cursor of the next page, on list routes
	// that take one; empty, and left out of the JSON, on the last page.
	NextCursor string `json:"next_cursor,omitempty" doc:"opaque cursor of the next page: send it as cursor to get page + 1 without an offset; absent on the last page" example:"eyJwIjowLCJsIjoyMCwiZiI6Ikx0N1ZJUnZRRGRNIiwiYSI6WyJpOjIwIl19.hQK9bOAdEkqOrA4pSWJt2Q"`
}

// New builds the paging envelope of one page of items out of total records,
// an exact count.
func New[T any](items []T, total int, p Paging) Page[T] {
	maxPage := maxPageOf(total, p.Limit)
	return Of(items, p, Result{HasNext: maxPage > p.Page, Total: total, TotalExact: true})
}

// Result is what a list knows beyond the items of a page.
type Result struct {
	// HasNext is true when a record follows the page.
	HasNext bool
	// Total is the number of records the list selects.
	Total int
	// TotalExact is false when Total is an estimate or a lower bound.
	TotalExact bool
	// NextCursor is the cursor of the next page, or empty.
	NextCursor string
}

// Of builds the paging envelope of one page of items from what the list
// knows. HasNext is taken as is; MaxPage comes from the total but is kept
// consistent with HasNext: at least Page+1 when a record follows, and Page
// itself on a last page that has items.
func Of[T any](items []T, p Paging, r Result) Page[T] {
	if items == nil {
		items = []T{}
	}
	maxPage := maxPageOf(r.Total, p.Limit)
	switch {
	case r.HasNext && maxPage <= p.Page:
		maxPage = p.Page + 1
	case !r.HasNext && len(items) > 0:
		maxPage = p.Page
	}
	return Page[T]{
		Data:          items,
		Page:          p.Page,
		PageSize:      p.Limit,
		MaxPage:       maxPage,
		HasPrev:       p.Page != 0,
		HasNext:       r.HasNext,
		TotalElements: r.Total,
		TotalExact:    r.TotalExact,
		NextCursor:    r.NextCursor,
	}
}

// maxPageOf is ceil(total/limit) - 1: -1 for an empty result.
func maxPageOf(total, limit int) int {
	if limit <= 0 {
		return -1
	}
	return (total+limit-1)/limit - 1
}

// Map converts every item of page with fn and keeps the envelope: a page of
// models becomes a page of DTOs.
func Map[T, U any](page Page[T], fn func(T) U) Page[U] {
	out := make([]U, len(page.Data))
	for i, v := range page.Data {
		out[i] = fn(v)
	}
	return Page[U]{
		Data:          out,
		Page:          page.Page,
		PageSize:      page.PageSize,
		MaxPage:       page.MaxPage,
		HasPrev:       page.HasPrev,
		HasNext:       page.HasNext,
		TotalElements: page.TotalElements,
		TotalExact:    page.TotalExact,
		NextCursor:    page.NextCursor,
	}
}

// Links is what a page tells of its neighbours, for a Link header.
type Links struct {
	// Page and Limit are the page's position.
	Page, Limit int
	// HasNext reports a record after the page.
	HasNext bool
	// NextCursor is the cursor of the next page on lists that issue one.
	NextCursor string
}

// Linked is implemented by a list answer (*Page): a router sends it with a
// Link header, and its document declares the header.
type Linked interface {
	// Links returns what the answer tells of its neighbours.
	Links() Links
}

// Links returns what the page tells of its neighbours.
func (p *Page[T]) Links() Links {
	return Links{Page: p.Page, Limit: p.PageSize, HasNext: p.HasNext, NextCursor: p.NextCursor}
}
