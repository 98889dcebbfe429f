package router_test

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/asapjs/fiber-template/platform/router"
	"github.com/asapjs/fiber-template/platform/servicetest"
)

type itemPath struct {
	ID   int64  `path:"id"`
	Slug string `path:"slug"`
}

type filterQuery struct {
	Q      string   `query:"q"`
	Count  int      `query:"count"`
	Ratio  float64  `query:"ratio"`
	Active *bool    `query:"active"`
	Role   string   `query:"role" validate:"omitempty,oneof=admin member guest"`
	Tags   []string `query:"tag"`
	IDs    []int    `query:"id"`
}

type createBody struct {
	Email string `json:"email" form:"email" validate:"required,email"`
	Name  string `json:"name" form:"name" validate:"required"`
	Age   int    `json:"age" form:"age" validate:"gte=0,lte=150"`
}

type createInput struct {
	Body createBody
}

type uploadInput struct {
	Body struct {
		Title string                `form:"title" validate:"required"`
		File  *multipart.FileHeader `form:"file"`
	}
}

type uploadOut struct {
	Title string `json:"title"`
	Name  string `json:"name"`
	Size  int64  `json:"size"`
	Data  string `json:"data"`
}

func bindRouter(t *testing.T) *router.Router {
	return newRouter(t, router.Config{Controllers: []router.Controller{router.Group{Path: "/b", Declared: []router.Route{
		router.Get("/items/:id/:slug", func(c *router.Ctx, in *itemPath) (*itemPath, error) { return in, nil }),
		router.Get("/filter", func(c *router.Ctx, in *filterQuery) (*filterQuery, error) { return in, nil }),
		router.Post("/create", func(c *router.Ctx, in *createInput) (*createBody, error) { return &in.Body, nil },
			router.Status(http.StatusCreated)),
		router.Post("/form", func(c *router.Ctx, in *createInput) (*createBody, error) { return &in.Body, nil },
			router.BodyContentType(router.MediaForm, router.MediaJSON)),
		router.Post("/upload", func(c *router.Ctx, in *uploadInput) (*uploadOut, error) {
			out := &uploadOut{Title: in.Body.Title}
			if f := in.Body.File; f != nil {
				rd, err := f.Open()
				if err != nil {
					return nil, err
				}
				defer rd.Close()
				b, _ := io.ReadAll(rd)
				out.Name, out.Size, out.Data = f.Filename, f.Size, string(b)
			}
			return out, nil
		}, router.BodyContentType(router.MediaMultipart)),
		router.Delete("/items/:id", func(c *router.Ctx, in *struct {
			ID int64 `path:"id"`
		}) (*router.NoContent, error) {
			return nil, nil
		}),
	}}}})
}

func TestPathParametersAreBoundIntoTypedFields(t *testing.T) {
	t.Parallel()
	r := bindRouter(t)
	resp, body := get(t, r, "/b/items/42/hello-world")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if got := decode[itemPath](t, body); got != (itemPath{ID: 42, Slug: "hello-world"}) {
		t.Fatalf("bound %+v", got)
	}
	for _, target := range []string{"/b/items/abc/x", "/b/items/1.5/x", "/b/items/99999999999999999999/x",
		"/b/items/+42/x", "/b/items/%2B42/x", "/b/items/042/x", "/b/items/-0/x"} {
		t.Run("an unparsable id in "+target+" is a 400 naming it", func(t *testing.T) {
			resp, body := get(t, r, target)
			wantField(t, wantProblem(t, resp, body, http.StatusBadRequest), "id")
		})
	}
}

func TestOneValueParametersAreSentOnce(t *testing.T) {
	t.Parallel()
	r := bindRouter(t)
	for _, query := range []string{"q=ann&q=bob", "count=1&count=1", "role=admin&q=x&role=guest"} {
		resp, body := get(t, r, "/b/filter?"+query)
		p := wantProblem(t, resp, body, http.StatusBadRequest)
		if len(p.Errors) != 1 || p.Errors[0].Message != "must be sent once" {
			t.Errorf("%s: %+v, want one field that must be sent once", query, p.Errors)
		}
	}
	// A list parameter repeats by design.
	if resp, body := get(t, r, "/b/filter?tag=a&tag=b"); resp.StatusCode != http.StatusOK {
		t.Errorf("tag twice: status %d: %s", resp.StatusCode, body)
	}
	resp, body := send(t, r, http.MethodPost, "/b/form", "application/x-www-form-urlencoded", "name=a&name=b")
	wantField(t, wantProblem(t, resp, body, http.StatusBadRequest), "name")
}

