package openapi_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/paging"
)

// cursorList is the input of a list that pages by cursor.
type cursorList struct {
	paging.Query
	paging.CursorQuery
}

func TestPaginationExtension(t *testing.T) {
	t.Parallel()
	page := reflect.TypeFor[paging.Page[int]]()
	cases := []struct {
		name string
		rt   openapi.Route
		want *openapi.Pagination
	}{
		{"a page by cursor names the cursor and the members", openapi.Route{Method: "GET", Path: "/x", Input: reflect.TypeFor[cursorList](), Output: page},
			&openapi.Pagination{CursorParam: "cursor", NextField: "next_cursor", ItemsField: "data"}},
		{"a page without a cursor has none", openapi.Route{Method: "GET", Path: "/x", Input: reflect.TypeFor[paging.Query](), Output: page}, nil},
		{"a cursor without a page has none", openapi.Route{Method: "GET", Path: "/x", Input: reflect.TypeFor[cursorList](), Output: reflect.TypeFor[struct{ N int }]()}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, _, op := operation(t, openapi.Config{}, tc.rt)
			if !reflect.DeepEqual(op.Pagination, tc.want) {
				t.Errorf("x-pagination = %+v, want %+v", op.Pagination, tc.want)
			}
		})
	}
}

// TestPaginationNamesTheWire keeps the extension's names those a client
// really meets: the members a page marshals to and the query parameter of
// the cursor.
func TestPaginationNamesTheWire(t *testing.T) {
	t.Parallel()
	_, _, op := operation(t, openapi.Config{}, openapi.Route{Method: "GET", Path: "/x",
		Input: reflect.TypeFor[cursorList](), Output: reflect.TypeFor[paging.Page[int]]()})
	b, err := json.Marshal(paging.Page[int]{Data: []int{1}, NextCursor: "c"})
	if err != nil {
		t.Fatal(err)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(b, &members); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{op.Pagination.NextField, op.Pagination.ItemsField} {
		if _, ok := members[name]; !ok {
			t.Errorf("a page marshals no member %q: %s", name, b)
		}
	}
	f, _ := reflect.TypeFor[paging.CursorQuery]().FieldByName("Cursor")
	if got := f.Tag.Get("query"); got != op.Pagination.CursorParam {
		t.Errorf("paging.CursorQuery binds %q, the extension names %q", got, op.Pagination.CursorParam)
	}
}
