// A row as CSV / YAML cells (export) and cells as the JSON body the write path takes (import). Pure:
// referenced objects come from `lookup` (the caller reads them), references read back come out as
// natural keys for the caller to find.
import { toBoolean, toInteger } from '../schema/normalize.js';
import type { CustomFieldDef, FieldDef } from '../schema/types.js';
import type { Column, NaturalKey } from './columns.js';

type Row = Readonly<Record<string, unknown>> & { readonly id: string };
export type Lookup = (resource: string, id: string) => Row | undefined;

/** What an export knows of referenced objects: the rows, and whether a weak key names the object alone. */
export interface Refs {
  readonly lookup: Lookup;
  readonly named: (resource: string, id: string) => boolean;
}

/** The cells a key takes: its own, then its parents'. */
export const keySize = (k: NaturalKey): number => 1 + k.parents.reduce((n, p) => n + keySize(p.key), 0);

/** The keys, at any depth, of the columns' references that name an object only where the data says so. */
export function weakKeys(columns: readonly Column[]): Map<string, NaturalKey> {
  const out = new Map<string, NaturalKey>();
  const walk = (k: NaturalKey) => {
    if (!k.strong) out.set(k.target.name, k);
    for (const p of k.parents) if (!out.has(p.key.target.name)) walk(p.key);
  };
  for (const c of columns) if (c.kind === 'ref') walk(c.key);
  return out;
}

/** A cell a spreadsheet would run as a formula starts with one of these: exported with a leading `'`. */
const FORMULA = /^[=+\-@]/;
/** ... and an import strips that `'` (one, and only before one of them). */
const GUARDED = /^'[=+\-@]/;

export const guard = (text: string): string => (FORMULA.test(text) ? `'${text}` : text);
export const unguard = (text: string): string => (GUARDED.test(text) ? text.slice(1) : text);

const isNumberCell = (c: Column) =>
  (c.kind === 'value' && c.field.kind === 'integer') || (c.kind === 'cf' && c.def.type === 'integer');

function plain(v: unknown, kind: FieldDef['kind'] | CustomFieldDef['type']): string {
  if (v === null || v === undefined) return '';
  if (kind === 'json') return JSON.stringify(v);
  if (Array.isArray(v)) return v.map(String).join(',');
  return String(v);
}

/** The values naming the object `id` by `key` (the reference's cell, then its parents' in column order; a null
 * parent's empty), or null when they cannot (then the id names it). */
function keyCells(key: NaturalKey, id: unknown, refs: Refs): string[] | null {
  const t = typeof id === 'string' ? refs.lookup(key.target.name, id) : undefined;
  const own = t?.[key.field];
  if (!t || own === null || own === undefined || own === '') return null;
  if (!key.strong && !refs.named(key.target.name, t.id)) return null;
  const out = [String(own)];
  for (const p of key.parents) {
    const v = t[p.fk];
    const got = v === null || v === undefined ? Array<string>(keySize(p.key)).fill('') : keyCells(p.key, v, refs);
    if (!got) return null;
    out.push(...got);
  }
  return out;
}

/** Ids of referenced objects the row's cells need that `lookup` lacks, by resource (one level at a time). */
export function missingRefs(
  columns: readonly Column[],
  rows: readonly Row[],
  lookup: Lookup,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const need = (resource: string, id: unknown) => {
    if (typeof id !== 'string' || lookup(resource, id)) return false;
    let s = out.get(resource);
    if (!s) out.set(resource, (s = new Set()));
    s.add(id);
    return true;
  };
  const walk = (key: NaturalKey, id: unknown) => {
    if (need(key.target.name, id)) return;
    const t = lookup(key.target.name, id as string);
    for (const p of key.parents) if (t) walk(p.key, t[p.fk]);
  };
  for (const row of rows)
    for (const c of columns) {
      if (c.kind === 'ref') walk(c.key, row[c.field.name]);
      if (c.kind === 'tags') for (const t of (row.tags as string[] | undefined) ?? []) need('tag', t);
    }
  return out;
}

type Cell = (row: Row, out: string[]) => void;

