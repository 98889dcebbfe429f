package openapi_test

import (
	"encoding/json"
	"errors"
	"maps"
	"mime/multipart"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/openapi"
	"github.com/asapjs/fiber-template/platform/paging"
	"github.com/asapjs/fiber-template/platform/problem"
)

// operation adds rt to a registry with cfg and returns its path key and
// operation in the built document.
func operation(t *testing.T, cfg openapi.Config, rt openapi.Route) (string, *openapi.PathItem, *openapi.Operation) {
	t.Helper()
	reg := openapi.New(cfg)
	if _, _, err := reg.AddRoute(rt); err != nil {
		t.Fatalf("AddRoute: %v", err)
	}
	doc, err := reg.Document()
	if err != nil {
		t.Fatalf("Document: %v", err)
	}
	if len(doc.Paths) != 1 {
		t.Fatalf("got %d paths, want 1", len(doc.Paths))
	}
	for key, item := range doc.Paths {
		for _, op := range []*openapi.Operation{item.Get, item.Put, item.Post, item.Delete, item.Options, item.Head, item.Patch, item.Trace} {
			if op != nil {
				return key, item, op
			}
		}
	}
	t.Fatal("no operation in the document")
	return "", nil, nil
}

func TestOperationIDs(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		rt   openapi.Route
		want string
	}{
		{"a path parameter reads as By", openapi.Route{Method: "GET", Path: "/api/users/:id"}, "getApiUsersById"},
		{"the method comes first in lower case", openapi.Route{Method: "post", Path: "/api/users"}, "postApiUsers"},
		{"the root path is Root", openapi.Route{Method: "GET", Path: "/"}, "getRoot"},
		{"dashes and underscores start words", openapi.Route{Method: "GET", Path: "/api/user-profiles/:user_id"}, "getApiUserProfilesByUserId"},
		{"an explicit id is kept", openapi.Route{Method: "GET", Path: "/api/users", OperationID: "listUsers"}, "listUsers"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, _, op := operation(t, openapi.Config{}, tc.rt)
			if op.OperationID != tc.want {
				t.Errorf("operationId = %q, want %q", op.OperationID, tc.want)
			}
		})
	}
}

func TestPathKeys(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		server  string
		path    string
		want    string
		servers []openapi.Server
	}{
		{"a parameter becomes a template", "", "/api/users/:id", "/api/users/{id}", nil},
		{"the server base path is left out", "/api", "/api/users/:id", "/users/{id}", nil},
		{"the base path of an absolute server is left out", "https://api.example.com/api/", "/api/users", "/users", nil},
		{"the base path itself is the root", "/api", "/api", "/", nil},
		{"a path outside the base path gets the root server", "/api", "/health", "/health", []openapi.Server{{URL: "/"}}},
		{"a path outside an absolute base gets the origin", "https://api.example.com/api", "/health", "/health",
			[]openapi.Server{{URL: "https://api.example.com"}}},
		{"a prefix that is not a whole segment is outside", "/api", "/apix/users", "/apix/users", []openapi.Server{{URL: "/"}}},
		{"a trailing slash is dropped", "", "/users/", "/users", nil},
		{"parameters may share a segment", "", "/range/:from-:to", "/range/{from}-{to}", nil},
		{"an escaped colon is a literal", "", `/a\:b`, "/a:b", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			key, item, _ := operation(t, openapi.Config{ServerURL: tc.server}, openapi.Route{Method: "GET", Path: tc.path})
			if key != tc.want {
				t.Errorf("path key = %q, want %q", key, tc.want)
			}
			if !reflect.DeepEqual(item.Servers, tc.servers) {
				t.Errorf("servers = %v, want %v", item.Servers, tc.servers)
			}
		})
	}
}

