package main

import (
	"fmt"
	"go/token"
	"regexp"
	"slices"
	"strings"

	"github.com/asapjs/fiber-template/platform/paging"
)

// Field is one FIELD:TYPE of a resource, as the templates use it.
type Field struct {
	// Name is the snake_case name: the column, the JSON key and the query
	// parameter of a filter.
	Name string
	// Type is the spec's type: string, text, int, int64, float64, bool,
	// time, uuid or enum.
	Type string
	// Values are the values of an enum.
	Values []string
	// Optional fields are nullable columns and may be left out of a body.
	Optional bool
}

// fieldSpec is FIELD:TYPE with an optional trailing ?.
var fieldSpec = regexp.MustCompile(`^([a-z][a-z0-9_]*):([a-z0-9]+)(?:\(([^()]*)\))?(\?)?$`)

// enumValue is one value of an enum(a,b,...).
var enumValue = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

// fieldTypes are the types a field may have; enum takes its values in
// parentheses.
var fieldTypes = []string{"string", "text", "int", "int64", "float64", "bool", "time", "uuid", "enum"}

// generatedFields are the columns every resource has, and the query
// parameters every list takes: no field may take their names.
var generatedFields = []string{"id", "created_at", "version", "q", paging.SortParam, paging.PageParam, paging.LimitParam, paging.CursorParam}

// parseFields parses the FIELD:TYPE arguments.
func parseFields(specs []string) ([]Field, error) {
	var fields []Field
	seen := map[string]bool{}
	for _, spec := range specs {
		m := fieldSpec.FindStringSubmatch(spec)
		if m == nil {
			return nil, fmt.Errorf("field %q: want name:type, name:type? or name:enum(a,b,...), with a lower-case snake_case name", spec)
		}
		f := Field{Name: m[1], Type: m[2], Optional: m[4] == "?"}
		if !slices.Contains(fieldTypes, f.Type) {
			return nil, fmt.Errorf("field %q: unknown type %q (want one of %s)", spec, f.Type, strings.Join(fieldTypes, ", "))
		}
		if err := checkName("field", f.Name); err != nil {
			return nil, fmt.Errorf("field %q: %w", spec, err)
		}
		if slices.Contains(generatedFields, f.Name) {
			return nil, fmt.Errorf("field %q: %s is a column or query parameter every resource has already", spec, f.Name)
		}
		if seen[f.Name] {
			return nil, fmt.Errorf("field %q: %s is named twice", spec, f.Name)
		}
		seen[f.Name] = true
		switch {
		case f.Type == "enum" && m[3] == "":
			return nil, fmt.Errorf("field %q: an enum lists its values: %s:enum(a,b,...)", spec, f.Name)
		case f.Type == "enum":
			for v := range strings.SplitSeq(m[3], ",") {
				if !enumValue.MatchString(v) {
					return nil, fmt.Errorf("field %q: enum value %q must be lower-case letters, digits, _ and -, starting with a letter", spec, v)
				}
				if slices.Contains(f.Values, v) {
					return nil, fmt.Errorf("field %q: enum value %q is listed twice", spec, v)
				}
				f.Values = append(f.Values, v)
			}
		case strings.Contains(spec, "("):
			return nil, fmt.Errorf("field %q: only enum takes values in parentheses", spec)
		}
		fields = append(fields, f)
	}
	return fields, nil
}

// checkName refuses a name that is a reserved word of Go or SQL, or one
// the generated code could not spell.
func checkName(what, name string) error {
	switch {
	case token.IsKeyword(name):
		return fmt.Errorf("%s name %q is a Go keyword", what, name)
	case sqlReserved[strings.ToUpper(name)]:
		return fmt.Errorf("%s name %q is a reserved word of SQL (PostgreSQL or SQLite)", what, name)
	case strings.Contains(name, "__") || strings.HasSuffix(name, "_"):
		return fmt.Errorf("%s name %q has an empty word between underscores", what, name)
	}
	return nil
}

