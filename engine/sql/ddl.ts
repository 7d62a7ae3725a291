// DDL derived from the registry: one table per resource (one column per field, named as the
// field), typed network columns for prefixes / IP addresses, a `<table>_tags` join table per
// taggable resource, unique constraints (incl. uniqueTogether), foreign keys and indexes.
// Statements are idempotent (IF NOT EXISTS) so an interrupted migration can simply be re-run.
import type { Dialect, IndexDef } from './dialect.js';
import { TABLE_MODELS, tableModel, type TableModel } from './table-model.js';
import { idRefType } from './id-columns.js';

function columnDefs(d: Dialect, m: TableModel): string[] {
  const q = d.quote;
  return [
    ...m.columns.map((c) => `${q(c.name)} ${d.columnType(c)}${c.notNull ? ' NOT NULL' : ''}`),
    ...d.netColumns(m).map((c) => `${q(c.name)} ${c.sqlType} NOT NULL`),
  ];
}

function constraintDefs(d: Dialect, m: TableModel): string[] {
  const q = d.quote;
  const list = (cols: readonly string[]) => cols.map(q).join(', ');
  // Foreign keys refuse a delete while referenced (NO ACTION), as the memory store does: cascades
  // and set-null are planned by the inventory service as explicit writes in the same batch.
  return [
    `CONSTRAINT ${q(m.pkName)} PRIMARY KEY (${q('id')})`,
    ...m.uniques.map((u) => `CONSTRAINT ${q(u.name)} UNIQUE (${list(u.columns)})`),
    ...m.fks
      .filter((f) => !f.deferred)
      .map(
        (f) =>
          `CONSTRAINT ${q(f.name)} FOREIGN KEY (${q(f.field)}) REFERENCES ${q(tableModel(f.target).table)} ` +
          `(${q('id')})`,
      ),
    ...m.columns.flatMap((c) => {
      const ck = d.columnCheck(c);
      return ck ? [`CONSTRAINT ${q(`ck_${m.table}_${c.name}`)} CHECK (${ck})`] : [];
    }),
  ];
}

function indexDefs(d: Dialect, m: TableModel): IndexDef[] {
  const plain = m.indexes.map((i) => ({ name: i.name, columns: i.columns.map(d.quote).join(', ') }));
  return [...plain, ...d.netIndexes(m)];
}

function createTable(d: Dialect, table: string, body: readonly string[], indexes: readonly IndexDef[]): string[] {
  const q = d.quote;
  if (d.indexesInTable) {
    const keys = indexes.map((i) => `KEY ${q(i.name)} (${i.columns})`);
    return [`CREATE TABLE IF NOT EXISTS ${q(table)} (\n  ${[...body, ...keys].join(',\n  ')}\n)${d.tableSuffix}`];
  }
  return [
    `CREATE TABLE IF NOT EXISTS ${q(table)} (\n  ${body.join(',\n  ')}\n)${d.tableSuffix}`,
    ...indexes.map((i) => createIndex(d, table, i)),
  ];
}

function createIndex(d: Dialect, table: string, i: IndexDef): string {
  const using = i.using ? ` USING ${i.using}` : '';
  const where = i.where ? ` WHERE ${i.where}` : '';
  return `CREATE INDEX IF NOT EXISTS ${d.quote(i.name)} ON ${d.quote(table)}${using} (${i.columns})${where}`;
}

/**
 * PostgreSQL: the network SP-GiST index split per address family. One SP-GiST `inet_ops` index
 * over both families returned no row for some lookups on PostgreSQL 15.20 (an IPv6
 * `=`, `>>=` or `<<=` search over 120 IPv6 and 122 IPv4 addresses inserted in address order;
 * a sequential scan found the row); each family alone in its own index answers correctly.
 */
export function spgistPerFamilyStatements(d: Dialect): string[] {
  return TABLE_MODELS.filter((m) => m.net).flatMap((m) => {
    const spgist = d.netIndexes(m).filter((i) => i.using === 'spgist');
    return spgist.length
      ? [
          `DROP INDEX IF EXISTS ${d.quote(`ix_${m.table}_net_spgist`)}`,
          ...spgist.map((i) => createIndex(d, m.table, i)),
        ]
      : [];
  });
}

function tagsTable(d: Dialect, m: TableModel): string[] {
  const q = d.quote;
  const body = [
    `${q('obj_id')} ${idRefType(d, m.resource.name)} NOT NULL`,
    `${q('tag_id')} ${idRefType(d, 'tag')} NOT NULL`,
    `CONSTRAINT ${q(`pk_${m.tagsTable}`)} PRIMARY KEY (${q('obj_id')}, ${q('tag_id')})`,
    // Rows go with their object; a tag cannot be deleted while assigned.
    `CONSTRAINT ${q(m.tagObjFk!)} FOREIGN KEY (${q('obj_id')}) REFERENCES ${q(m.table)} (${q('id')}) ON DELETE CASCADE`,
    `CONSTRAINT ${q(m.tagFk!)} FOREIGN KEY (${q('tag_id')}) REFERENCES ${q(tableModel('tag').table)} (${q('id')})`,
  ];
  return createTable(d, m.tagsTable!, body, [
    { name: `ix_${m.tagsTable}_tag`, columns: `${q('tag_id')}, ${q('obj_id')}` },
  ]);
}

