package openapi

import (
	"net/http"
	"strconv"
	"time"
)

// Deprecation is what a deprecated route tells its clients, in the
// document and on every answer.
type Deprecation struct {
	// Since is when the route was deprecated: the Deprecation header
	// (RFC 9745).
	Since time.Time
	// Sunset is when the route stops answering: the Sunset header
	// (RFC 8594). Zero when no date is set.
	Sunset time.Time
	// Link is where the deprecation is explained: a Link header with
	// rel="deprecation". Empty when there is none.
	Link string
}

// DeprecationValue is the Deprecation header: an RFC 9651 Date, "@" and
// the Unix time.
func (d *Deprecation) DeprecationValue() string {
	return "@" + strconv.FormatInt(d.Since.Unix(), 10)
}

// SunsetValue is the Sunset header, an HTTP date; empty without a sunset.
func (d *Deprecation) SunsetValue() string {
	if d.Sunset.IsZero() {
		return ""
	}
	return d.Sunset.UTC().Format(http.TimeFormat)
}

// LinkValue is the link-value of the deprecation's Link header; empty
// without a link.
func (d *Deprecation) LinkValue() string {
	if d.Link == "" {
		return ""
	}
	return "<" + d.Link + `>; rel="deprecation"; type="text/html"`
}

// headers documents the headers d adds to every answer of its route.
func (d *Deprecation) headers() map[string]*Header {
	h := map[string]*Header{"Deprecation": {
		Description: "RFC 9745: the operation is deprecated since this date (@ and the Unix time), " + d.Since.UTC().Format(time.RFC3339),
		Schema:      &Schema{Type: "string", Example: d.DeprecationValue()},
	}}
	if v := d.SunsetValue(); v != "" {
		h["Sunset"] = &Header{
			Description: "RFC 8594: the operation stops answering after this date",
			Schema:      &Schema{Type: "string", Example: v},
		}
	}
	return h
}

// linkDescription documents a deprecation link in a Link header.
func (d *Deprecation) linkDescription() string {
	return `rel="deprecation" (RFC 9745): ` + d.Link + ` explains the deprecation`
}
