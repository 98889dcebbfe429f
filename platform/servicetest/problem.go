package servicetest

import (
	"encoding/json"
	"mime"
	"net/http"
	"slices"
	"testing"

	"github.com/asapjs/fiber-template/platform/problem"
)

// WantProblem fails t unless the answer (status, header, body) is RFC 9457
// problem details with one of the statuses want, carrying its status, a
// type, a title and a detail; it returns the problem.
func WantProblem(t testing.TB, status int, header http.Header, body []byte, want ...int) problem.Problem {
	t.Helper()
	if !slices.Contains(want, status) {
		t.Fatalf("status %d, want one of %v; body %s", status, want, body)
	}
	if mt, _, err := mime.ParseMediaType(header.Get("Content-Type")); err != nil || mt != problem.ContentType {
		t.Fatalf("Content-Type %q, want %s", header.Get("Content-Type"), problem.ContentType)
	}
	var p problem.Problem
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatalf("problem body %s: %v", body, err)
	}
	if p.Status != status || p.Type == "" || p.Title == "" || p.Detail == "" {
		t.Fatalf("problem %s does not carry status %d, a type, a title and a detail", body, status)
	}
	return p
}

// WantField fails t unless p names field in its errors, with a message.
func WantField(t testing.TB, p problem.Problem, field string) {
	t.Helper()
	for _, e := range p.Errors {
		if e.Field == field && e.Message != "" {
			return
		}
	}
	t.Fatalf("problem errors %+v do not name field %q", p.Errors, field)
}
