package router

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strings"

	"github.com/go-playground/validator/v10"

	"github.com/asapjs/fiber-template/platform/problem"
)

// newValidator returns a validator that reports fields by the name the
// client sent: the JSON, query, path or form name, never the Go name.
func newValidator() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(clientName)
	return v
}

// validate checks the validate tags of in and answers a 422 listing every
// failing field.
func (r *Router) validate(in any) error {
	err := r.validator.Struct(in)
	if err == nil {
		return nil
	}
	var verrs validator.ValidationErrors
	if !errors.As(err, &verrs) {
		return fmt.Errorf("validate input: %w", err)
	}
	p := problem.New(http.StatusUnprocessableEntity, validationDetail)
	for _, fe := range verrs {
		p.Errors = append(p.Errors, problem.FieldError{Field: fieldPath(fe.Namespace()), Message: ruleMessage(fe.Tag(), fe.Param(), fe.Kind())})
	}
	return p
}

// fieldPath drops the input type and the Body field from a namespace, so
// "CreateUserInput.Body.email" reports "email" and a query filter its name.
func fieldPath(ns string) string {
	_, rest, ok := strings.Cut(ns, ".")
	if !ok {
		return ns
	}
	if after, ok := strings.CutPrefix(rest, "Body."); ok {
		return after
	}
	return rest
}

// validationDetail is the detail of every 422.
const validationDetail = "The request failed validation."

// ruleMessage says in words which rule a field of kind broke.
func ruleMessage(tag, param string, kind reflect.Kind) string {
	unit := ""
	switch kind {
	case reflect.String:
		unit = " characters"
	case reflect.Slice, reflect.Array, reflect.Map:
		unit = " items"
	}
	switch tag {
	case "required", "required_if", "required_unless", "required_with", "required_without":
		return "is required"
	case "email":
		return "must be a valid email address"
	case "uuid", "uuid4":
		return "must be a UUID"
	case "url", "uri", "http_url":
		return "must be a URL"
	case "oneof":
		return "must be one of: " + strings.Join(strings.Fields(param), ", ")
	case "min":
		if unit != "" {
			return "must have at least " + param + unit
		}
		return "must be at least " + param
	case "max":
		if unit != "" {
			return "must have at most " + param + unit
		}
		return "must be at most " + param
	case "len":
		return "must have exactly " + param + unit
	case "gte":
		return "must be greater than or equal to " + param
	case "gt":
		return "must be greater than " + param
	case "lte":
		return "must be less than or equal to " + param
	case "lt":
		return "must be less than " + param
	case "alphanum":
		return "must contain only letters and digits"
	default:
		return "failed the " + tag + " rule"
	}
}
