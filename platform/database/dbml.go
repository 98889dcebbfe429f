package database

import (
	"cmp"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/uptrace/bun/schema"
)

// writeDBML describes the tables of models in DBML (https://dbml.dbdiagram.io):
// columns with the types the dialect creates them with and their
// constraints, the indexes, and a Ref for each relation between two listed
// tables. Tables come in the listed order and refs sorted, so the same
// models always give the same text.
func writeDBML(dialect Dialect, models []model) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Tables of the Bun models, as %s creates them.\n", dialectTitle(dialect))
	listed := make(map[*schema.Table]bool, len(models))
	for _, m := range models {
		listed[m.table] = true
	}
	for _, m := range models {
		b.WriteString("\n")
		writeTable(&b, dialect, m)
	}
	refs := collectRefs(models, listed)
	if len(refs) > 0 {
		b.WriteString("\n")
	}
	for _, r := range refs {
		b.WriteString(r.String())
		b.WriteString("\n")
	}
	return b.String()
}

func dialectTitle(d Dialect) string {
	if d == Postgres {
		return "PostgreSQL"
	}
	return "SQLite"
}

func writeTable(b *strings.Builder, dialect Dialect, m model) {
	t := m.table
	fmt.Fprintf(b, "Table %s {\n", tableIdent(t))
	compositePK := len(t.PKs) > 1
	soleUnique := make(map[*schema.Field]bool)
	for _, f := range t.Unique[""] {
		soleUnique[f] = true
	}
	for _, f := range t.Fields {
		var settings []string
		if f.IsPK && !compositePK {
			settings = append(settings, "pk")
		}
		if f.AutoIncrement || f.Identity {
			settings = append(settings, "increment")
		}
		if f.NotNull && !(f.IsPK && !compositePK) {
			settings = append(settings, "not null")
		}
		if soleUnique[f] {
			settings = append(settings, "unique")
		}
		if f.SQLDefault != "" {
			settings = append(settings, "default: "+defaultValue(f.SQLDefault))
		}
		if doc := f.StructField.Tag.Get("doc"); doc != "" {
			settings = append(settings, "note: "+quote(doc))
		}
		fmt.Fprintf(b, "  %s %s", ident(f.Name), sqlType(f.CreateTableSQLType))
		if len(settings) > 0 {
			fmt.Fprintf(b, " [%s]", strings.Join(settings, ", "))
		}
		b.WriteString("\n")
	}

	indexes := tableIndexes(dialect, m)
	if len(indexes) > 0 {
		b.WriteString("\n  indexes {\n")
		for _, ix := range indexes {
			fmt.Fprintf(b, "    %s\n", ix)
		}
		b.WriteString("  }\n")
	}
	if note := tableNote(t); note != "" {
		fmt.Fprintf(b, "\n  Note: %s\n", quote(note))
	}
	b.WriteString("}\n")
}

// tableIndexes are the DBML index lines of m on dialect: a composite
// primary key, the named unique groups and the declared indexes.
func tableIndexes(dialect Dialect, m model) []string {
	t := m.table
	var indexes []string
	if len(t.PKs) > 1 {
		indexes = append(indexes, columnList(t.PKs)+" [pk]")
	}
	names := make([]string, 0, len(t.Unique))
	for name := range t.Unique {
		if name != "" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		indexes = append(indexes, fmt.Sprintf("%s [unique, name: %s]", columnList(t.Unique[name]), quote(name)))
	}
	for _, ix := range m.indexes {
		if ix.PostgresOnly() && dialect != Postgres {
			continue
		}
		target := "`" + strings.ReplaceAll(ix.Expression, "`", "'") + "`"
		if ix.Expression == "" {
			cols := make([]*schema.Field, len(ix.Columns))
			for i, c := range ix.Columns {
				cols[i] = columnOf(t, c)
			}
			target = columnList(cols)
		}
		settings := "name: " + quote(ix.Name)
		if ix.Unique {
			settings = "unique, " + settings
		}
		if note := indexNote(ix); note != "" {
			settings += ", note: " + quote(note)
		}
		indexes = append(indexes, fmt.Sprintf("%s [%s]", target, settings))
	}
	return indexes
}

// indexNote says what DBML cannot: the method, operator class and
// extension of a PostgreSQL index.
func indexNote(ix Index) string {
	var parts []string
	if ix.Using != "" {
		parts = append(parts, "using "+ix.Using)
	}
	if ix.OpClass != "" {
		parts = append(parts, "operator class "+ix.OpClass)
	}
	if ix.Extension != "" {
		parts = append(parts, "needs the extension "+ix.Extension)
	}
	return strings.Join(parts, ", ")
}

// tableNote is the doc tag of the model's embedded bun.BaseModel.
func tableNote(t *schema.Table) string {
	for i := range t.Type.NumField() {
		if sf := t.Type.Field(i); sf.Anonymous && sf.Type == reflect.TypeFor[schema.BaseModel]() {
			return sf.Tag.Get("doc")
		}
	}
	return ""
}

// columnList writes the columns of an index or of a ref's endpoint: a bare
// name, or a parenthesised list for several.
func columnList(fields []*schema.Field) string {
	if len(fields) == 1 {
		return ident(fields[0].Name)
	}
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = ident(f.Name)
	}
	return "(" + strings.Join(names, ", ") + ")"
}

