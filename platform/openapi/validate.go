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

// applyValidate carries the go-playground/validator rules of a validate tag
// over to the schema s and reports whether the field is required:
//
//	required                  the property is required
//	oneof=a b 'c d'           enum
//	len, min, max             minLength/maxLength of a string, minItems/maxItems
//	                          of an array, minProperties/maxProperties of a
//	                          map, minimum/maximum of a number
//	gte, lte, gt, lt          likewise, exclusive for gt and lt
//	email, uuid, url ...      format
//
// Rules after dive apply to the elements and are not documented; rules with
// alternatives (a|b) cannot be stated as one constraint and are skipped, as
// are the rules with no counterpart in a schema.
func applyValidate(s *Schema, tag string) (bool, error) {
	required := false
	for _, rule := range strings.Split(tag, ",") {
		rule = strings.TrimSpace(rule)
		if rule == "dive" || rule == "keys" {
			break
		}
		if rule == "" || strings.Contains(rule, "|") {
			continue
		}
		name, param, _ := strings.Cut(rule, "=")
		switch name {
		case "required":
			required = true
		case "oneof":
			target := enumTarget(s)
			if target.Ref != "" || target.Type == "object" || target.Type == "array" {
				continue
			}
			raws := oneOfParamRE.FindAllString(param, -1)
			for i, r := range raws {
				raws[i] = strings.Trim(r, "'")
			}
			vals, err := parseList(raws, target)
			if err != nil {
				return false, fmt.Errorf("validate tag %q: %w", rule, err)
			}
			target.Enum = vals
		case "len", "min", "max", "gte", "lte", "gt", "lt":
			if param == "" {
				continue
			}
			if err := applyBound(s, name, param); err != nil {
				return false, fmt.Errorf("validate tag %q: %w", rule, err)
			}
		case "email":
			s.Format = "email"
		case "uuid", "uuid3", "uuid4", "uuid5", "uuid_rfc4122", "uuid3_rfc4122", "uuid4_rfc4122", "uuid5_rfc4122":
			s.Format = "uuid"
		case "url", "uri", "http_url":
			s.Format = "uri"
		case "ipv4", "ip4_addr":
			s.Format = "ipv4"
		case "ipv6", "ip6_addr":
			s.Format = "ipv6"
		}
	}
	return required, nil
}

// applyBound applies one size or value rule to s according to its type.
func applyBound(s *Schema, rule, param string) error {
	switch {
	case s.Type == "string" && s.Format != "date-time" && s.Format != "binary":
		return applyCount(rule, param, &s.MinLength, &s.MaxLength)
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
