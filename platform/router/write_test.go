package router_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/asapjs/fiber-template/platform/etag"
	"github.com/asapjs/fiber-template/platform/problem"
	"github.com/asapjs/fiber-template/platform/router"
)

// storedNote is a stored row of the kit's tests: an id, the members a PUT
// replaces, and a version every write raises.
type storedNote struct {
	ID      int64
	Body    noteBody
	Version int64
}

// noteBody is the PUT body of a note, and what a PATCH of one applies to:
// a nullable text (where "" is a value, not an absent member), a list and
// an object that merges member by member.
type noteBody struct {
	Title string   `json:"title" validate:"required,max=20"`
	Text  *string  `json:"text,omitempty" validate:"omitempty,max=20"`
	Tags  []string `json:"tags"`
	Place *place   `json:"place,omitempty"`
}

type place struct {
	City string  `json:"city" validate:"required"`
	Zip  *string `json:"zip,omitempty"`
}

// noteOut is a note in its API form; its version is its ETag.
type noteOut struct {
	ID int64 `json:"id"`
	noteBody
	Version int64 `json:"-"`
}

func (n *noteOut) EntityTag() string { return etag.Version(n.Version) }

type noteID struct {
	ID int64 `path:"id"`
}

// noteVersion is the input of a note's delete: its id, and the version
// the client read.
type noteVersion struct {
	router.IfMatchHeader
	noteID
}

type putNote struct {
	router.IfMatchHeader
	ID   int64 `path:"id"`
	Body noteBody
}

type patchNote struct {
	router.IfMatchHeader
	ID   int64 `path:"id"`
	Body router.MergePatch[noteBody]
}

var errNoteNotFound = problem.Declare(http.StatusNotFound, "note_not_found", "Note not found")

// staleNote is the notes' StaleWrite.
type staleNote struct{ current int64 }

func (e *staleNote) Error() string         { return "the note is at another version" }
func (e *staleNote) CurrentVersion() int64 { return e.current }

// notes is a repository of notes in memory, the kit's seam: its update and
// its delete check the version as the database's UPDATE … WHERE version =
// ? does, and others, when set, is another writer that changes the row
// between the kit's read and its write, on each of the first of them
// attempts.
type notes struct {
	mu      sync.Mutex
	rows    map[int64]storedNote
	reads   int // get calls
	updates int // update calls
	writes  int // updates that wrote
	others  int
}

func (s *notes) get(_ context.Context, id int64) (*storedNote, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reads++
	n, ok := s.rows[id]
	if !ok {
		return nil, errNoteNotFound
	}
	return &n, nil
}

func (s *notes) update(_ context.Context, _, next *storedNote, version int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.updates++
	n, ok := s.rows[next.ID]
	if !ok {
		return errNoteNotFound
	}
	if s.others > 0 {
		s.others--
		n.Version++
		s.rows[n.ID] = n
	}
	if n.Version != version {
		return &staleNote{n.Version}
	}
	next.Version = version + 1
	s.rows[next.ID] = *next
	s.writes++
	return nil
}

func (s *notes) remove(_ context.Context, id int64, versions ...int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.rows[id]
	switch {
	case !ok:
		return errNoteNotFound
	case versions != nil && !containsVersion(versions, n.Version):
		return &staleNote{n.Version}
	}
	delete(s.rows, id)
	return nil
}

func containsVersion(versions []int64, v int64) bool {
	for _, w := range versions {
		if w == v {
			return true
		}
	}
	return false
}

// notesRouter serves the note 1, at version 3, whose body is start, with
// the kit: GET, PUT, PATCH and DELETE, the writes conditional.
func notesRouter(t *testing.T, start noteBody) (*router.Router, *notes) {
	t.Helper()
	store := &notes{rows: map[int64]storedNote{1: {ID: 1, Body: start, Version: 3}}}
	writes := router.Versioned[storedNote, noteBody]{
		Get:     store.get,
		Version: func(n *storedNote) int64 { return n.Version },
		Form:    func(n storedNote) noteBody { return n.Body },
		Row: func(body noteBody, current *storedNote) (*storedNote, error) {
			if body.Title == "locked" {
				return nil, problem.New(http.StatusForbidden, "No note may have this title.")
			}
			return &storedNote{ID: current.ID, Body: body, Version: current.Version}, nil
		},
		Update: store.update,
	}
	answer := func(n *storedNote, err error) (*noteOut, error) {
		if err != nil {
			return nil, err
		}
		return &noteOut{ID: n.ID, noteBody: n.Body, Version: n.Version}, nil
	}
	errs := router.Errors(errNoteNotFound, router.ErrEditConflict)
	r := newRouter(t, router.Config{Controllers: []router.Controller{router.Group{Path: "/notes", Declared: []router.Route{
		router.Get("/:id", func(rc *router.Ctx, in *noteID) (*noteOut, error) {
			return answer(store.get(rc.Context(), in.ID))
		}, errs),
		router.Put("/:id", func(rc *router.Ctx, in *putNote) (*noteOut, error) {
			return answer(writes.Put(rc, in.ID, in.Body))
		}, errs),
		router.Patch("/:id", func(rc *router.Ctx, in *patchNote) (*noteOut, error) {
			return answer(writes.Patch(rc, in.ID, &in.Body))
		}, errs),
		router.Delete("/:id", func(rc *router.Ctx, in *noteVersion) (*router.NoContent, error) {
			return nil, writes.Delete(rc, in.ID, store.remove)
		}, router.Status(http.StatusNoContent), errs),
	}}}})
	return r, store
}

