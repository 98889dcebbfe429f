package paging

// Page is the flat paging response a list route returns. Data is never nil,
// so it is always a JSON array.
type Page[T any] struct {
	// Data holds the items of the current page.
	Data []T `json:"data" doc:"items of the current page" validate:"required"`
	// The examples below describe one coherent page: the first of three
	// pages of 20 out of 42 records.
	// Page is the current 0-based page index.
	Page int `json:"page" doc:"current page" format:"int32" example:"0" validate:"required"`
	// PageSize is the requested limit.
	PageSize int `json:"page_size" doc:"items per page" format:"int32" example:"20" validate:"required"`
	// MaxPage is ceil(total/limit) - 1, so -1 for an empty result.
	MaxPage int `json:"max_page" doc:"maximum page" format:"int32" example:"2" validate:"required"`
	// HasPrev is true when Page is not 0.
	HasPrev bool `json:"has_prev" doc:"previous possible" example:"false" validate:"required"`
	// HasNext is true when MaxPage is greater than Page.
	HasNext bool `json:"has_next" doc:"next possible" example:"true" validate:"required"`
	// TotalElements is the total number of records.
	TotalElements int `json:"total_elements" doc:"total record count" format:"int32" example:"42" validate:"required"`
}

// New builds the paging envelope of one page of items out of total records.
func New[T any](items []T, total int, p Paging) Page[T] {
	if items == nil {
		items = []T{}
	}
	maxPage := -1
	if p.Limit > 0 {
		maxPage = (total+p.Limit-1)/p.Limit - 1
	}
	return Page[T]{
		Data:          items,
		Page:          p.Page,
		PageSize:      p.Limit,
		MaxPage:       maxPage,
		HasPrev:       p.Page != 0,
		HasNext:       maxPage > p.Page,
		TotalElements: total,
	}
}

// Map converts every item of page with fn and keeps the envelope, the seed's
// pagingMap.
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
	}
}
