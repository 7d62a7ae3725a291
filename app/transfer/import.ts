// A CSV / YAML import: rows become write bodies (engine/transfer/cells.ts), checked and written by the
// Inventory's own create and update paths, staged and then applied as one batch: all or nothing. A row
// with an id updates that object (only the cells given); an update that changes nothing writes nothing.
import type { Inventory } from '../inventory.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import { columnsOf, type Column } from '../../engine/transfer/columns.js';
import { inputOf, type RowInput } from '../../engine/transfer/cells.js';
import { uniqueGroups } from '../../engine/schema/unique-groups.js';
import { idStyleOf } from '../../engine/schema/id-style.js';
import { StorageConflict, type Row, type WriteOp } from '../../storage/types.js';
import { resolveRef } from './refs.js';
import { Stage, staging, stagingInventory } from './staged.js';

/** One problem, by data row (the first row under the header is 1; 0 is the header) and column. */
export interface ImportError {
  readonly row: number;
  readonly field: string | null;
  readonly detail: string;
}

export type ImportResult =
  | { readonly ok: true; readonly created: number; readonly updated: number; readonly unchanged: number }
  | { readonly ok: false; readonly status: 400 | 409; readonly errors: readonly ImportError[] };

/** Columns the header names that the resource has not (or names twice). */
export function headerErrors(columns: readonly Column[], header: readonly string[]): ImportError[] {
  const known = new Set(columns.map((c) => c.name));
  const seen = new Set<string>();
  const out: ImportError[] = [];
  for (const h of header) {
    if (!known.has(h)) out.push({ row: 0, field: h, detail: `Unknown column "${h}".` });
    else if (seen.has(h)) out.push({ row: 0, field: h, detail: `Column "${h}" is given twice.` });
    seen.add(h);
  }
  return out;
}

/** The resource's columns for an import (its custom fields read anew). */
export async function importColumns(inv: Inventory, r: ResourceDef): Promise<Column[]> {
  return columnsOf(r, await inv.customFieldsFor(r));
}

const fieldErrors = (row: number, errors: unknown): ImportError[] =>
  Object.entries((errors ?? {}) as Record<string, unknown>).map(([field, msgs]) => ({
    row,
    field,
    detail: Array.isArray(msgs) ? msgs.map(String).join(' ') : String(msgs),
  }));

/** A row's body with its references as ids, or its errors. */
async function bodyOf(
  inv: Inventory,
  input: RowInput,
  row: number,
  found: Map<string, string>,
): Promise<Record<string, unknown> | ImportError[]> {
  const body = { ...input.body };
  const errors: ImportError[] = [];
  for (const ref of input.refs) {
    // Found once per import (a miss is looked for again: a later wave may create it).
    const key = JSON.stringify([ref.key.target.name, ref.cells]);
    const hit = found.get(key);
    const got = hit !== undefined ? { id: hit } : await resolveRef(inv.storage, ref);
    if ('id' in got) found.set(key, got.id);
    if ('id' in got) body[ref.field.name] = inv.storage.ids.toJson(got.id);
    else errors.push({ row, field: ref.field.name, detail: got.error });
  }
  return errors.length ? errors : body;
}

/** Whether an update writes the row as it was (the version and time it would set aside). */
function unchanged(op: WriteOp): boolean {
  if (op.op !== 'update' || !op.before) return false;
  const keys = new Set([...Object.keys(op.row), ...Object.keys(op.before)]);
  keys.delete('last_updated');
  keys.delete('version');
  return [...keys].every((k) => JSON.stringify(op.row[k] ?? null) === JSON.stringify(op.before![k] ?? null));
}

/**
 * Stages rows in waves: a row whose reference names an object another row of the file creates waits for it.
 * Returns the errors; the stage holds the writes.
 */