// sqlReserved are the words PostgreSQL reserves (non-reserved ones aside)
// and SQLite's keywords that would need quoting as names.
var sqlReserved = func() map[string]bool {
	words := `ABORT ACTION ADD AFTER ALL ALTER ALWAYS ANALYSE ANALYZE AND ANY ARRAY AS ASC ASYMMETRIC ATTACH AUTHORIZATION
	AUTOINCREMENT BEFORE BEGIN BETWEEN BINARY BOTH BY CASCADE CASE CAST CHECK COLLATE COLLATION COLUMN COMMIT CONCURRENTLY
	CONFLICT CONSTRAINT CREATE CROSS CURRENT CURRENT_CATALOG CURRENT_DATE CURRENT_ROLE CURRENT_SCHEMA CURRENT_TIME
	CURRENT_TIMESTAMP CURRENT_USER DATABASE DEFAULT DEFERRABLE DEFERRED DELETE DESC DETACH DISTINCT DO DROP EACH ELSE END
	ESCAPE EXCEPT EXCLUDE EXCLUSIVE EXISTS EXPLAIN FAIL FALSE FETCH FILTER FIRST FOLLOWING FOR FOREIGN FREEZE FROM FULL GLOB
	GRANT GROUP GROUPS HAVING IF IGNORE ILIKE IMMEDIATE IN INDEX INDEXED INITIALLY INNER INSERT INSTEAD INTERSECT INTO IS
	ISNULL JOIN KEY LAST LATERAL LEADING LEFT LIKE LIMIT LOCALTIME LOCALTIMESTAMP MATCH MATERIALIZED NATURAL NO NOT NOTHING
	NOTNULL NULL NULLS OF OFFSET ON ONLY OR ORDER OTHERS OUTER OVER OVERLAPS PARTITION PLACING PLAN PRAGMA PRECEDING PRIMARY
	QUERY RAISE RANGE RECURSIVE REFERENCES REGEXP REINDEX RELEASE RENAME REPLACE RESTRICT RETURNING RIGHT ROLLBACK ROW ROWS
	SAVEPOINT SELECT SESSION_USER SET SIMILAR SOME SYMMETRIC TABLE TABLESAMPLE TEMP TEMPORARY THEN TIES TO TRAILING
	TRANSACTION TRIGGER TRUE UNBOUNDED UNION UNIQUE UPDATE USER USING VACUUM VALUES VARIADIC VERBOSE VIEW VIRTUAL WHEN
	WHERE WINDOW WITH WITHOUT`
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}()

