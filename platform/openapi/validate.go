package openapi

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// oneOfParamRE splits a oneof parameter the way go-playground/validator
// does: single-quoted values may hold spaces.
var oneOfParamRE = regexp.MustCompile(`'[^']*'|\S+`)

// applyValidate carries the validate rules of a field over to its schema s
// and reports whether the field is required. The router enforces the
// schema, not the tag, so a rule that has no counterpart in a schema is an
// error rather than a rule documented one way and enforced another:
//
//	required                  the property is present; a string is not empty
//	                          (minLength 1), a pointer is not null
//	omitempty                 nothing: a property that is not required may be
//	                          absent, and a present value meets every rule
//	oneof=a b 'c d'           enum
//	len, min, max             minLength/maxLength of a string (in characters),
//	                          minItems/maxItems of an array, minProperties/
//	                          maxProperties of a map, minimum/maximum of a number
//	gte, lte, gt, lt          likewise, exclusive for gt and lt
//	email, uuid, url, uri,    format
//	ipv4, ipv6
//	dive                      the rules after it apply to the items of an array
func applyValidate(s *Schema, tag string) (bool, error) {
	if tag == "" || tag == "-" {
		return false, nil
	}
	required := false
	target := s
	for _, rule := range strings.Split(tag, ",") {
		rule = strings.TrimSpace(rule)
		if strings.Contains(rule, "|") {
			return false, fmt.Errorf("validate rule %q: alternatives have no schema form; use one rule or a custom type", rule)
		}
		name, param, _ := strings.Cut(rule, "=")
		switch name {
		case "":
			continue
		case "dive":
			if target.Type != "array" || target.Items == nil {
				return false, fmt.Errorf("validate rule dive needs an array, not %s", describe(target))
			}
			items := *target.Items
			target.Items = &items
			target = &items
		case "required":
			if target == s {
				required = true
			} else if target.Type == "string" && target.MinLength == nil {
				target.MinLength = ptr(1)
			}
		case "omitempty":
		case "oneof":
			et := enumTarget(target)
			if et.Ref != "" || et.Type == "object" || et.Type == "array" {
				return false, fmt.Errorf("validate rule %q: an enum needs a string, number or boolean, not %s", rule, describe(et))
			}
			raws := oneOfParamRE.FindAllString(param, -1)
			for i, r := range raws {
				raws[i] = strings.Trim(r, "'")
			}
			vals, err := parseList(raws, et)
			if err != nil {
				return false, fmt.Errorf("validate rule %q: %w", rule, err)
			}
			et.Enum = vals
		case "len", "min", "max", "gte", "lte", "gt", "lt":
			if param == "" {
				return false, fmt.Errorf("validate rule %q needs a value", rule)
			}
			if err := applyBound(target, name, param); err != nil {
				return false, fmt.Errorf("validate rule %q: %w", rule, err)
			}
		case "email":
			target.Format = "email"
		case "uuid", "uuid3", "uuid4", "uuid5", "uuid_rfc4122", "uuid3_rfc4122", "uuid4_rfc4122", "uuid5_rfc4122":
			target.Format = "uuid"
		case "url", "uri", "http_url":
			target.Format = "uri"
		case "ipv4", "ip4_addr":
			target.Format = "ipv4"
		case "ipv6", "ip6_addr":
			target.Format = "ipv6"
		default:
			return false, fmt.Errorf("validate rule %q has no schema form, so it could not be documented as enforced; express it with a type or the rules listed in docs/routes.md", rule)
		}
	}
	return required, nil
}

// describe names the kind of a schema in an error.
func describe(s *Schema) string {
	switch {
	case s.Ref != "":
		return "a reference to " + s.Ref
	case s.Type == "":
		return "any value"
	default:
		return "a schema of type " + s.Type
	}
}

// applyBound applies one size or value rule to s according to its type.
func applyBound(s *Schema, rule, param string) error {
	switch {
	case s.Type == "string" && s.Format != "date-time" && s.Format != "binary":
		return applyCount(rule, param, &s.MinLength, &s.MaxLength)
	case s.Type == "boolean" || s.Type == "" || s.Ref != "":
		return fmt.Errorf("a size or value bound needs a string, number, array or map, not %s", describe(s))
	case s.Type == "array":
		return applyCount(rule, param, &s.MinItems, &s.MaxItems)
	case s.Type == "object" && s.AdditionalProperties != nil:
		return applyCount(rule, param, &s.MinProperties, &s.MaxProperties)
	case s.Type == "integer" || s.Type == "number":
		f, err := strconv.ParseFloat(param, 64)
		if err != nil {
			return fmt.Errorf("%q is not a number", param)
		}
		switch rule {
		case "len":
			s.Minimum, s.Maximum = ptr(f), ptr(f)
		case "min", "gte":
			s.Minimum, s.ExclusiveMinimum = ptr(f), false
		case "gt":
			s.Minimum, s.ExclusiveMinimum = ptr(f), true
		case "max", "lte":
			s.Maximum, s.ExclusiveMaximum = ptr(f), false
		case "lt":
			s.Maximum, s.ExclusiveMaximum = ptr(f), true
		}
	}
	return nil
}

// applyCount applies a size rule to a pair of minimum and maximum counts.
// Counts are whole, so the exclusive rules move the bound by one.
func applyCount(rule, param string, lo, hi **int) error {
	n, err := strconv.Atoi(param)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a count", param)
	}
	switch rule {
	case "len":
		*lo, *hi = ptr(n), ptr(n)
	case "min", "gte":
		*lo = ptr(n)
	case "gt":
		*lo = ptr(n + 1)
	case "max", "lte":
		*hi = ptr(n)
	case "lt":
		*hi = ptr(max(n-1, 0))
	}
	return nil
}