func TestBooleansAreTrueOrFalse(t *testing.T) {
	t.Parallel()
	r := bindRouter(t)
	for _, v := range []string{"1", "0", "t", "F", "TRUE", "True", "yes"} {
		resp, body := get(t, r, "/b/filter?active="+v)
		wantField(t, wantProblem(t, resp, body, http.StatusBadRequest), "active")
	}
	for v, want := range map[string]bool{"true": true, "false": false} {
		resp, body := get(t, r, "/b/filter?active="+v)
		if got := decode[filterQuery](t, body); resp.StatusCode != http.StatusOK || got.Active == nil || *got.Active != want {
			t.Errorf("active=%s: status %d, bound %v", v, resp.StatusCode, got.Active)
		}
	}
}

func TestQueryIsBoundByKind(t *testing.T) {
	t.Parallel()
	r := bindRouter(t)
	resp, body := get(t, r, "/b/filter?q=ann&count=3&ratio=0.5&active=false&role=admin&tag=a&tag=b&id=1&id=2")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	got := decode[filterQuery](t, body)
	if got.Q != "ann" || got.Count != 3 || got.Ratio != 0.5 || got.Active == nil || *got.Active || got.Role != "admin" ||
		len(got.Tags) != 2 || got.Tags[1] != "b" || len(got.IDs) != 2 || got.IDs[1] != 2 {
		t.Fatalf("bound %+v", got)
	}
	t.Run("absent values leave the zero value and a nil pointer", func(t *testing.T) {
		_, body := get(t, r, "/b/filter")
		if got := decode[filterQuery](t, body); got.Active != nil || got.Count != 0 || got.Tags != nil {
			t.Fatalf("bound %+v", got)
		}
	})
	bad := []struct{ name, query, field string }{
		{"a non-integer count", "?count=many", "count"},
		{"a non-boolean flag", "?active=maybe", "active"},
		{"a non-number ratio", "?ratio=half", "ratio"},
		{"a non-integer in a slice", "?id=1&id=x", "id"},
		// The document does not allow empty values, so an empty one is
		// refused, not taken for an absent one.
		{"an empty flag", "?active=", "active"},
		{"a flag without a value", "?active", "active"},
		{"an empty enum", "?role=", "role"},
		{"an empty string", "?q=", "q"},
		{"an empty item of a slice", "?tag=a&tag=", "tag"},
	}
	for _, tc := range bad {
		t.Run(tc.name+" is a 400 naming the field", func(t *testing.T) {
			resp, body := get(t, r, "/b/filter"+tc.query)
			wantField(t, wantProblem(t, resp, body, http.StatusBadRequest), tc.field)
		})
	}
	t.Run("a value outside an enum is a 422 naming the query name", func(t *testing.T) {
		resp, body := get(t, r, "/b/filter?role=root")
		wantField(t, wantProblem(t, resp, body, http.StatusUnprocessableEntity), "role")
	})
}

func TestJSONBodiesAreDecodedAndValidated(t *testing.T) {
	t.Parallel()
	r := bindRouter(t)
	t.Run("a valid body answers the declared 201", func(t *testing.T) {
		resp, body := send(t, r, http.MethodPost, "/b/create", "application/json", `{"email":"a@b.co","name":"Ann","age":30}`)
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
		if got := decode[createBody](t, body); got != (createBody{"a@b.co", "Ann", 30}) {
			t.Fatalf("bound %+v", got)
		}
	})
	cases := []struct {
		name, contentType, body string
		status                  int
		fields                  []string
	}{
		{"malformed JSON is a 400", "application/json", `{"email":`, 400, nil},
		{"a wrong JSON type is a 400 naming the field", "application/json", `{"email":"a@b.co","name":"A","age":"old"}`, 400, []string{"age"}},
		{"an empty body is a 400", "application/json", ``, 400, nil},
		{"a JSON array instead of an object is a 400", "application/json", `[1,2]`, 400, nil},
		{"validation failures are a 422 with JSON names", "application/json", `{"email":"nope","age":200}`, 422, []string{"email", "name", "age"}},
		{"an unsupported media type is a 415", "text/plain", `hello`, 415, nil},
		{"a form body on a JSON-only route is a 415", "application/x-www-form-urlencoded", `email=a@b.co`, 415, nil},
		// A Content-Type of parameters only names no media type.
		{"no media type and no body is a 400", ";charset=utf-8", ``, 400, nil},
		{"no media type with a body is a 415", ";charset=utf-8", `{"email":"a@b.co","name":"A"}`, 415, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := send(t, r, http.MethodPost, "/b/create", tc.contentType, tc.body)
			p := wantProblem(t, resp, body, tc.status)
			for _, f := range tc.fields {
				wantField(t, p, f)
			}
			if bytes.Contains(body, []byte("createBody")) || bytes.Contains(body, []byte("Body.")) {
				t.Fatalf("problem leaks Go names: %s", body)
			}
		})
	}
}

