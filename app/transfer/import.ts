// A CSV / YAML import: rows become write bodies (engine/transfer/cells.ts), checked and written by the
// Inventory's own create and update paths, staged and then applied as one batch: all or nothing. A row
// with an id updates that object (only the cells given); an update that changes nothing writes nothing.
import { setImmediate } from 'node:timers/promises';
import type { Inventory } from '../inventory.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import { columnsOf, type Column } from '../../engine/transfer/columns.js';
import { inputOf, type RowInput } from '../../engine/transfer/cells.js';
import { uniqueGroups } from '../../engine/schema/unique-groups.js';
import { idStyleOf } from '../../engine/schema/id-style.js';
import { StorageConflict, type Row, type WriteOp } from '../../storage/types.js';
import { notFound } from './refs.js';
import { byField, findByAny, findTags, refKey, resolveRefs } from './ref-lookup.js';
import { remember, Stage, staging, stagingInventory } from './staged.js';

/** One problem, by data row (the first row under the header is 1; 0 is the header) and column. */
export interface ImportError {
  readonly row: number;
  readonly field: string | null;
  readonly detail: string;
}

export interface ImportCounts {
  readonly created: number;
  readonly updated: number;
  readonly unchanged: number;
}

export type ImportResult =
  | ({ readonly ok: true } & ImportCounts)
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

/** A row's body with its references as ids (found beforehand for the whole batch: ref-lookup.ts), or its
 * errors. */
