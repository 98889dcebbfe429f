package router_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/asapjs/fiber-template/platform/router"
)

// profile is a patch target with a nullable member and a nested object.
type profile struct {
	Name    string   `json:"name" validate:"required,max=20"`
	Bio     *string  `json:"bio"`
	Address *address `json:"address"`
	Tags    []string `json:"tags" validate:"max=3"`
}

type address struct {
	City string `json:"city" validate:"required"`
	Zip  string `json:"zip,omitempty"`
}

type patchProfile struct {
	Body router.MergePatch[profile]
}

// profileRouter serves one profile that PATCH /profile changes.
func profileRouter(t *testing.T) *router.Router {
	var (
		mu  sync.Mutex
		bio = "first"
		rec = profile{Name: "Ada", Bio: &bio, Address: &address{City: "London", Zip: "N1"}, Tags: []string{"math"}}
	)
	return newRouter(t, router.Config{Controllers: []router.Controller{router.Group{Path: "/profile", Declared: []router.Route{
		router.Patch("/", func(c *router.Ctx, in *patchProfile) (*profile, error) {
			mu.Lock()
			defer mu.Unlock()
			next := rec
			if err := in.Body.Apply(&next); err != nil {
				return nil, err
			}
			rec = next
			return &rec, nil
		}),
	}}}})
}

func TestMergePatchFollowsRFC7396(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, patch string
		status      int
		// want is the profile after the patch, or the fields of the problem.
		want string
	}{
		{"a member left out stays", `{"name":"Grace"}`, 200, `{"name":"Grace","bio":"first","address":{"city":"London","zip":"N1"},"tags":["math"]}`},
		{"null removes a nullable member", `{"bio":null}`, 200, `{"name":"Grace","bio":null,"address":{"city":"London","zip":"N1"},"tags":["math"]}`},
		{"an object merges member by member", `{"address":{"zip":null}}`, 200, `{"name":"Grace","bio":null,"address":{"city":"London"},"tags":["math"]}`},
		{"an array replaces", `{"tags":["a","b"]}`, 200, `{"name":"Grace","bio":null,"address":{"city":"London"},"tags":["a","b"]}`},
		{"an empty patch changes nothing", `{}`, 200, `{"name":"Grace","bio":null,"address":{"city":"London"},"tags":["a","b"]}`},
		{"null on a member that is not nullable", `{"name":null}`, 422, `name`},
		{"the result breaks the target's rules", `{"name":"` + strings.Repeat("x", 21) + `","tags":["a","b","c","d"]}`, 422, `name tags`},
		{"a nested member the result needs is removed", `{"address":{"city":null}}`, 422, `address.city`},
		{"an unknown member", `{"nick":"A"}`, 400, `nick`},
		{"a value of the wrong type", `{"tags":"a"}`, 400, `tags`},
	}
	r := profileRouter(t)
	for _, tc := range cases {
		// In order: each case patches what the one before left.
		res, body := send(t, r, http.MethodPatch, "/profile", router.MediaMergePatch, tc.patch)
		if res.StatusCode != tc.status {
			t.Fatalf("%s: status %d, want %d; body %s", tc.name, res.StatusCode, tc.status, body)
		}
		if tc.status == http.StatusOK {
			if !jsonEqual(t, body, []byte(tc.want)) {
				t.Errorf("%s: got %s, want %s", tc.name, body, tc.want)
			}
			continue
		}
		var p struct{ Errors []struct{ Field string } }
		if err := json.Unmarshal(body, &p); err != nil {
			t.Fatal(err)
		}
		var fields []string
		for _, e := range p.Errors {
			fields = append(fields, e.Field)
		}
		if strings.Join(fields, " ") != tc.want {
			t.Errorf("%s: problem names %v, want %s; body %s", tc.name, fields, tc.want, body)
		}
	}
}

func TestMergePatchIsDocumentedWithItsOwnSchema(t *testing.T) {
	t.Parallel()
	r := profileRouter(t)
	_, body := get(t, r, "/docs/spec.json")
	doc := loadSpec(t, body)
	rb := doc.Paths.Find("/profile").Patch.RequestBody.Value
	mt := rb.Content.Get(router.MediaMergePatch)
	if mt == nil || len(rb.Content) != 1 || mt.Schema.Ref != "#/components/schemas/profilePatch" {
		t.Fatalf("PATCH /profile body: %+v, want only %s with the schema profilePatch", rb.Content, router.MediaMergePatch)
	}
	s := doc.Components.Schemas["profilePatch"].Value
	if len(s.Required) != 0 || !s.Properties["bio"].Value.Nullable || s.Properties["name"].Value.Nullable || s.Properties["address"].Value.Type.Is("object") != true {
		t.Errorf("profilePatch: required %v, bio nullable %v, name nullable %v; want no required member, null only where the target allows it",
			s.Required, s.Properties["bio"].Value.Nullable, s.Properties["name"].Value.Nullable)
	}
	res, _ := send(t, r, http.MethodPatch, "/profile", router.MediaJSON, `{}`)
	if res.StatusCode != http.StatusUnsupportedMediaType || res.Header.Get("Accept-Patch") != router.MediaMergePatch {
		t.Errorf("a patch as JSON: status %d, Accept-Patch %q; want 415 naming %s", res.StatusCode, res.Header.Get("Accept-Patch"), router.MediaMergePatch)
	}
	// The headers of that 415 are in the document too.
	unsupported := doc.Paths.Find("/profile").Patch.Responses.Status(http.StatusUnsupportedMediaType).Value
	for _, name := range []string{"Accept-Patch", "Accept-Encoding"} {
		if unsupported.Headers[name] == nil {
			t.Errorf("the 415 of PATCH /profile does not document %s: %v", name, unsupported.Headers)
		}
	}
}

