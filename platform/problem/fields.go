package problem

import "net/http"

// validationDetail is the detail of every 422: the fields it lists say
// what is wrong.
const validationDetail = "The request failed validation."

// Malformed returns the 400 answer to input that is not in the documented
// form (a value of the wrong type, an empty or repeated parameter, a body of
// the wrong shape), naming each field and what is wrong with it; detail says
// where in the request the fields are.
//
//	problem.Malformed("Invalid query parameter.", problem.FieldError{Field: "limit", Message: "must be an integer"})
func Malformed(detail string, errs ...FieldError) *Problem {
	p := New(http.StatusBadRequest, detail)
	p.Errors = errs
	return p
}

// Invalid returns the 422 answer to well-formed input that breaks the
// documented rules, naming each field and the rule it breaks.
//
//	problem.Invalid(problem.FieldError{Field: "email", Message: "must be a valid email address"})
func Invalid(errs ...FieldError) *Problem {
	p := New(http.StatusUnprocessableEntity, validationDetail)
	p.Errors = errs
	return p
}
