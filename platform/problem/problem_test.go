package problem_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/asapjs/fiber-template/platform/problem"
)

var errGone = problem.Declare(410, "thing_gone", "Thing gone")

func TestDeclaredErrors(t *testing.T) {
	t.Parallel()
	withDetail := errGone.WithDetail("thing %d left", 7)
	if errGone.Error() != "thing_gone" || withDetail.Error() != "thing_gone: thing 7 left" {
		t.Fatalf("messages %q and %q", errGone.Error(), withDetail.Error())
	}
	if !errors.Is(fmt.Errorf("wrapped: %w", withDetail), errGone) {
		t.Fatal("a copy with a detail does not match its declaration")
	}
	if errors.Is(withDetail, problem.Declare(410, "other", "Other")) {
		t.Fatal("different declarations match")
	}
	p := withDetail.Problem()
	if p.Type != "urn:problem-type:thing_gone" || p.Title != "Thing gone" || p.Status != 410 ||
		p.Detail != "thing 7 left" || p.Code != "thing_gone" || p.Errors != nil {
		t.Fatalf("problem %+v", p)
	}
	if d := errGone.Problem().Detail; d != "Thing gone" {
		t.Fatalf("the declaration's problem has detail %q, want its title: WithDetail changed it, or the default is lost", d)
	}
}

func TestDeclarePanicsOnBadDeclarations(t *testing.T) {
	t.Parallel()
	cases := map[string]func(){
		"a 2xx status":  func() { problem.Declare(200, "ok", "OK") },
		"a 6xx status":  func() { problem.Declare(600, "x", "X") },
		"an empty code": func() { problem.Declare(404, "", "Missing") },
		"an empty title": func() {
			problem.Declare(404, "missing", "")
		},
	}
	for name, declare := range cases {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("Declare did not panic")
				}
			}()
			declare()
		})
	}
}