type (
	idInput struct {
		ID int64 `path:"id"`
	}
	wrongPathInput struct {
		Name string `path:"name"`
	}
	twicePathInput struct {
		A int64 `path:"id"`
		B int64 `path:"id"`
	}
	structQueryInput struct {
		Filter Address `query:"filter"`
	}
	slicePathInput struct {
		IDs []int64 `path:"ids"`
	}
	bodyInput struct {
		Body CreateUser
	}
	sliceBodyInput struct {
		Body []string
	}
	// sortedInput is sortable by the keys K names.
	sortedInput[K paging.Sortable] struct {
		paging.Query
		paging.SortQuery[K]
	}
	// sortTwiceInput has a sort query field of its own beside SortQuery.
	sortTwiceInput struct {
		paging.SortQuery[goodKeys]
		Sort string `query:"sort"`
	}
	// looseSortInput has a sort field outside a SortQuery.
	looseSortInput struct {
		Sort []paging.SortKey `paging:"sort"`
	}
	goodKeys  struct{}
	badKeys   struct{}
	twiceKeys struct{}
	noKeys    struct{}
)

func (goodKeys) SortKeys() []string  { return []string{"name"} }
func (badKeys) SortKeys() []string   { return []string{"Name"} }
func (twiceKeys) SortKeys() []string { return []string{"name", "name"} }
func (noKeys) SortKeys() []string    { return nil }