func TestFormAndMultipartBodies(t *testing.T) {
	t.Parallel()
	r := bindRouter(t)
	t.Run("a URL-encoded form binds by form name", func(t *testing.T) {
		resp, body := send(t, r, http.MethodPost, "/b/form", "application/x-www-form-urlencoded", "email=a%40b.co&name=Ann&age=7")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
		if got := decode[createBody](t, body); got != (createBody{"a@b.co", "Ann", 7}) {
			t.Fatalf("bound %+v", got)
		}
	})
	t.Run("the same route still takes JSON", func(t *testing.T) {
		resp, body := send(t, r, http.MethodPost, "/b/form", "application/json", `{"email":"a@b.co","name":"Ann"}`)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
	})
	t.Run("an unparsable form value is a 400", func(t *testing.T) {
		resp, body := send(t, r, http.MethodPost, "/b/form", "application/x-www-form-urlencoded", "email=a%40b.co&name=Ann&age=x")
		wantField(t, wantProblem(t, resp, body, http.StatusBadRequest), "age")
	})
	t.Run("a multipart body carries fields and a file", func(t *testing.T) {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		_ = w.WriteField("title", "report")
		fw, _ := w.CreateFormFile("file", "r.txt")
		_, _ = fw.Write([]byte("hello file"))
		_ = w.Close()
		req := httptest.NewRequest(http.MethodPost, "/b/upload", &buf)
		req.Header.Set("Content-Type", w.FormDataContentType())
		resp, body := do(t, r, req)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d: %s", resp.StatusCode, body)
		}
		if got := decode[uploadOut](t, body); got != (uploadOut{"report", "r.txt", 10, "hello file"}) {
			t.Fatalf("bound %+v", got)
		}
	})
	t.Run("a multipart body missing a required field is a 422", func(t *testing.T) {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		_ = w.WriteField("other", "x")
		_ = w.Close()
		req := httptest.NewRequest(http.MethodPost, "/b/upload", &buf)
		req.Header.Set("Content-Type", w.FormDataContentType())
		resp, body := do(t, r, req)
		wantField(t, wantProblem(t, resp, body, http.StatusUnprocessableEntity), "title")
	})
	t.Run("a large multipart body streams in over a connection; sent in chunks it is a 411", func(t *testing.T) {
		base := listen(t, r)
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		_ = w.WriteField("title", "big")
		fw, _ := w.CreateFormFile("file", "big.bin")
		_, _ = fw.Write(bytes.Repeat([]byte("z"), 3<<20))
		_ = w.Close()
		for _, length := range []int64{int64(buf.Len()), -1} {
			req, err := http.NewRequest(http.MethodPost, base+"/b/upload", io.MultiReader(bytes.NewReader(buf.Bytes())))
			if err != nil {
				t.Fatal(err)
			}
			req.ContentLength = length // -1: chunked
			req.Header.Set("Content-Type", w.FormDataContentType())
			res := servicetest.Fetch(t, req)
			if length < 0 {
				wantProblem(t, &http.Response{StatusCode: res.Status, Header: res.Header}, res.Body, http.StatusLengthRequired)
				continue
			}
			if res.Status != http.StatusOK {
				t.Fatalf("status %d: %s", res.Status, res.Body)
			}
			if got := decode[uploadOut](t, res.Body); got.Title != "big" || got.Size != 3<<20 {
				t.Fatalf("bound %+v", got)
			}
		}
	})
	t.Run("an empty multipart body of declared length is a 400, not a 411", func(t *testing.T) {
		req := httptest.NewRequest(http.MethodPost, "/b/upload", strings.NewReader(""))
		req.Header.Set("Content-Type", "multipart/form-data; boundary=xyz")
		resp, body := do(t, r, req)
		if p := wantProblem(t, resp, body, http.StatusBadRequest); p.Detail != "The multipart body could not be parsed." {
			t.Fatalf("detail %q, want the body's parse failure", p.Detail)
		}
	})
	t.Run("a broken multipart body is a 400", func(t *testing.T) {
		// fasthttp parses multipart bodies while reading the request, so
		// this goes over a real connection rather than app.Test.
		resp, body := sendOverTCP(t, listen(t, r), http.MethodPost, "/b/upload", "multipart/form-data; boundary=xyz", "not multipart")
		wantProblem(t, resp, body, http.StatusBadRequest)
	})
}

