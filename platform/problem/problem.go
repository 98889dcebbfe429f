package problem

import "net/http"

// ContentType is the media type of every problem response.
const ContentType = "application/problem+json"

// FieldError names one input field that failed validation and why.
type FieldError struct {
	// Field is the name the client sent: the JSON, form or query name.
	Field string `json:"field" doc:"Input field name as sent by the client" validate:"required"`
	// Message says what is wrong in words a client developer can act on.
	Message string `json:"message" doc:"What is wrong with the field" validate:"required"`
}

// Problem is an RFC 9457 problem details body. It implements error so that a
// handler can return one directly.
type Problem struct {
	// Type is a URI reference naming the problem type; "about:blank" when the
	// HTTP status says it all.
	Type string `json:"type" doc:"URI reference identifying the problem type" example:"about:blank" validate:"required"`
	// Title is a short summary that does not change between occurrences.
	Title string `json:"title" doc:"Short, human-readable summary of the problem type" validate:"required"`
	// Status repeats the HTTP status code.
	Status int `json:"status" doc:"HTTP status code" format:"int32" minimum:"400" maximum:"599" validate:"required"`
	// Detail explains this occurrence.
	Detail string `json:"detail,omitempty" doc:"Explanation specific to this occurrence"`
	// Code is the stable, machine-readable code of a declared error.
	Code string `json:"code,omitempty" doc:"Stable machine-readable error code"`
	// Errors lists the fields that failed validation.
	Errors []FieldError `json:"errors,omitempty" doc:"Fields that failed validation"`
}

// New returns a problem of type "about:blank" whose title is the status text.
func New(status int, detail string) *Problem {
	return &Problem{Type: "about:blank", Title: http.StatusText(status), Status: status, Detail: detail}
}

// Error returns the title and the detail.
func (p *Problem) Error() string {
	if p.Detail == "" {
		return p.Title
	}
	return p.Title + ": " + p.Detail
}