func TestMergePatchDeclarationsFailAtStart(t *testing.T) {
	t.Parallel()
	type notPatch struct{ Body profile }
	type patchOfMap struct {
		Body router.MergePatch[map[string]any]
	}
	h := func(c *router.Ctx, in *patchProfile) (*profile, error) { return nil, nil }
	cases := map[string]router.Route{
		"a patch sent as JSON":         router.Patch("/", h, router.BodyContentType(router.MediaJSON)),
		"a plain body as a patch":      router.Patch("/", func(c *router.Ctx, in *notPatch) (*profile, error) { return nil, nil }, router.BodyContentType(router.MediaMergePatch)),
		"a patch of what is no struct": router.Patch("/", func(c *router.Ctx, in *patchOfMap) (*profile, error) { return nil, nil }),
	}
	for name, rt := range cases {
		if _, err := router.New(router.Config{Controllers: []router.Controller{router.Group{Path: "/p", Declared: []router.Route{rt}}}}); err == nil {
			t.Errorf("%s: router.New succeeded, want an error", name)
		}
	}
}

// jsonEqual reports whether a and b are the same JSON value.
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var va, vb any
	if err := json.Unmarshal(a, &va); err != nil {
		t.Fatalf("%s: %v", a, err)
	}
	if err := json.Unmarshal(b, &vb); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	ja, _ := json.Marshal(va)
	jb, _ := json.Marshal(vb)
	return string(ja) == string(jb)
}

func TestSameJSONComparesWhatAPutWouldWrite(t *testing.T) {
	t.Parallel()
	bio, other := "a bio", "a bio"
	tests := []struct {
		name string
		a, b any
		same bool
	}{
		{"equal values", profile{Name: "Ada", Tags: []string{"x"}}, profile{Name: "Ada", Tags: []string{"x"}}, true},
		{"equal values behind different pointers", profile{Name: "Ada", Bio: &bio}, profile{Name: "Ada", Bio: &other}, true},
		{"a member set against one left out", profile{Name: "Ada", Bio: &bio}, profile{Name: "Ada"}, false},
		{"another value", profile{Name: "Ada"}, profile{Name: "Grace"}, false},
		{"another order of the same items", profile{Name: "Ada", Tags: []string{"x", "y"}}, profile{Name: "Ada", Tags: []string{"y", "x"}}, false},
		{"maps whatever their order", map[string]int{"a": 1, "b": 2}, map[string]int{"b": 2, "a": 1}, true},
		{"other Go types of the same JSON", memo{N: 1}, map[string]any{"n": 1.0}, true},
		{"the same JSON the other way round", map[string]any{"n": 1.0}, memo{N: 1}, true},
	}
	for _, tt := range tests {
		same, err := router.SameJSON(tt.a, tt.b)
		if err != nil || same != tt.same {
			t.Errorf("%s: SameJSON = %v, %v; want %v", tt.name, same, err, tt.same)
		}
	}
	// A value JSON cannot hold is an error, not "different".
	for _, pair := range [][2]any{{func() {}, profile{}}, {profile{}, make(chan int)}} {
		if same, err := router.SameJSON(pair[0], pair[1]); err == nil {
			t.Errorf("SameJSON(%T, %T) = %v, nil; want the encoding's error", pair[0], pair[1], same)
		}
	}
}

// memo is a patch target whose optional member is left out of its JSON
// when nil (omitempty), as a generated resource's are: an empty text is a
// value there, not an absent member.
type memo struct {
	Text *string `json:"text,omitempty" validate:"omitempty,max=10"`
	N    int     `json:"n"`
}

type patchMemo struct {
	Body router.MergePatch[memo]
}

func TestAnEmptyTextIsAValueNotAnAbsentMember(t *testing.T) {
	t.Parallel()
	empty := ""
	if same, err := router.SameJSON(memo{Text: &empty}, memo{}); err != nil || same {
		t.Errorf("SameJSON(an empty text, none) = %v, %v; want false: a PUT from one to the other writes", same, err)
	}
	type answer struct {
		After *memo `json:"after"`
	}
	r := newRouter(t, router.Config{Controllers: []router.Controller{router.Group{Path: "/memo", Declared: []router.Route{
		router.Patch("/", func(c *router.Ctx, in *patchMemo) (*answer, error) {
			current := memo{Text: &empty, N: 1}
			if err := in.Body.Apply(&current); err != nil {
				return nil, err
			}
			return &answer{After: &current}, nil
		}),
	}}}})
	for patch, want := range map[string]string{
		`{"n":2}`:       `{"after":{"text":"","n":2}}`,
		`{"text":null}`: `{"after":{"n":1}}`,
		`{"text":""}`:   `{"after":{"text":"","n":1}}`,
		`{"text":"a"}`:  `{"after":{"text":"a","n":1}}`,
	} {
		res, body := send(t, r, http.MethodPatch, "/memo", router.MediaMergePatch, patch)
		if res.StatusCode != http.StatusOK || !jsonEqual(t, body, []byte(want)) {
			t.Errorf("patch %s of an empty text: %d %s, want %s", patch, res.StatusCode, body, want)
		}
	}
}