function bodyOf(inv: Inventory, input: RowInput, row: number, found: Map<string, string>) {
  const body = { ...input.body };
  const errors: ImportError[] = [];
  for (const ref of input.refs) {
    const hit = found.get(refKey(ref));
    if (hit !== undefined) body[ref.field.name] = inv.storage.ids.toJson(hit);
    else errors.push({ row, field: ref.field.name, detail: notFound(ref) });
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

/** Rows staged between two turns of the event loop. */
const YIELD_ROWS = 32;

type Pending = { readonly input: RowInput; readonly row: number };

/**
 * Stages rows in waves: a row whose reference names an object another row of the file creates waits for it.
 * Rows still waiting when no wave makes progress are returned (`last`: reported as errors instead), to be
 * tried again with the next batch of the file. The stage holds the writes.
 */
async function stageRows(run: StagingRun, pending: Pending[], last: boolean): Promise<Pending[]> {
  const { inv, r, stage, found, errors } = run;
  const staged = stagingInventory(inv);
  const createdRow = new Map<string, number>();
  const idStyle = idStyleOf(r, inv.storage.ids);
  let waiting: Pending[] = [];
  await staging(stage, async () => {
    while (pending.length) {
      const blocked: (Pending & { errors: ImportError[] })[] = [];
      const creates: { body: unknown; row: number }[] = [];
      const updates: { id: string; body: unknown; row: number }[] = [];
      // A miss is looked for again in the next wave: a row of this one may create it.
      await resolveRefs(
        staged.storage,
        pending.flatMap((p) => p.input.refs),
        found,
      );
      await findTags(
        staged.storage,
        pending.map((p) => p.input.body),
      );
      const ids = pending.map((p) => (p.input.id === null ? null : idStyle.parse(p.input.id)));
      const named = ids.filter((id): id is string => id !== null);
      const read = named.length ? await staged.storage.getMany(r.name, named) : [];
      remember(r.name, 'id', [], read); // the update of each row reads it again: from the stage
      const existing = new Set(read.map((o) => o.id));
      for (const [i, p] of pending.entries()) {
        // Rows from memory resolve at once: let other requests in now and then.
        if (i % YIELD_ROWS === YIELD_ROWS - 1) await setImmediate();
        const body = bodyOf(staged, p.input, p.row, found);
        const id = ids[i];
        if (Array.isArray(body)) blocked.push({ ...p, errors: body });
        else if (p.input.id === null) creates.push({ body, row: p.row });
        else if (id === null || !existing.has(id))
          errors.push({ row: p.row, field: 'id', detail: `No ${r.label.toLowerCase()} with id ${p.input.id}.` });
        else updates.push({ id, body, row: p.row });
      }
      if (!creates.length && !updates.length) {
        if (last) for (const b of blocked) errors.push(...b.errors);
        else waiting = blocked.map((b) => ({ input: b.input, row: b.row }));
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
  return waiting;
}

/** Created rows that clash with a stored or another staged row on a unique field or group (the store would
 * refuse the whole batch; this names the row). */
async function uniqueClashes(r: ResourceDef, stage: Stage, createdRow: Map<string, number>, staged: Inventory) {
  const out: ImportError[] = [];
  await staging(stage, async () => {
    const mine = [...createdRow].map(([id, row]) => ({ id, row, staged: stage.rows.get(r.name)?.get(id) as Row }));
    for (const g of uniqueGroups(r)) {
      const keyed = mine.filter((m) => g.fields.every((n) => m.staged[n] !== null && m.staged[n] !== undefined));
      if (!keyed.length) continue;
      const values = [...new Set(keyed.map((m) => m.staged[g.fields[0]]))];
      const byValue = byField(await findByAny(staged.storage, r, g.fields[0], values), g.fields[0]);
      for (const m of keyed) {
        const same = (byValue.get(m.staged[g.fields[0]]) ?? []).filter(
          (o) => o.id !== m.id && g.fields.every((n) => o[n] === m.staged[n]),
        );
        if (same.length) out.push({ row: m.row, field: g.field, detail: g.message });
      }
    }
  });
  return out.sort((a, b) => a.row - b.row);
}

/** What an import has staged so far: its writes, the references it found, the rows' errors. */
interface StagingRun {
  readonly inv: Inventory;
  readonly r: ResourceDef;
  readonly stage: Stage;
  readonly found: Map<string, string>;
  readonly errors: ImportError[];
}

/**
 * An import fed a batch of records at a time (a background job reads its file in parts): each batch is
 * staged as it comes; `finish` writes every staged row in one batch with `extra` (a job's own end), or
 * nothing. Staged rows are held until then; the records of a batch are not.
 */
export class ImportRun implements StagingRun {
  readonly stage = new Stage();
  readonly found = new Map<string, string>();
  readonly errors: ImportError[] = [];
  private waiting: Pending[] = [];
  constructor(
    readonly inv: Inventory,
    readonly r: ResourceDef,
    private readonly columns: readonly Column[],
  ) {}

  /** Stages `records`, the first of them being data row `firstRow` of the file. */
  async add(records: readonly Readonly<Record<string, string>>[], firstRow: number): Promise<void> {
    const batch = records.map((cells, i) => ({ input: inputOf(this.columns, cells), row: firstRow + i }));
    this.waiting = await stageRows(this, [...this.waiting, ...batch], false);
  }

  /** Writes what was staged and `extra` (given the counts) at once; or the errors, and nothing written. */
  async finish(extra: (counts: ImportCounts) => readonly WriteOp[] = () => []): Promise<ImportResult> {
    if (this.waiting.length) await stageRows(this, this.waiting, true);
    const { errors, stage, r } = this;
    if (errors.length) return { ok: false, status: 400, errors: errors.sort((a, b) => a.row - b.row) };
    const ops = stage.ops.filter((op) => !unchanged(op));
    const updated = ops.filter((o) => o.op === 'update' && o.resource === r.name).length;
    const created = ops.filter((o) => o.op === 'create' && o.resource === r.name).length;
    const counts = { created, updated, unchanged: stage.ops.length - ops.length };
    const more = extra(counts);
    try {
      if (ops.length || more.length) await this.inv.storage.apply([...ops, ...more]);
    } catch (e) {
      if (!(e instanceof StorageConflict)) throw e;
      const detail =
        e.field === 'version'
          ? 'An object changed while the file was imported; nothing was written. Try again.'
          : e.message;
      return { ok: false, status: e.field === 'version' ? 409 : 400, errors: [{ row: 0, field: e.field, detail }] };
    }
    return { ok: true, ...counts };
  }
}

/** Imports `records` (cells by column name) into `r`: all written, or the errors and nothing written. */
export async function importRecords(
  inv: Inventory,
  r: ResourceDef,
  columns: readonly Column[],
  records: readonly Readonly<Record<string, string>>[],
): Promise<ImportResult> {
  const run = new ImportRun(inv, r, columns);
  await run.add(records, 1);
  return run.finish();
}