func TestAddRouteRejects(t *testing.T) {
	t.Parallel()
	get := func(path string) openapi.Route { return openapi.Route{Method: "GET", Path: path} }
	cases := []struct {
		name  string
		first *openapi.Route
		rt    openapi.Route
		want  string
	}{
		{"a second route with one method and path", ptr(get("/users/:id")), get("/users/:id"), "duplicate route"},
		{"a path that differs only in parameter names", ptr(get("/users/:id")),
			openapi.Route{Method: "DELETE", Path: "/users/:name"}, "with other parameter names"},
		{"two routes deriving one operation id", ptr(get("/a-b")), get("/a_b"), `operation id "getAB" is already used by GET /a-b`},
		{"an explicit operation id used twice", ptr(openapi.Route{Method: "GET", Path: "/a", OperationID: "x"}),
			openapi.Route{Method: "GET", Path: "/b", OperationID: "x"}, `operation id "x" is already used`},
		{"an operation id that is not URL-safe", nil, openapi.Route{Method: "GET", Path: "/a", OperationID: "list users"}, "operation id"},
		{"a path field with no parameter in the path", nil,
			openapi.Route{Method: "GET", Path: "/users/:id", Input: reflect.TypeFor[wrongPathInput]()}, `path parameter :id has no field tagged path:"id"`},
		{"two fields for one path parameter", nil,
			openapi.Route{Method: "GET", Path: "/users/:id", Input: reflect.TypeFor[twicePathInput]()}, `fields A and B are both the path value "id"`},
		{"an optional parameter", nil, get("/users/:id?"), "optional parameter"},
		{"a parameter constraint, which binding would not enforce as documented", nil, get("/files/:id<int>"), "has a constraint"},
		{"a wildcard", nil, get("/files/*"), "wildcard"},
		{"a plus wildcard", nil, get("/files/+"), "wildcard"},
		{"a path not starting with a slash", nil, get("users"), "must start with '/'"},
		{"a method OpenAPI has no operation for", nil, openapi.Route{Method: "CONNECT", Path: "/x"}, "no OpenAPI operation"},
		{"a 204 with an output type", nil,
			openapi.Route{Method: "DELETE", Path: "/x", Status: 204, Output: reflect.TypeFor[User]()}, "status 204 has no content"},
		{"an error status as success", nil, openapi.Route{Method: "GET", Path: "/x", Status: 500}, "success status 500"},
		{"a declared error that is not an error", nil,
			openapi.Route{Method: "GET", Path: "/x", Errors: []*problem.Error{{Status: 302, Code: "moved"}}}, "want 4xx or 5xx"},
		{"an unknown body media type", nil,
			openapi.Route{Method: "POST", Path: "/x", Input: reflect.TypeFor[bodyInput](), BodyContentTypes: []string{"text/plain"}}, `"text/plain"`},
		{"a body media type listed twice", nil,
			openapi.Route{Method: "POST", Path: "/x", Input: reflect.TypeFor[bodyInput](), BodyContentTypes: []string{openapi.MediaJSON, openapi.MediaJSON}}, "listed twice"},
		{"body media types without a body", nil,
			openapi.Route{Method: "POST", Path: "/x/:id", Input: reflect.TypeFor[idInput](), BodyContentTypes: []string{openapi.MediaJSON}}, "no Body field"},
		{"a form body that is not a struct", nil,
			openapi.Route{Method: "POST", Path: "/x", Input: reflect.TypeFor[sliceBodyInput](), BodyContentTypes: []string{openapi.MediaForm}}, "must be a struct to be bound from a form"},
		{"a query parameter of a struct type", nil,
			openapi.Route{Method: "GET", Path: "/x", Input: reflect.TypeFor[structQueryInput]()}, `field Filter (query "filter"): type openapi_test.Address cannot be parsed from text`},
		{"a path parameter of a slice type", nil,
			openapi.Route{Method: "GET", Path: "/x/:ids", Input: reflect.TypeFor[slicePathInput]()}, `field IDs (path "ids"): type []int64 cannot be parsed from text`},
		{"an input that is not a struct", nil,
			openapi.Route{Method: "GET", Path: "/x", Input: reflect.TypeFor[string]()}, "is not a struct"},
		{"a sortable list that does not answer a page", nil,
			openapi.Route{Method: "GET", Path: "/x", Input: reflect.TypeFor[sortedInput[goodKeys]](), Output: reflect.TypeFor[User]()}, "only a GET that answers a page"},
		{"a sortable write", nil,
			openapi.Route{Method: "POST", Path: "/x", Input: reflect.TypeFor[sortedInput[goodKeys]](), Output: reflect.TypeFor[paging.Page[User]]()}, "only a GET that answers a page"},
		{"a sort key that is not a column name", nil,
			openapi.Route{Method: "GET", Path: "/x", Input: reflect.TypeFor[sortedInput[badKeys]](), Output: reflect.TypeFor[paging.Page[User]]()}, `sort key "Name"`},
		{"a sort key named twice", nil,
			openapi.Route{Method: "GET", Path: "/x", Input: reflect.TypeFor[sortedInput[twiceKeys]](), Output: reflect.TypeFor[paging.Page[User]]()}, `sort key "name" is declared twice`},
		{"a sort of no key", nil,
			openapi.Route{Method: "GET", Path: "/x", Input: reflect.TypeFor[sortedInput[noKeys]](), Output: reflect.TypeFor[paging.Page[User]]()}, "sortable by no key"},
		{"a query field named sort beside the sort", nil,
			openapi.Route{Method: "GET", Path: "/x", Input: reflect.TypeFor[sortTwiceInput](), Output: reflect.TypeFor[paging.Page[User]]()}, `both the query value "sort"`},
		{"a sort field outside a SortQuery", nil,
			openapi.Route{Method: "GET", Path: "/x", Input: reflect.TypeFor[looseSortInput](), Output: reflect.TypeFor[paging.Page[User]]()}, "the Sort of an embedded paging.SortQuery"},
		{"one path both inside and outside the base path", ptr(get("/api/health")), openapi.Route{Method: "POST", Path: "/health"},
			"both inside and outside"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			reg := openapi.New(openapi.Config{ServerURL: "/api"})
			if tc.first != nil {
				if _, _, err := reg.AddRoute(*tc.first); err != nil {
					t.Fatalf("first AddRoute: %v", err)
				}
			}
			_, _, err := reg.AddRoute(tc.rt)
			if err == nil {
				t.Fatal("AddRoute succeeded, want an error")
			}
			route := "route " + strings.ToUpper(tc.rt.Method) + " " + tc.rt.Path
			for _, w := range []string{route, tc.want} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestFailedRouteChangesNothing(t *testing.T) {
	t.Parallel()
	reg := openapi.New(openapi.Config{})
	_, _, err := reg.AddRoute(openapi.Route{
		Method: "POST", Path: "/users/:id", Tag: "users",
		Input: reflect.TypeFor[bodyInput](), Output: reflect.TypeFor[User](), Status: 204,
	})
	if err == nil {
		t.Fatal("AddRoute succeeded, want an error")
	}
	// The route's own types were reflected before the error; none stays.
	doc, err := reg.Document()
	if err != nil {
		t.Fatalf("Document: %v", err)
	}
	if len(doc.Paths) != 0 || len(doc.Tags) != 0 {
		t.Errorf("failed route left paths %v and tags %v", doc.Paths, doc.Tags)
	}
	if names := slices.Sorted(maps.Keys(doc.Components.Schemas)); len(names) != 0 {
		t.Errorf("failed route left components %v", names)
	}
}

func TestResponses(t *testing.T) {
	t.Parallel()
	notFound := problem.Declare(404, "user_not_found", "User not found")
	gone := problem.Declare(404, "user_deleted", "User deleted")
	bad := problem.Declare(400, "bad_cursor", "Bad cursor")
	cases := []struct {
		name string
		rt   openapi.Route
		want map[string]string // status -> description
	}{
		{"a public route without input answers 200 or 500",
			openapi.Route{Method: "GET", Path: "/x"},
			map[string]string{"200": "OK", "500": "Internal Server Error"}},
		{"a route behind auth may answer 401",
			openapi.Route{Method: "GET", Path: "/x", Auth: true},
			map[string]string{"200": "OK", "401": "Unauthorized", "500": "Internal Server Error"}},
		{"a route with input may answer 400",
			openapi.Route{Method: "GET", Path: "/x/:id", Input: reflect.TypeFor[idInput]()},
			map[string]string{"200": "OK", "400": "Bad Request: malformed input", "500": "Internal Server Error"}},
		{"a route with validate rules may answer 422 too",
			openapi.Route{Method: "GET", Path: "/x", Input: reflect.TypeFor[struct {
				Q string `query:"q" validate:"max=3"`
			}]()},
			map[string]string{"200": "OK", "400": "Bad Request: malformed input", "422": "Unprocessable Entity: validation failed", "500": "Internal Server Error"}},
		{"a route with a body may answer 413 and 415",
			openapi.Route{Method: "POST", Path: "/x", Input: reflect.TypeFor[struct {
				Body struct {
					Name string `json:"name"`
				}
			}]()},
			map[string]string{"200": "OK", "400": "Bad Request: malformed input", "413": "Content Too Large: the body is over the route's size limit (x-body-limit of the request body)", "415": "Unsupported Media Type: the body is not in one of the accepted media types, its charset is not UTF-8, or its Content-Encoding is not one the route accepts (x-content-encodings)", "422": "Unprocessable Entity: validation failed", "500": "Internal Server Error"}},
		{"a paged route may answer 400",
			openapi.Route{Method: "GET", Path: "/x", Input: reflect.TypeFor[paging.Query]()},
			map[string]string{"200": "OK", "400": "Bad Request: malformed input", "500": "Internal Server Error"}},
		{"a declared error joins the router's reason for its status",
			openapi.Route{Method: "GET", Path: "/x/:id", Input: reflect.TypeFor[idInput](), Errors: []*problem.Error{bad}},
			map[string]string{"200": "OK", "400": "Malformed input / Bad cursor", "500": "Internal Server Error"}},
		{"a declared error alone where the router does not answer its status",
			openapi.Route{Method: "GET", Path: "/x", Errors: []*problem.Error{bad}},
			map[string]string{"200": "OK", "400": "Bad cursor", "500": "Internal Server Error"}},
		{"errors of one status join their titles once each",
			openapi.Route{Method: "GET", Path: "/x", Errors: []*problem.Error{notFound, gone, notFound}},
			map[string]string{"200": "OK", "404": "User not found / User deleted", "500": "Internal Server Error"}},
		{"a created status is the success",
			openapi.Route{Method: "POST", Path: "/x", Status: 201, Output: reflect.TypeFor[User]()},
			map[string]string{"201": "Created", "500": "Internal Server Error"}},
		{"no content is the success",
			openapi.Route{Method: "DELETE", Path: "/x", Status: 204},
			map[string]string{"204": "No Content", "500": "Internal Server Error"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, _, op := operation(t, openapi.Config{}, tc.rt)
			got := map[string]string{}
			for status, resp := range op.Responses {
				got[status] = resp.Description
				if status[0] == '4' || status[0] == '5' {
					wantProblemExample(t, status, resp, tc.rt.Errors)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("responses = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSuccessContent(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		rt   openapi.Route
		want string
	}{
		{"an output is JSON content",
			openapi.Route{Method: "GET", Path: "/x", Output: reflect.TypeFor[User]()},
			`{"description":"OK","content":{"application/json":{"schema":{"$ref":"#/components/schemas/User"}}}}`},
		{"a pointer output is not nullable",
			openapi.Route{Method: "GET", Path: "/x", Output: reflect.TypeFor[*User]()},
			`{"description":"OK","content":{"application/json":{"schema":{"$ref":"#/components/schemas/User"}}}}`},
		{"a slice output is an array",
			openapi.Route{Method: "GET", Path: "/x", Output: reflect.TypeFor[[]User]()},
			`{"description":"OK","content":{"application/json":{"schema":{"type":"array","items":{"$ref":"#/components/schemas/User"}}}}}`},
		{"no output is a description only",
			openapi.Route{Method: "POST", Path: "/x", Status: 202},
			`{"description":"Accepted"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, _, op := operation(t, openapi.Config{}, tc.rt)
			for status, resp := range op.Responses {
				if status[0] == '2' {
					assertJSON(t, resp, tc.want)
				}
			}
		})
	}
}

func TestOperationFields(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		rt    openapi.Route
		check func(t *testing.T, op *openapi.Operation)
	}{
		{"a public route has an empty security list", openapi.Route{Method: "GET", Path: "/x"},
			func(t *testing.T, op *openapi.Operation) {
				if op.Security == nil || len(*op.Security) != 0 {
					t.Errorf("security = %v, want an empty list", op.Security)
				}
			}},
		{"a route behind auth inherits the document security", openapi.Route{Method: "GET", Path: "/x", Auth: true},
			func(t *testing.T, op *openapi.Operation) {
				if op.Security != nil {
					t.Errorf("security = %v, want none", *op.Security)
				}
			}},
		{"tag, summary, description and deprecation are carried over",
			openapi.Route{Method: "GET", Path: "/x", Tag: "t", Summary: "S", Description: "D", Deprecation: &openapi.Deprecation{Since: time.Unix(1e9, 0)}},
			func(t *testing.T, op *openapi.Operation) {
				if !slices.Equal(op.Tags, []string{"t"}) || op.Summary != "S" || op.Description != "D" || !op.Deprecated {
					t.Errorf("got tags %v, summary %q, description %q, deprecated %v", op.Tags, op.Summary, op.Description, op.Deprecated)
				}
			}},
		{"nothing is invented for a bare route", openapi.Route{Method: "GET", Path: "/x"},
			func(t *testing.T, op *openapi.Operation) {
				if op.Tags != nil || op.Summary != "" || op.Description != "" || op.Deprecated || op.Parameters != nil || op.RequestBody != nil {
					t.Errorf("bare route got %+v", op)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, _, op := operation(t, openapi.Config{}, tc.rt)
			tc.check(t, op)
		})
	}
}

type (
	filterInput struct {
		paging.Query
		Roles  []string `query:"role" validate:"dive,oneof=admin member"`
		Name   *string  `query:"name" doc:"Name to find" validate:"required,min=2"`
		Sort   string   `query:"sort" default:"name" validate:"omitempty,oneof=name age"`
		Ignore string   `query:"-"`
		Other  string
	}
	orderedPathInput struct {
		Item  string `path:"item" validate:"oneof=a b"`
		Owner int32  `path:"owner"`
		Rest  string `path:"rest"`
	}
)

func TestParameters(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		cfg  openapi.Config
		rt   openapi.Route
		want string
	}{
		{"query fields are parameters and paging limit is capped", openapi.Config{},
			openapi.Route{Method: "GET", Path: "/x", Input: reflect.TypeFor[filterInput]()},
			`[
			{"name":"page","in":"query","description":"page","schema":{"type":"integer","format":"int32","default":0,"minimum":0}},
			{"name":"limit","in":"query","description":"items per page","schema":{"type":"integer","format":"int32","default":20,"minimum":1,"maximum":100}},
			{"name":"role","in":"query","style":"form","explode":true,"schema":{"type":"array","items":{"type":"string","enum":["admin","member"]}}},
			{"name":"name","in":"query","description":"Name to find","required":true,"schema":{"type":"string","minLength":2}},
			{"name":"sort","in":"query","schema":{"type":"string","enum":["name","age"],"default":"name"}}
			]`},
		{"the configured page limit is the maximum", openapi.Config{MaxLimit: 50},
			openapi.Route{Method: "GET", Path: "/x", Input: reflect.TypeFor[paging.Query]()},
			`[
			{"name":"page","in":"query","description":"page","schema":{"type":"integer","format":"int32","default":0,"minimum":0}},
			{"name":"limit","in":"query","description":"items per page","schema":{"type":"integer","format":"int32","default":20,"minimum":1,"maximum":50}}
			]`},
		{"path parameters follow the path", openapi.Config{},
			openapi.Route{Method: "GET", Path: "/owners/:owner/items/:item/:rest", Input: reflect.TypeFor[orderedPathInput]()},
			`[
			{"name":"owner","in":"path","required":true,"schema":{"type":"integer","format":"int32"}},
			{"name":"item","in":"path","required":true,"schema":{"type":"string","enum":["a","b"]}},
			{"name":"rest","in":"path","required":true,"schema":{"type":"string"}}
			]`},
		{"a route without input still declares its path parameters", openapi.Config{},
			openapi.Route{Method: "GET", Path: "/users/:id"},
			`[{"name":"id","in":"path","required":true,"schema":{"type":"string"}}]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, _, op := operation(t, tc.cfg, tc.rt)
			assertJSON(t, op.Parameters, tc.want)
		})
	}
}

type (
	profileForm struct {
		Photo   *multipart.FileHeader   `form:"photo" validate:"required"`
		Extras  []*multipart.FileHeader `form:"extras"`
		Bio     string                  `json:"bio" doc:"About me"`
		Skipped string                  `form:"-"`
		Email   string
	}
	profileInput struct {
		ID   int64       `path:"id"`
		Body profileForm `doc:"The new profile"`
	}
	noteForm struct {
		Text string `json:"text" validate:"required"`
	}
	noteInput struct {
		ID   int64 `path:"id"`
		Body noteForm
	}
)

func TestRequestBody(t *testing.T) {
	t.Parallel()
	form := `{"type":"object","properties":{
		"photo":{"type":"string","format":"binary"},
		"extras":{"type":"array","items":{"type":"string","format":"binary"}},
		"bio":{"type":"string","description":"About me"},
		"Email":{"type":"string"}},"required":["photo"]}`
	cases := []struct {
		name string
		rt   openapi.Route
		want string
	}{
		{"a JSON body references its type",
			openapi.Route{Method: "POST", Path: "/x", Input: reflect.TypeFor[bodyInput]()},
			`{"required":true,"content":{"application/json":{"schema":{"$ref":"#/components/schemas/CreateUser"}}}}`},
		{"a multipart body is an inline object named by form tags",
			openapi.Route{Method: "PUT", Path: "/x/:id", Input: reflect.TypeFor[profileInput](), BodyContentTypes: []string{openapi.MediaMultipart}},
			`{"description":"The new profile","required":true,"content":{"multipart/form-data":{"schema":` + form + `}}}`},
		{"a body in several media types has each",
			openapi.Route{Method: "PUT", Path: "/x/:id", Input: reflect.TypeFor[noteInput](), BodyContentTypes: []string{openapi.MediaForm, openapi.MediaJSON}},
			`{"required":true,"content":{
				"application/x-www-form-urlencoded":{"schema":{"type":"object","properties":{"text":{"type":"string","minLength":1}},"required":["text"]}},
				"application/json":{"schema":{"$ref":"#/components/schemas/noteForm"}}}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, _, op := operation(t, openapi.Config{}, tc.rt)
			assertJSON(t, op.RequestBody, tc.want)
		})
	}
}

func TestAddRouteAfterBuild(t *testing.T) {
	t.Parallel()
	reg := openapi.New(openapi.Config{})
	if _, err := reg.JSON(); err != nil {
		t.Fatalf("JSON: %v", err)
	}
	_, _, err := reg.AddRoute(openapi.Route{Method: "GET", Path: "/late"})
	if !errors.Is(err, openapi.ErrBuilt) {
		t.Errorf("AddRoute after JSON = %v, want ErrBuilt", err)
	}
}

func ptr[T any](v T) *T { return &v }

// wantProblemExample checks that an error response is a Problem whose
// example agrees with its status: a declared error's code and title when
// the route declares one with that status, about:blank otherwise.
func wantProblemExample(t *testing.T, status string, resp *openapi.Response, declared []*problem.Error) {
	t.Helper()
	mt := resp.Content["application/problem+json"]
	if mt == nil || mt.Schema == nil || mt.Schema.Ref != "#/components/schemas/Problem" {
		t.Fatalf("%s: content %+v, want a Problem", status, resp.Content)
	}
	raw, err := json.Marshal(mt.Example)
	if err != nil {
		t.Fatal(err)
	}
	ex := &problem.Problem{}
	if err := json.Unmarshal(raw, ex); err != nil || mt.Example == nil {
		t.Fatalf("%s: example %s, want a problem: %v", status, raw, err)
	}
	if strconv.Itoa(ex.Status) != status || ex.Title == "" || ex.Detail == "" {
		t.Errorf("%s: example %+v does not carry the status, a title and a detail", status, ex)
	}
	for _, e := range declared {
		if strconv.Itoa(e.Status) == status {
			if ex.Code != e.Code || ex.Type != problem.TypeURI(e.Code) {
				t.Errorf("%s: example %+v, want the code %s declared first", status, ex, e.Code)
			}
			return
		}
	}
	if ex.Code != "" || ex.Type != "about:blank" {
		t.Errorf("%s: example %+v, want about:blank without a code", status, ex)
	}
}

func TestRetryAfterIsDocumented(t *testing.T) {
	t.Parallel()
	busy := problem.Declare(503, "busy", "Busy")
	limited := problem.Declare(429, "limited", "Limited")
	missing := problem.Declare(404, "missing", "Missing")
	_, _, op := operation(t, openapi.Config{}, openapi.Route{Method: "GET", Path: "/x", Errors: []*problem.Error{busy, limited, missing}})
	for status, want := range map[string]bool{"503": true, "429": true, "404": false, "500": false} {
		h := op.Responses[status].Headers["Retry-After"]
		if (h != nil) != want {
			t.Errorf("%s documents Retry-After: %v, want %v", status, h != nil, want)
		}
		if h != nil && (h.Schema == nil || h.Schema.Type != "integer") {
			t.Errorf("%s Retry-After schema %+v", status, h.Schema)
		}
	}
}

func TestResponseHeadersAreDocumented(t *testing.T) {
	t.Parallel()
	limited := problem.Declare(429, "limited", "Limited")
	_, _, op := operation(t, openapi.Config{}, openapi.Route{
		Method: "POST", Path: "/x", Auth: true, Errors: []*problem.Error{limited},
		Headers: map[string]string{"Pragma": "no-cache, for HTTP/1.0 caches"},
	})
	has := func(status, name string) bool {
		return op.Responses[status] != nil && op.Responses[status].Headers[name] != nil
	}
	if !has("200", "Pragma") || op.Responses["200"].Headers["Pragma"].Description != "no-cache, for HTTP/1.0 caches" {
		t.Errorf("the header the handler sets is not on the success: %v", op.Responses["200"].Headers)
	}
	if !has("401", "WWW-Authenticate") {
		t.Error("a 401 does not document WWW-Authenticate")
	}
	for status := range op.Responses {
		for _, name := range []string{"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} {
			if !has(status, name) {
				t.Errorf("%s of a limited route does not document %s", status, name)
			}
		}
	}
	if !has("429", "Retry-After") {
		t.Error("the 429 lost its Retry-After")
	}
	// A 401 a public route declares itself (a wrong password) is not a
	// challenge: no WWW-Authenticate.
	refused := problem.Declare(401, "invalid_credentials", "Invalid credentials")
	_, _, plain := operation(t, openapi.Config{}, openapi.Route{Method: "GET", Path: "/y", Errors: []*problem.Error{refused}})
	if plain.Responses["200"].Headers["RateLimit-Limit"] != nil {
		t.Error("a route that cannot answer 429 documents RateLimit-Limit")
	}
	if plain.Responses["401"].Headers["WWW-Authenticate"] != nil {
		t.Error("the declared 401 of a public route documents WWW-Authenticate")
	}
}