func TestNoContentRoutesAnswer204WithoutABody(t *testing.T) {
	t.Parallel()
	r := bindRouter(t)
	resp, body := send(t, r, http.MethodDelete, "/b/items/9", "", "")
	if resp.StatusCode != http.StatusNoContent || len(body) != 0 {
		t.Fatalf("status %d body %q, want 204 and no body", resp.StatusCode, body)
	}
}

type kindsQuery struct {
	I8  int8     `query:"i8"`
	I16 int16    `query:"i16"`
	I32 int32    `query:"i32"`
	U   uint     `query:"u"`
	U8  uint8    `query:"u8"`
	U16 uint16   `query:"u16"`
	U32 uint32   `query:"u32"`
	U64 uint64   `query:"u64"`
	F32 float32  `query:"f32"`
	PI  *int     `query:"pi"`
	PS  *string  `query:"ps"`
	TS  []string `query:"ts"`
}

func TestEveryScalarKindIsBoundAndRangeChecked(t *testing.T) {
	t.Parallel()
	r := newRouter(t, router.Config{Controllers: []router.Controller{router.Group{Path: "/k", Declared: []router.Route{
		router.Get("/", func(c *router.Ctx, in *kindsQuery) (*kindsQuery, error) { return in, nil }),
	}}}})
	resp, body := get(t, r, "/k?i8=-128&i16=32767&i32=-5&u=7&u8=255&u16=65535&u32=4000000000&u64=18446744073709551615&f32=1.5&pi=-3&ps=hi&ts=a&ts=b")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	got := decode[kindsQuery](t, body)
	if got.I8 != -128 || got.I16 != 32767 || got.I32 != -5 || got.U != 7 || got.U8 != 255 || got.U16 != 65535 ||
		got.U32 != 4000000000 || got.U64 != 18446744073709551615 || got.F32 != 1.5 || got.PI == nil || *got.PI != -3 ||
		got.PS == nil || *got.PS != "hi" || len(got.TS) != 2 {
		t.Fatalf("bound %+v", got)
	}
	for _, q := range []string{"i8=128", "i16=-32769", "i32=2147483648", "u=-1", "u8=256", "u16=65536", "u32=4294967296", "u64=18446744073709551616", "f32=x", "pi=1.0"} {
		t.Run(q+" is a 400 naming the field", func(t *testing.T) {
			field, _, _ := strings.Cut(q, "=")
			resp, body := get(t, r, "/k?"+q)
			wantField(t, wantProblem(t, resp, body, http.StatusBadRequest), field)
		})
	}
}

type widths struct {
	I64 int64 `json:"i64"`
	I32 int32 `json:"i32"`
}

func TestJSONIntegersAreReadToTheirLastDigit(t *testing.T) {
	t.Parallel()
	r := newRouter(t, router.Config{Controllers: []router.Controller{router.Group{Path: "/w", Declared: []router.Route{
		router.Post("/", func(c *router.Ctx, in *struct{ Body widths }) (*widths, error) { return &in.Body, nil }),
	}}}})
	for _, tc := range []struct {
		body    string
		want    widths // when status is 200
		status  int
		message string // of the field's error otherwise
	}{
		{`{"i64":9223372036854775807,"i32":2147483647}`, widths{math.MaxInt64, math.MaxInt32}, 200, ""},
		{`{"i64":-9223372036854775808,"i32":-2147483648}`, widths{math.MinInt64, math.MinInt32}, 200, ""},
		{`{"i64":9223372036854775296,"i32":0}`, widths{9223372036854775296, 0}, 200, ""},
		{`{"i64":9223372036854775808,"i32":0}`, widths{}, 400, "must fit in 64 bits"},
		{`{"i64":-9223372036854775809,"i32":0}`, widths{}, 400, "must fit in 64 bits"},
		{`{"i64":0,"i32":2147483648}`, widths{}, 400, "must fit in 32 bits"},
		{`{"i64":1.0,"i32":0}`, widths{}, 400, "must be an integer"},
		{`{"i64":1e2,"i32":0}`, widths{}, 400, "must be an integer"},
	} {
		t.Run(tc.body, func(t *testing.T) {
			resp, body := send(t, r, http.MethodPost, "/w", "application/json", tc.body)
			if tc.status == http.StatusOK {
				if resp.StatusCode != http.StatusOK || decode[widths](t, body) != tc.want {
					t.Fatalf("status %d %s, want 200 with %+v", resp.StatusCode, body, tc.want)
				}
				return
			}
			p := wantProblem(t, resp, body, tc.status)
			if len(p.Errors) != 1 || p.Errors[0].Message != tc.message {
				t.Errorf("errors %+v, want one: %s", p.Errors, tc.message)
			}
		})
	}
}