/** A guarded cell: a formula's first character gets a `'` before it (a char-code test: it runs per cell). */
const guarded = (text: string): string => {
  const c = text.charCodeAt(0);
  return c === 61 || c === 43 || c === 45 || c === 64 ? `'${text}` : text;
};

/** How one column's cell is written: what to read, and how, decided once per export. */
function cellOf(c: Column, refs: Refs): Cell {
  const done = isNumberCell(c) ? (t: string) => t : guarded;
  if (c.kind === 'id') return (row, out) => out.push(done(row.id));
  if (c.kind === 'value') {
    const { name, kind } = c.field;
    return (row, out) => out.push(done(plain(row[name], kind)));
  }
  if (c.kind === 'tags')
    return (row, out) => {
      const tags = (row.tags as string[] | undefined) ?? [];
      out.push(done(tags.map((t) => String(refs.lookup('tag', t)?.slug ?? t)).join(',')));
    };
  if (c.kind === 'cf') {
    const { name, type } = c.def;
    return (row, out) =>
      out.push(done(plain((row.custom_fields as Record<string, unknown> | undefined)?.[name], type)));
  }
  return (_row, out) => out.push(''); // a parent column without its reference (not kept by `fields`)
}

/** A reference's cell and the `n` parent columns after it: filled from the key, or empty when the id names
 * the object. */
function refCell(c: Column & { kind: 'ref' }, n: number, refs: Refs): Cell {
  const name = c.field.name;
  return (row, out) => {
    const v = row[name];
    const named = v !== null && v !== undefined ? keyCells(c.key, v, refs) : null;
    const cells = named ?? [v === null || v === undefined ? '' : String(v)];
    for (let k = 0; k <= n; k++) out.push(guarded(cells[k] ?? ''));
  };
}

/** The writer of a row's cells in column order, built once per export (not per row). */
export function cellWriter(columns: readonly Column[], refs: Refs): (row: Row) => string[] {
  const cells: Cell[] = [];
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i];
    if (c.kind !== 'ref') {
      cells.push(cellOf(c, refs));
      continue;
    }
    const part = (x: Column | undefined) => x?.kind === 'parent' && x.field === c.field;
    let n = 0;
    while (part(columns[i + 1 + n])) n++;
    cells.push(refCell(c, n, refs));
    i += n;
  }
  return (row) => {
    const out: string[] = [];
    for (const cell of cells) cell(row, out);
    return out;
  };
}

/** A reference read from a row: the natural key's cells (the reference's, then its parents') to find. */
export interface RefCells {
  readonly field: FieldDef;
  readonly key: NaturalKey;
  readonly cells: readonly string[];
}

export interface RowInput {
  readonly id: string | null;
  readonly body: Record<string, unknown>;
  readonly refs: readonly RefCells[];
}

function typed(text: string, kind: FieldDef['kind'] | CustomFieldDef['type']): unknown {
  if (kind === 'integer') return toInteger(text) ?? text;
  if (kind === 'boolean') return toBoolean(text) ?? text;
  if (kind === 'string_list' || kind === 'multi-select') return text.split(',').map((s) => s.trim());
  if (kind === 'json')
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  return text;
}

/** A row's cells (by column name) as a write body; empty cells are left out (unset on create, unchanged
 * on update). */
export function inputOf(columns: readonly Column[], cells: Readonly<Record<string, string>>): RowInput {
  const body: Record<string, unknown> = {};
  const refs: RefCells[] = [];
  const text = (name: string) => unguard(cells[name] ?? '');
  let id: string | null = null;
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i];
    const v = text(c.name);
    if (c.kind === 'ref') {
      const parents = columns.slice(i + 1).filter((x) => x.kind === 'parent' && x.field === c.field);
      if (v !== '') refs.push({ field: c.field, key: c.key, cells: [v, ...parents.map((p) => text(p.name))] });
      continue;
    }
    if (v === '') continue;
    if (c.kind === 'id') id = v;
    else if (c.kind === 'value') body[c.field.name] = typed(v, c.field.kind);
    else if (c.kind === 'tags')
      body.tags = v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    else if (c.kind === 'cf')
      ((body.custom_fields ??= {}) as Record<string, unknown>)[c.def.name] = typed(v, c.def.type);
  }
  return { id, body, refs };
}
