// Writes an import into its target in atomic batches, without change records (the rows are the
// inventory as NetBox had it, not changes made here), and keeps what it needs to undo them: an
// import is all or nothing, but a store's batches are each atomic only by themselves, so a failure
// part-way deletes what the earlier batches wrote (the target was empty before, so the undo leaves
// it empty again).
import { TRUE } from '../../engine/plan/nodes.js';
import { RESOURCES } from '../../engine/schema/registry.js';
import type { Row, Storage, WriteOp } from '../types.js';
import { unfinishedImport, unfinishedMark, unfinishedMarkRemoved } from './unfinished.js';

/** The target holds objects already or is not an integer store: one line, and it is left as it was. */
export class TargetRefused extends Error {}

/** Refuses a target that cannot take NetBox's ids: a uuid store, or one that holds any row. */
export async function checkTarget(target: Storage, url: string): Promise<void> {
  const unfinished = await unfinishedImport(target, url);
  if (unfinished) throw new TargetRefused(unfinished);
  if (target.ids.name !== 'integer')
    throw new TargetRefused(
      `the target ${url} is a ${target.ids.name} store; the import keeps NetBox's integer ids ` +
        'and needs a new or empty integer store',
    );
  const held: string[] = [];
  for (const r of RESOURCES) {
    const n = (await target.find(r.name, TRUE, { limit: 1, offset: 0, ordering: [] })).count;
    if (n) held.push(`${r.name} (${n})`);
  }
  if (held.length)
    throw new TargetRefused(`the target ${url} already holds objects: ${held.join(', ')}; import into an empty store`);
}

export class ImportWriter {
  /** What was written, in order: the undo deletes it backwards. */
  private readonly written: { resource: string; ids: string[] }[] = [];
  /** Rows written with their deferred references cleared, to be filled once their targets exist. */
  private readonly later: { resource: string; row: Row }[] = [];
  private readonly pending: WriteOp[] = [];
  /** The first batch carries the mark of an unfinished import (unfinished.ts); `finish` takes it away. */
  private marked = false;

  constructor(
    private readonly target: Storage,
    private readonly batch: number,
  ) {}

  /** Queues a create; rows holding a deferred reference (a device's primary IP) get it in `finish`. */
  async create(resource: string, row: Row, deferred: readonly string[]): Promise<void> {
    let first = row;
    if (deferred.some((n) => row[n] !== null)) {
      this.later.push({ resource, row });
      // `deferred` names the derived primary_ip too, so it is cleared with the fields it follows.
      first = { ...row, ...Object.fromEntries(deferred.map((n) => [n, null])) };
    }
    this.pending.push({ op: 'create', resource, row: first });
    let last = this.written[this.written.length - 1];
    if (last?.resource !== resource) this.written.push((last = { resource, ids: [] }));
    last.ids.push(row.id);
    if (this.pending.length >= this.batch) await this.flush();
  }

  async flush(): Promise<void> {
    if (!this.pending.length) return;
    const mark = this.marked ? [] : [unfinishedMark()];
    await this.target.apply([...mark, ...this.pending.splice(0)], { log: false });
    this.marked = true;
  }

  /** The deferred references, then the counters moved past the ids written, then the planner's statistics. */
  async finish(): Promise<void> {
    await this.flush();
    for (let i = 0; i < this.later.length; i += this.batch)
      await this.target.apply(
        this.later.slice(i, i + this.batch).map(({ resource, row }) => ({ op: 'update', resource, row })),
        { log: false },
      );
    await this.target.advanceIdCounters();
    // Whole now: the mark goes last, so a store holding every row but not the counters is still refused.
    const mark = await unfinishedMarkRemoved(this.target);
    if (mark.length) await this.target.apply(mark, { log: false });
    await this.target.afterBulkLoad();
  }

  /**
   * Puts the target back as it was (empty): a database store's own `truncateAll` where it has one,
   * else the rows written deleted in reverse order (deferred references cleared first).
   */
  async undo(): Promise<void> {
    this.pending.length = 0;
    const t = this.target;
    if ('truncateAll' in t && typeof t.truncateAll === 'function') {
      await t.truncateAll();
      return;
    }
    const clear = this.later.map(({ resource, row }) => ({ resource, id: row.id }));
    for (let i = 0; i < clear.length; i += this.batch) {
      const ids = clear.slice(i, i + this.batch);
      const rows = await Promise.all(ids.map(({ resource, id }) => t.get(resource, id)));
      const ops: WriteOp[] = rows.flatMap((row, j) =>
        row ? [{ op: 'update', resource: ids[j].resource, row: clearDeferred(ids[j].resource, row) }] : [],
      );
      if (ops.length) await t.apply(ops, { log: false });
    }
    for (const { resource, ids } of [...this.written].reverse())
      for (let end = ids.length; end > 0; end -= this.batch) {
        const some = ids.slice(Math.max(0, end - this.batch), end).reverse();
        const there = new Set((await t.getMany(resource, some)).map((r) => r.id));
        const ops: WriteOp[] = some.filter((id) => there.has(id)).map((id) => ({ op: 'delete', resource, id }));
        if (ops.length) await t.apply(ops, { log: false });
      }
    const mark = await unfinishedMarkRemoved(t);
    if (mark.length) await t.apply(mark, { log: false });
  }
}

function clearDeferred(resource: string, row: Row): Row {
  const r = RESOURCES.find((x) => x.name === resource)!;
  const out: Row = { ...row };
  for (const f of r.fields) if (f.deferred) out[f.name] = null;
  return out;
}
