package problem_test

import (
	"reflect"
	"testing"

	"github.com/asapjs/fiber-template/platform/problem"
)

func TestFieldErrorConstructors(t *testing.T) {
	t.Parallel()
	limit := problem.FieldError{Field: "limit", Message: "must be an integer"}
	email := problem.FieldError{Field: "email", Message: "must be a valid email address"}
	cases := []struct {
		name string
		got  *problem.Problem
		want problem.Problem
	}{
		{"a malformed field", problem.Malformed("Invalid query parameter.", limit), problem.Problem{
			Type: "about:blank", Title: "Bad Request", Status: 400, Detail: "Invalid query parameter.",
			Errors: []problem.FieldError{limit},
		}},
		{"broken rules", problem.Invalid(email, limit), problem.Problem{
			Type: "about:blank", Title: "Unprocessable Entity", Status: 422, Detail: "The request failed validation.",
			Errors: []problem.FieldError{email, limit},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if !reflect.DeepEqual(*tc.got, tc.want) {
				t.Fatalf("got %+v, want %+v", *tc.got, tc.want)
			}
		})
	}
}
