package dbscale

import (
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"

	"github.com/asapjs/fiber-template/platform/paging"
)

// limit is the page size of every scenario.
const limit = 20

// scenario is one list request, as the service gets it and as raw SQL
// serves it.
type scenario struct {
	name string
	// role and q filter as the list does; empty does not filter.
	role, q string
	// sort is the sort parameter: empty for id order, or -created_at.
	sort string
	// page is the page index; by cursor, the page after the cursor's.
	page int
	// cursor is the service's cursor of the page before, for byCursor.
	cursor   string
	byCursor bool
	// walk, for the walk by cursor, makes each request's cursor.
	walk *walk
}

// walk makes the cursors of clients walking the list from everywhere:
// each request's is the deep page's cursor with the keys of another row,
// drawn at random, so that nearly every request is one the database has
// not seen before, as the pages of a walk are, rather than one cursor
// replayed.
type walk struct {
	cursors *paging.Cursors
	// at is the deep page's cursor, read; rows is the table's size.
	at   paging.Position
	rows int
}

// step is the scenario with the walk's next cursor; s itself when it
// does not walk.
func (s scenario) step() (scenario, error) {
	if s.walk == nil {
		return s, nil
	}
	pos := s.walk.at
	pos.After = []any{int64(1 + rand.IntN(s.walk.rows-limit))}
	var err error
	s.cursor, err = s.walk.cursors.Encode(pos)
	return s, err
}

// path is the request the service gets.
func (s scenario) path() string {
	v := url.Values{}
	if s.byCursor {
		v.Set("cursor", s.cursor)
	} else {
		v.Set("page", strconv.Itoa(s.page))
		v.Set("limit", strconv.Itoa(limit))
	}
	if s.role != "" {
		v.Set("role", s.role)
	}
	if s.q != "" {
		v.Set("q", s.q)
	}
	if s.sort != "" {
		v.Set("sort", s.sort)
	}
	return "/api/users?" + v.Encode()
}

// scenarioOf reads the scenario of a request from its query parameters,
// as path writes them: what a raw HTTP handler parses.
func scenarioOf(query func(key string) string) (scenario, error) {
	s := scenario{role: query("role"), q: query("q"), sort: query("sort"), cursor: query("cursor")}
	s.byCursor = s.cursor != ""
	if s.byCursor {
		return s, nil
	}
	var err error
	if s.page, err = strconv.Atoi(query("page")); err != nil || s.page < 0 {
		return s, fmt.Errorf("page %q", query("page"))
	}
	if l := query("limit"); l != strconv.Itoa(limit) {
		return s, fmt.Errorf("limit %q: the raw lists page by %d", l, limit)
	}
	return s, nil
}

// deepPage is the page index of the deep scenarios: 25,000 where the table
// has it (1M rows), half way through smaller tables.
func deepPage(rows int) int {
	return min(25_000, rows/limit/2)
}

// scenarios are the list requests measured at each size; the cursor
// scenarios are completed once the service gave their cursors.
func scenarios(rows int) []scenario {
	deep := deepPage(rows)
	return []scenario{
		{name: "page 0"},
		{name: "role=admin", role: "admin"},
		{name: "q=smith", q: "smith"},
		{name: "deep, offset", page: deep},
		{name: "deep, cursor", page: deep, byCursor: true},
		{name: "deep, cursor, -created_at", page: deep, byCursor: true, sort: "-created_at"},
		{name: "walk, cursor", page: deep, byCursor: true, walk: &walk{rows: rows}},
	}
}