func TestDateTimesAreCheckedAsTheyAreDecoded(t *testing.T) {
	t.Parallel()
	type stamp struct {
		At time.Time `json:"at"`
	}
	r := newRouter(t, router.Config{Controllers: []router.Controller{router.Group{Path: "/t", Declared: []router.Route{
		router.Post("", func(c *router.Ctx, in *struct{ Body stamp }) (*stamp, error) { return &in.Body, nil }),
	}}}})
	resp, body := send(t, r, http.MethodPost, "/t", "application/json", `{"at":"2024-05-01T14:00:00+02:00"}`)
	if resp.StatusCode != http.StatusOK || !decode[stamp](t, body).At.Equal(time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)) {
		t.Fatalf("status %d %s, want 200 with the instant", resp.StatusCode, body)
	}
	for _, tc := range []struct{ at, message string }{
		{"2024-05-01T12:00:00+24:00", "must be a date-time as in RFC 3339"},
		{"2024-05-01 12:00:00Z", "must be a date-time as in RFC 3339"},
		{"2024-13-01T12:00:00Z", "must be a date-time as in RFC 3339"},
		{"yesterday", "must be a date-time as in RFC 3339"},
		// Longer than the body limits count a date-time: its fraction
		// running on.
		{"2024-05-01T12:00:00." + strings.Repeat("1", 5000) + "Z", "must be a date-time as in RFC 3339, at most 64 characters"},
		// Instants RFC 3339 cannot write in UTC, nor PostgreSQL store.
		{"0000-12-31T23:59:59Z", "must be an instant from year 0001 to 9999 in UTC"},
		{"0001-01-01T00:30:00+01:00", "must be an instant from year 0001 to 9999 in UTC"},
		{"9999-12-31T23:00:00-05:00", "must be an instant from year 0001 to 9999 in UTC"},
	} {
		t.Run(tc.at+" is a 422", func(t *testing.T) {
			resp, body := send(t, r, http.MethodPost, "/t", "application/json", `{"at":"`+tc.at+`"}`)
			p := wantProblem(t, resp, body, http.StatusUnprocessableEntity)
			if len(p.Errors) != 1 || p.Errors[0].Field != "at" || p.Errors[0].Message != tc.message {
				t.Errorf("errors %+v, want at: %s", p.Errors, tc.message)
			}
		})
	}
	for _, at := range []string{"0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999Z", "0001-01-01T00:30:00-01:00"} {
		if resp, body := send(t, r, http.MethodPost, "/t", "application/json", `{"at":"`+at+`"}`); resp.StatusCode != http.StatusOK {
			t.Errorf("%s: status %d %s, want 200", at, resp.StatusCode, body)
		}
	}
}

// lineItems is a body with a list of objects.
type lineItems struct {
	Body struct {
		Items []struct {
			Qty int `json:"qty"`
		} `json:"items"`
	}
}

// TestAMemberTwiceIsNamedWhereItIs sends a member twice in an object of a
// list: the 400 names it by its place, "items[9].qty", as the document's
// other answers name fields.
func TestAMemberTwiceIsNamedWhereItIs(t *testing.T) {
	t.Parallel()
	r := newRouter(t, router.Config{Controllers: []router.Controller{router.Group{Path: "/orders", Declared: []router.Route{
		router.Post("/", func(c *router.Ctx, in *lineItems) (*router.NoContent, error) { return nil, nil }),
	}}}})
	for _, at := range []int{0, 9, 10} {
		body := `{"items":[` + strings.Repeat(`{"qty":1},`, at) + `{"qty":1,"qty":2}]}`
		resp, got := send(t, r, http.MethodPost, "/orders", "application/json", body)
		p := wantProblem(t, resp, got, http.StatusBadRequest)
		want := fmt.Sprintf("items[%d].qty", at)
		if len(p.Errors) != 1 || p.Errors[0].Field != want || p.Errors[0].Message != "appears more than once" {
			t.Errorf("a member twice in item %d: errors %+v, want %s appearing more than once", at, p.Errors, want)
		}
	}
}