/** Text columns people search by (`search: true` in the registry): substring indexes for `ic` & co. */
export function substringIndexStatements(d: Dialect, models: readonly TableModel[] = TABLE_MODELS): string[] {
  const out: string[] = [];
  for (const m of models)
    for (const c of m.columns) {
      if (c.field.search && (c.field.kind === 'string' || c.field.kind === 'slug'))
        out.push(...d.substringIndex(m.table, c.name));
    }
  // The extension statement repeats per column: keep its first occurrence only.
  return out.filter((s, i) => out.indexOf(s) === i);
}

/** Every statement creating the inventory schema, in dependency order. */
export function ddlStatements(d: Dialect, models: readonly TableModel[] = TABLE_MODELS): string[] {
  const out: string[] = [];
  for (const m of models) {
    out.push(...createTable(d, m.table, [...columnDefs(d, m), ...constraintDefs(d, m)], indexDefs(d, m)));
    if (m.tagsTable) out.push(...tagsTable(d, m));
  }
  // References closing a cycle, once every table they join exists.
  for (const m of models)
    for (const f of m.fks.filter((x) => x.deferred))
      out.push(...d.addForeignKeyIfMissing(m.table, f.name, f.field, tableModel(f.target).table));
  return out;
}

/** A field's column added to its table on databases created before the field was in the registry. */
function addedColumn(d: Dialect, m: TableModel, field: string): string[] {
  const col = m.byField.get(field)!;
  return d.addColumnIfMissing(m.table, col.name, d.columnType(col));
}

/**
 * Row versions on inventory tables written before they had one: the column, and version 1 for
 * every row (a fresh database has the column from the first migration: nothing to add then).
 */
export function rowVersionStatements(d: Dialect): string[] {
  return TABLE_MODELS.filter((m) => m.byField.has('version') && m.resource.inventory !== false).flatMap((m) => [
    ...addedColumn(d, m, 'version'),
    `UPDATE ${d.quote(m.table)} SET ${d.quote('version')} = 1 WHERE ${d.quote('version')} IS NULL`,
  ]);
}

/** History rows store what an event changed: the column for it on databases written before. */
export function historyPatchStatements(d: Dialect): string[] {
  return addedColumn(d, tableModel('history'), 'context_patch');
}

/**
 * Resources added to the registry after databases were written: their tables as the first migration
 * makes them, with the substring indexes of the second (a database created since has them all, and
 * every statement is then a no-op). `resources` in dependency order.
 */
export function addedTableStatements(d: Dialect, resources: readonly string[]): string[] {
  const models = resources.map(tableModel);
  return [...ddlStatements(d, models), ...substringIndexStatements(d, models)];
}

/** A table's plain indexes (as the first migration names them), each made only if missing. */
export function addedIndexStatements(d: Dialect, resource: string): string[] {
  const m = tableModel(resource);
  return m.indexes.flatMap((i) => d.addIndexIfMissing(m.table, i.name, i.columns));
}

/**
 * Fields whose column changed after databases were written (a longer text, a value now optional):
 * each column restated as the registry describes it today.
 */
export function changedFieldStatements(d: Dialect, resource: string, fields: readonly string[]): string[] {
  const m = tableModel(resource);
  return fields.flatMap((name) => {
    const col = m.byField.get(name)!;
    return d.changeColumn(m.table, col.name, d.columnType(col), col.notNull);
  });
}

/**
 * Fields added to a resource after databases were written: each one's column, and for a foreign key
 * its index and constraint, named as the first migration names them (so nothing is added twice).
 */
export function addedFieldStatements(d: Dialect, resource: string, fields: readonly string[]): string[] {
  const m = tableModel(resource);
  return fields.flatMap((name) => {
    const fk = m.fks.find((f) => f.field === name),
      index = m.indexes.find((i) => i.columns.length === 1 && i.columns[0] === name);
    const check = d.columnCheck(m.byField.get(name)!);
    return [
      ...addedColumn(d, m, name),
      // As the table's CREATE names it (constraintDefs): a JSON column's json_valid on MySQL.
      ...(check ? d.addCheckIfMissing(m.table, `ck_${m.table}_${m.byField.get(name)!.name}`, check) : []),
      ...(index ? d.addIndexIfMissing(m.table, index.name, index.columns) : []),
      ...(fk ? d.addForeignKeyIfMissing(m.table, fk.name, fk.field, tableModel(fk.target).table) : []),
    ];
  });
}