// noteRequest sends a write of the note 1, with If-Match unless ifMatch
// is empty.
func noteRequest(t *testing.T, r *router.Router, method, ifMatch, body string) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(method, "/notes/1", strings.NewReader(body))
	switch method {
	case http.MethodPut:
		req.Header.Set("Content-Type", "application/json")
	case http.MethodPatch:
		req.Header.Set("Content-Type", router.MediaMergePatch)
	}
	if ifMatch != "" {
		req.Header.Set("If-Match", ifMatch)
	}
	return do(t, r, req)
}

func text(s string) *string { return &s }

// startNote is the note the tests start from.
var startNote = noteBody{Title: "first", Text: text(""), Tags: []string{"a"}, Place: &place{City: "London", Zip: text("N1")}}

func TestVersionedWritesAnswerWhatTheClientRead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		method         string
		ifMatch, body  string
		others         int // writes that overtake the kit's, one per attempt
		status         int
		etag           string // the answer's ETag
		updates        int    // Update calls
		writes         int    // Update calls that wrote
		code           string // the problem's code, for a problem
		title, deleted bool   // title: the answer's title is "second"; deleted: the row is gone
	}{
		{name: "a PUT with the ETag read writes and answers the new one",
			method: http.MethodPut, ifMatch: `"3"`, body: `{"title":"second","tags":["a"]}`,
			status: http.StatusOK, etag: `"4"`, updates: 1, writes: 1, title: true},
		{name: "a PUT with a stale If-Match is a 412 with the current ETag, and writes nothing",
			method: http.MethodPut, ifMatch: `"2"`, body: `{"title":"second","tags":["a"]}`,
			status: http.StatusPreconditionFailed, etag: `"3"`, code: "precondition_failed"},
		{name: "a PUT of the note as it is answers it, its ETag kept, without a write",
			method: http.MethodPut, ifMatch: `"3"`, body: `{"title":"first","text":"","tags":["a"],"place":{"zip":"N1","city":"London"}}`,
			status: http.StatusOK, etag: `"3"`},
		{name: "a PUT that leaves out the empty text writes: an empty text is a value",
			method: http.MethodPut, body: `{"title":"first","tags":["a"],"place":{"city":"London","zip":"N1"}}`,
			status: http.StatusOK, etag: `"4"`, updates: 1, writes: 1},
		{name: "a PATCH of nothing answers the note, its ETag kept, without a write",
			method: http.MethodPatch, body: `{}`, status: http.StatusOK, etag: `"3"`},
		{name: "a PATCH of members to the values they have writes nothing",
			method: http.MethodPatch, ifMatch: `"3"`, body: `{"title":"first","text":"","tags":["a"],"place":{"city":"London"}}`,
			status: http.StatusOK, etag: `"3"`},
		{name: "a PATCH that removes the empty text writes",
			method: http.MethodPatch, body: `{"text":null}`, status: http.StatusOK, etag: `"4"`, updates: 1, writes: 1},
		{name: "a PATCH of one member of the object writes",
			method: http.MethodPatch, body: `{"place":{"zip":null}}`, status: http.StatusOK, etag: `"4"`, updates: 1, writes: 1},
		{name: "a PATCH whose result the handler's rules refuse is their answer, and writes nothing",
			method: http.MethodPatch, body: `{"title":"locked"}`, status: http.StatusForbidden},
		{name: "a PATCH whose result breaks the body's rules is a 422, and writes nothing",
			method: http.MethodPatch, body: `{"place":{"city":null}}`, status: http.StatusUnprocessableEntity},
		{name: "a PATCH with a stale If-Match is a 412 with the current ETag",
			method: http.MethodPatch, ifMatch: `"4", W/"3"`, body: `{"title":"second"}`,
			status: http.StatusPreconditionFailed, etag: `"3"`, code: "precondition_failed"},
		{name: "without If-Match, a patch overtaken once is applied to the new note",
			method: http.MethodPatch, body: `{"title":"second"}`, others: 1,
			status: http.StatusOK, etag: `"5"`, updates: 2, writes: 1, title: true},
		{name: "without If-Match, a PUT overtaken once is applied to the new note",
			method: http.MethodPut, body: `{"title":"second","tags":["a"]}`, others: 1,
			status: http.StatusOK, etag: `"5"`, updates: 2, writes: 1, title: true},
		{name: "without If-Match, a patch overtaken on every attempt is a 409 after five",
			method: http.MethodPatch, body: `{"title":"second"}`, others: router.WriteAttempts + 1,
			status: http.StatusConflict, updates: router.WriteAttempts, code: "edit_conflict"},
		{name: "If-Match * is no precondition: a patch overtaken once is applied again",
			method: http.MethodPatch, ifMatch: `*`, body: `{"title":"second"}`, others: 1,
			status: http.StatusOK, etag: `"5"`, updates: 2, writes: 1, title: true},
		{name: "with If-Match, a patch overtaken once is a 412 with the new ETag, not a retry",
			method: http.MethodPatch, ifMatch: `"3"`, body: `{"title":"second"}`, others: 1,
			status: http.StatusPreconditionFailed, etag: `"4"`, updates: 1, code: "precondition_failed"},
		{name: "with If-Match, a PUT overtaken once is a 412 with the new ETag, not a retry",
			method: http.MethodPut, ifMatch: `"3"`, body: `{"title":"second","tags":["a"]}`, others: 1,
			status: http.StatusPreconditionFailed, etag: `"4"`, updates: 1, code: "precondition_failed"},
		{name: "with an If-Match that also names the overtaking version, the patch is applied to it",
			method: http.MethodPatch, ifMatch: `"3", "4"`, body: `{"title":"second"}`, others: 1,
			status: http.StatusOK, etag: `"5"`, updates: 2, writes: 1, title: true},
		{name: "a DELETE with a stale If-Match is a 412 with the current ETag and deletes nothing",
			method: http.MethodDelete, ifMatch: `"2"`, status: http.StatusPreconditionFailed, etag: `"3"`, code: "precondition_failed"},
		{name: "a DELETE with the ETag read deletes",
			method: http.MethodDelete, ifMatch: `"3"`, status: http.StatusNoContent, deleted: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, store := notesRouter(t, startNote)
			store.others = tt.others
			res, body := noteRequest(t, r, tt.method, tt.ifMatch, tt.body)
			if res.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s", res.StatusCode, tt.status, body)
			}
			if got := res.Header.Get("ETag"); got != tt.etag {
				t.Errorf("ETag %q, want %q", got, tt.etag)
			}
			if tt.code != "" {
				if p := wantProblem(t, res, body, tt.status); p.Code != tt.code {
					t.Errorf("code %q, want %q", p.Code, tt.code)
				}
			}
			// Each attempt reads the note once, and a DELETE reads nothing:
			// a write that lost its race with If-Match is not read again.
			reads := max(tt.updates, 1)
			if tt.method == http.MethodDelete {
				reads = 0
			}
			if store.reads != reads || store.updates != tt.updates || store.writes != tt.writes {
				t.Errorf("%d reads, %d updates of which %d wrote; want %d, %d and %d", store.reads, store.updates, store.writes, reads, tt.updates, tt.writes)
			}
			if tt.status == http.StatusOK {
				got := decode[noteOut](t, body)
				if (got.Title == "second") != tt.title {
					t.Errorf("title %q in the answer", got.Title)
				}
				if got, _ := store.get(context.Background(), 1); tt.etag != `"`+etag.Version(got.Version)+`"` {
					t.Errorf("the note is at version %d, the answer's ETag is %s", got.Version, tt.etag)
				}
			}
			if _, err := store.get(context.Background(), 1); (err != nil) != tt.deleted {
				t.Errorf("the note after: %v, deleted %v", err, tt.deleted)
			}
		})
	}
}

func TestVersionedAnswersTheHandlersErrors(t *testing.T) {
	t.Parallel()
	r, _ := notesRouter(t, startNote)
	for _, method := range []string{http.MethodPut, http.MethodPatch, http.MethodDelete} {
		req := httptest.NewRequest(method, "/notes/2", nil)
		switch method {
		case http.MethodPut:
			req = httptest.NewRequest(method, "/notes/2", strings.NewReader(`{"title":"second","tags":[]}`))
			req.Header.Set("Content-Type", "application/json")
		case http.MethodPatch:
			req = httptest.NewRequest(method, "/notes/2", strings.NewReader(`{"title":"second"}`))
			req.Header.Set("Content-Type", router.MediaMergePatch)
		}
		res, body := do(t, r, req)
		if p := wantProblem(t, res, body, http.StatusNotFound); p.Code != "note_not_found" {
			t.Errorf("%s of a note that does not exist: code %q, want note_not_found", method, p.Code)
		}
	}
}