// camel turns snake_case into CamelCase, with the initialisms Go spells in
// capitals.
func camel(s string) string {
	var b strings.Builder
	for _, w := range strings.Split(s, "_") {
		if up := strings.ToUpper(w); initialisms[up] {
			b.WriteString(up)
			continue
		}
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

// initialisms are the words Go names spell in capitals.
var initialisms = map[string]bool{"ID": true, "URL": true, "UUID": true, "API": true, "HTTP": true, "JSON": true, "SQL": true, "IP": true}

// Spec is the field as the command line spells it: name:type,
// name:enum(a,b,...), with a trailing ? when it is optional.
func (f Field) Spec() string {
	s := f.Name + ":" + f.Type
	if f.Type == "enum" {
		s += "(" + strings.Join(f.Values, ",") + ")"
	}
	if f.Optional {
		s += "?"
	}
	return s
}

// Indexed are the indexes of the field, as the migration names them to
// createTable and addColumns: itself when the list filters on it, and
// itself with the id when the list sorts by it.
func (f Field) Indexed() []string {
	var ix []string
	if f.Filter() {
		ix = append(ix, f.Name)
	}
	if f.Sortable() {
		ix = append(ix, f.Name+",id")
	}
	return ix
}

// Default is a Go expression of the value a required field's column takes
// in the rows that exist when a migration adds it: its type's zero value,
// an enum's first value, the Unix epoch for a time.
func (f Field) Default() string {
	switch f.Type {
	case "string", "text":
		return `""`
	case "float64":
		return "0.0"
	case "bool":
		return "false"
	case "time":
		return "time.Unix(0, 0).UTC()"
	case "uuid":
		return `"00000000-0000-0000-0000-000000000000"`
	case "enum":
		return fmt.Sprintf("%q", f.Values[0])
	}
	return "0"
}

// GoName is the field's name in Go.
func (f Field) GoName() string { return camel(f.Name) }

// Label is the field's name in prose: "paid at".
func (f Field) Label() string { return strings.ReplaceAll(f.Name, "_", " ") }

// GoType is the field's type in the model and the response.
func (f Field) GoType() string {
	t := map[string]string{"string": "string", "text": "string", "int": "int", "int64": "int64", "float64": "float64",
		"bool": "bool", "time": "time.Time", "uuid": "string", "enum": "string"}[f.Type]
	if f.Optional {
		return "*" + t
	}
	return t
}

// RequestType is the field's type in a create or update body: a required
// bool or number is a pointer too, so that leaving it out is a 422 rather
// than a silent false or 0.
func (f Field) RequestType() string {
	switch f.Type {
	case "bool", "int", "int64", "float64":
		if !f.Optional {
			return "*" + f.GoType()
		}
	}
	return f.GoType()
}

// BunTag is the field's bun tag.
func (f Field) BunTag() string {
	tag := f.Name
	switch f.Type {
	case "text":
		tag += ",type:text"
	case "uuid":
		tag += ",type:uuid"
	}
	if !f.Optional {
		tag += ",notnull"
	}
	return tag
}

// JSONTag is the field's json tag: an optional field is left out when it
// is null.
func (f Field) JSONTag() string {
	if f.Optional {
		return f.Name + ",omitempty"
	}
	return f.Name
}

// Filter reports whether the list filters on the field: enums and bools.
func (f Field) Filter() bool { return f.Type == "enum" || f.Type == "bool" }

// Sortable reports whether the list may be sorted by the field: a scalar
// that is never NULL (a keyset cannot page past NULL), and neither a bool
// nor a long text.
func (f Field) Sortable() bool {
	return !f.Optional && f.Type != "bool" && f.Type != "text"
}

// Searched reports whether the list's q looks in the field.
func (f Field) Searched() bool { return f.Type == "string" || f.Type == "text" }

// Validate is the field's validate rule in a body.
func (f Field) Validate() string {
	var rules []string
	if f.Optional {
		rules = append(rules, "omitempty")
	} else {
		rules = append(rules, "required")
	}
	switch f.Type {
	case "string":
		rules = append(rules, "max=200")
	case "text":
		rules = append(rules, "max=10000")
	case "uuid":
		rules = append(rules, "uuid")
	case "enum":
		rules = append(rules, "oneof="+strings.Join(f.Values, " "))
	}
	return strings.Join(rules, ",")
}

// Format is the field's format tag in the documentation, or "".
func (f Field) Format() string {
	switch f.Type {
	case "time":
		return "date-time"
	case "uuid":
		return "uuid"
	}
	return ""
}

// Example is an example value of the field as its example tag spells it.
func (f Field) Example() string {
	switch f.Type {
	case "string":
		return "Sample " + f.Label()
	case "text":
		return "A longer text about the " + f.Label()
	case "int":
		return "3"
	case "int64":
		return "1250"
	case "float64":
		return "12.5"
	case "bool":
		return "true"
	case "time":
		return "2024-05-01T12:00:00Z"
	case "uuid":
		return "0b9e8a3c-6f2d-4d1e-9c4b-2a7f1e5d3c90"
	case "enum":
		return f.Values[0]
	}
	return ""
}

// Sample is a Go expression of a valid value of the field in JSON, the
// nth of a series (n from 0): the integration test sends it.
func (f Field) Sample(n int) string {
	switch f.Type {
	case "string", "text":
		words := []string{"alpha", "bravo", "charlie", "delta"}
		return fmt.Sprintf("%q", "Sample "+words[n%len(words)]+" "+f.Label())
	case "int":
		return fmt.Sprint(3 + n)
	case "int64":
		return fmt.Sprint(int64(1250) + int64(n)*1000000007)
	case "float64":
		return fmt.Sprint(12.5 + float64(n))
	case "bool":
		return fmt.Sprint(n%2 == 0)
	case "time":
		return fmt.Sprintf("%q", fmt.Sprintf("2024-05-%02dT12:00:00Z", 1+n%28))
	case "uuid":
		return fmt.Sprintf("%q", fmt.Sprintf("0b9e8a3c-6f2d-4d1e-9c4b-2a7f1e5d3c%02d", n%100))
	case "enum":
		return fmt.Sprintf("%q", f.Values[n%len(f.Values)])
	}
	return ""
}

// Invalid is a Go expression of a JSON value the field's rules refuse
// with a 422, or "" when every value of its type is valid.
func (f Field) Invalid() string {
	switch f.Type {
	case "string":
		return `strings.Repeat("x", 201)`
	case "uuid":
		return `"not-a-uuid"`
	case "enum":
		return `"not-` + f.Values[0] + `"`
	}
	return ""
}

// tags returns the struct tags of the field in a DTO, backquoted: kind is
// "response" or "request".
func tags(kind, owner string, f Field) string {
	parts := []string{
		fmt.Sprintf("json:%q", f.JSONTag()),
		fmt.Sprintf("doc:%q", strings.ToUpper(f.Label()[:1])+f.Label()[1:]+" of the "+owner),
	}
	if format := f.Format(); format != "" {
		parts = append(parts, fmt.Sprintf("format:%q", format))
	}
	parts = append(parts, fmt.Sprintf("example:%q", f.Example()))
	var rules []string
	switch {
	case kind == "request":
		rules = append(rules, f.Validate())
	case !f.Optional:
		// Documents the field as always present in the answer.
		rules = append(rules, "required")
	case f.Type == "enum":
		rules = append(rules, "omitempty")
	}
	if kind != "request" && f.Type == "enum" {
		// Documents the values the answer may hold.
		rules = append(rules, "oneof="+strings.Join(f.Values, " "))
	}
	if len(rules) > 0 {
		parts = append(parts, fmt.Sprintf("validate:%q", strings.Join(rules, ",")))
	}
	return "`" + strings.Join(parts, " ") + "`"
}
