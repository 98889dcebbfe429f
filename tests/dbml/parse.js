// Parses DBML from stdin with @dbml/core, the reference parser, and prints
// its tables and refs as JSON for the integration tests. A parse error goes
// to stderr with exit status 1.
'use strict';

const { Parser } = require('@dbml/core');

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  let database;
  try {
    database = new Parser().parse(input, 'dbmlv2');
  } catch (err) {
    const diags = err && err.diags ? err.diags.map((d) => d.message) : [String(err)];
    process.stderr.write(JSON.stringify({ errors: diags }) + '\n');
    process.exit(1);
  }
  const tables = [];
  const refs = [];
  for (const schema of database.schemas) {
    for (const t of schema.tables) {
      tables.push({
        name: t.name,
        note: t.note || '',
        fields: t.fields.map((f) => ({
          name: f.name,
          type: f.type.type_name,
          pk: Boolean(f.pk),
          increment: Boolean(f.increment),
          not_null: Boolean(f.not_null),
          unique: Boolean(f.unique),
          default: f.dbdefault ? { type: f.dbdefault.type, value: String(f.dbdefault.value) } : null,
          note: f.note || '',
        })),
        indexes: t.indexes.map((i) => ({
          name: i.name || '',
          columns: i.columns.map((c) => c.value),
          pk: Boolean(i.pk),
          unique: Boolean(i.unique),
        })),
      });
    }
    for (const r of schema.refs) {
      refs.push({
        endpoints: r.endpoints.map((e) => ({ table: e.tableName, fields: e.fieldNames, relation: e.relation })),
        on_delete: r.onDelete || '',
        on_update: r.onUpdate || '',
      });
    }
  }
  process.stdout.write(JSON.stringify({ tables, refs }, null, 2) + '\n');
});