async function stageRows(inv: Inventory, r: ResourceDef, inputs: readonly RowInput[], stage: Stage) {
  const staged = stagingInventory(inv);
  const errors: ImportError[] = [];
  const createdRow = new Map<string, number>();
  const ids = idStyleOf(r, inv.storage.ids);
  let pending = inputs.map((input, i) => ({ input, row: i + 1 }));
  const found = new Map<string, string>();
  await staging(stage, async () => {
    while (pending.length) {
      const blocked: { input: RowInput; row: number; errors: ImportError[] }[] = [];
      const creates: { body: unknown; row: number }[] = [];
      const updates: { id: string; body: unknown; row: number }[] = [];
      for (const p of pending) {
        const body = await bodyOf(staged, p.input, p.row, found);
        if (Array.isArray(body)) blocked.push({ ...p, errors: body });
        else if (p.input.id === null) creates.push({ body, row: p.row });
        else {
          const id = ids.parse(p.input.id);
          if (id === null || !(await staged.storage.get(r.name, id)))
            errors.push({ row: p.row, field: 'id', detail: `No ${r.label.toLowerCase()} with id ${p.input.id}.` });
          else updates.push({ id, body, row: p.row });
        }
      }
      if (!creates.length && !updates.length) {
        for (const b of blocked) errors.push(...b.errors);
        return;
      }
      if (creates.length) {
        const out = await staged.create(
          r,
          creates.map((c) => c.body),
        );
        if (out.ok) out.value.forEach((row, i) => createdRow.set(row.id, creates[i].row));
        else if (Array.isArray(out.errors))
          out.errors.forEach((e, i) => errors.push(...fieldErrors(creates[i].row, e)));
        else errors.push(...fieldErrors(creates[0].row, out.errors));
      }
      if (updates.length) {
        const out = await staged.updateMany(r, updates, true);
        if (!out.ok && Array.isArray(out.errors))
          out.errors.forEach((e, i) => errors.push(...fieldErrors(updates[i].row, e)));
        else if (!out.ok) errors.push(...fieldErrors(updates[0].row, out.errors));
      }
      pending = blocked;
    }
  });
  errors.push(...(await uniqueClashes(r, stage, createdRow, staged)));
  return errors;
}

/** Created rows that clash with a stored or another staged row on a unique field or group (the store would
 * refuse the whole batch; this names the row). */
async function uniqueClashes(r: ResourceDef, stage: Stage, createdRow: Map<string, number>, staged: Inventory) {
  const out: ImportError[] = [];
  await staging(stage, async () => {
    for (const [id, row] of createdRow) {
      const mine = stage.rows.get(r.name)?.get(id) as Row;
      for (const g of uniqueGroups(r)) {
        if (g.fields.some((n) => mine[n] === null || mine[n] === undefined)) continue;
        const same = (await staged.storage.findBy(r.name, g.fields[0], mine[g.fields[0]])).filter(
          (o) => o.id !== id && g.fields.every((n) => o[n] === mine[n]),
        );
        if (same.length) out.push({ row, field: g.field, detail: g.message });
      }
    }
  });
  return out;
}

/** Imports `records` (cells by column name) into `r`: all written, or the errors and nothing written. */
export async function importRecords(
  inv: Inventory,
  r: ResourceDef,
  columns: readonly Column[],
  records: readonly Readonly<Record<string, string>>[],
): Promise<ImportResult> {
  const inputs = records.map((cells) => inputOf(columns, cells));
  const stage = new Stage();
  const errors = await stageRows(inv, r, inputs, stage);
  if (errors.length) return { ok: false, status: 400, errors: errors.sort((a, b) => a.row - b.row) };
  const ops = stage.ops.filter((op) => !unchanged(op));
  const updated = ops.filter((o) => o.op === 'update' && o.resource === r.name).length;
  const created = ops.filter((o) => o.op === 'create' && o.resource === r.name).length;
  const unchangedRows = stage.ops.length - ops.length;
  try {
    if (ops.length) await inv.storage.apply(ops);
  } catch (e) {
    if (!(e instanceof StorageConflict)) throw e;
    const detail =
      e.field === 'version'
        ? 'An object changed while the file was imported; nothing was written. Try again.'
        : e.message;
    return { ok: false, status: e.field === 'version' ? 409 : 400, errors: [{ row: 0, field: e.field, detail }] };
  }
  return { ok: true, created, updated, unchanged: unchangedRows };
}