// ref is one DBML relationship: from the referencing columns to the
// referenced ones.
type ref struct {
	fromTable, toTable *schema.Table
	from, to           []*schema.Field
	// op is ">" for many-to-one and "-" for one-to-one.
	op                 string
	onDelete, onUpdate string
}

func (r ref) endpoint(t *schema.Table, fields []*schema.Field) string {
	return tableIdent(t) + "." + columnList(fields)
}

// key identifies the pair of endpoints: DBML rejects two refs between the
// same columns, which a belongs-to and the has-many of the other side make.
func (r ref) key() string {
	a, b := r.endpoint(r.fromTable, r.from), r.endpoint(r.toTable, r.to)
	return min(a, b) + " " + max(a, b)
}

func (r ref) String() string {
	s := "Ref: " + r.endpoint(r.fromTable, r.from) + " " + r.op + " " + r.endpoint(r.toTable, r.to)
	var settings []string
	if a := fkAction(r.onDelete, "ON DELETE "); a != "" {
		settings = append(settings, "delete: "+a)
	}
	if a := fkAction(r.onUpdate, "ON UPDATE "); a != "" {
		settings = append(settings, "update: "+a)
	}
	if len(settings) > 0 {
		s += " [" + strings.Join(settings, ", ") + "]"
	}
	return s
}

// fkAction turns Bun's "ON DELETE CASCADE" into DBML's "cascade"; NO
// ACTION, the default of both, is left out.
func fkAction(clause, prefix string) string {
	a := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(strings.ToUpper(clause), prefix)))
	if a == "no action" {
		return ""
	}
	return a
}

// collectRefs makes the refs of the relations between listed tables:
// belongs-to, has-one and has-many between the two tables, and for
// many-to-many one ref from the join table to each side. When two
// relations describe the same columns, one-to-one wins over many-to-one.
func collectRefs(models []model, listed map[*schema.Table]bool) []ref {
	byKey := make(map[string]ref)
	add := func(r ref) {
		if !listed[r.fromTable] || !listed[r.toTable] || len(r.from) == 0 || len(r.from) != len(r.to) {
			return
		}
		k := r.key()
		prev, ok := byKey[k]
		if !ok {
			byKey[k] = r
			return
		}
		keep, other := prev, r
		if prev.op != "-" && r.op == "-" {
			keep, other = r, prev
		}
		keep.onDelete = cmp.Or(keep.onDelete, other.onDelete)
		keep.onUpdate = cmp.Or(keep.onUpdate, other.onUpdate)
		byKey[k] = keep
	}
	for _, m := range models {
		t := m.table
		names := make([]string, 0, len(t.Relations))
		for name := range t.Relations {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			rel := t.Relations[name]
			if rel.PolymorphicField != nil {
				continue // no foreign key can say which table the row is in
			}
			switch rel.Type {
			case schema.BelongsToRelation:
				add(ref{fromTable: t, from: rel.BasePKs, toTable: rel.JoinTable, to: rel.JoinPKs, op: ">",
					onDelete: rel.OnDelete, onUpdate: rel.OnUpdate})
			case schema.HasOneRelation:
				add(ref{fromTable: rel.JoinTable, from: rel.JoinPKs, toTable: t, to: rel.BasePKs, op: "-"})
			case schema.HasManyRelation:
				add(ref{fromTable: rel.JoinTable, from: rel.JoinPKs, toTable: t, to: rel.BasePKs, op: ">"})
			case schema.ManyToManyRelation:
				add(ref{fromTable: rel.M2MTable, from: rel.M2MBasePKs, toTable: t, to: rel.BasePKs, op: ">"})
				add(ref{fromTable: rel.M2MTable, from: rel.M2MJoinPKs, toTable: rel.JoinTable, to: rel.JoinPKs, op: ">"})
			}
		}
	}
	refs := make([]ref, 0, len(byKey))
	for _, r := range byKey {
		refs = append(refs, r)
	}
	slices.SortFunc(refs, func(a, b ref) int { return cmp.Compare(a.String(), b.String()) })
	return refs
}

var (
	bareIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	bareType  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\(\s*\d+(\s*,\s*\d+)?\s*\))?$`)
	number    = regexp.MustCompile(`^-?\d+(\.\d+)?$`)
)

// ident writes a DBML name, double-quoted unless it is a plain identifier.
func ident(s string) string {
	if bareIdent.MatchString(s) {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// tableIdent writes a table name, with its schema when Bun's tag named one.
func tableIdent(t *schema.Table) string {
	if s, name := splitName(t.Name); s != "" {
		return ident(s) + "." + ident(name)
	}
	return ident(t.Name)
}

// sqlType writes a column type: bare when DBML reads it as one type, such
// as VARCHAR(255), and double-quoted otherwise, as DOUBLE PRECISION.
func sqlType(s string) string {
	if bareType.MatchString(s) {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}

// quote writes a DBML string.
func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\r\n", `\n`, "\n", `\n`)
	return "'" + r.Replace(s) + "'"
}

// defaultValue turns the SQL of a Bun default into a DBML default: string,
// number and boolean literals as literals, anything else as an expression.
func defaultValue(sql string) string {
	s := strings.TrimSpace(sql)
	switch {
	case len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'':
		return quote(strings.ReplaceAll(s[1:len(s)-1], "''", "'"))
	case number.MatchString(s):
		return s
	case strings.EqualFold(s, "true"), strings.EqualFold(s, "false"), strings.EqualFold(s, "null"):
		return strings.ToLower(s)
	}
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}
