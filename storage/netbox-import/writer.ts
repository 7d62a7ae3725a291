// Writes an import into its target in atomic batches, without change records (the rows are the
// inventory as NetBox had it, not changes made here), and keeps what it needs to undo them: an
// import is all or nothing, but a store's batches are each atomic only by themselves, so a failure
// part-way deletes what the earlier batches wrote. The target is claimed before anything is checked
// or written (the mark of unfinished.ts, unique in the store): of two imports into one store, one
// claims it and the other is refused, so neither's undo can remove the other's rows.
import { TRUE } from '../../engine/plan/nodes.js';
import { RESOURCES } from '../../engine/schema/registry.js';
import { CommitUnknown, StorageConflict, type Row, type Storage, type WriteOp } from '../types.js';
import { MARK_RESOURCE, unfinishedImport, unfinishedMark, unfinishedMarkRemoved } from './unfinished.js';

/** The target holds objects already or is not an integer store: one line, and it is left as it was. */
export class TargetRefused extends Error {}

/** A target an import holds: checked empty after its mark was written, so no other import writes into it. */
export interface ClaimedTarget {
  readonly storage: Storage;
  readonly url: string;
}

/** Rows per resource (every resource, bookkeeping included). */
async function rowCounts(target: Storage): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const r of RESOURCES)
    out.set(r.name, (await target.find(r.name, TRUE, { limit: 1, offset: 0, ordering: [] })).count);
  return out;
}

/**
 * Claims a target that can take NetBox's ids: an integer store holding no row. The mark goes in
 * first (a second import's mark is refused by the store's unique key), then the target is checked
 * empty; a refused target is left as it was (the mark taken away again).
 */
export async function claimTarget(target: Storage, url: string): Promise<ClaimedTarget> {
  const unfinished = await unfinishedImport(target, url);
  if (unfinished) throw new TargetRefused(unfinished);
  if (target.ids.name !== 'integer')
    throw new TargetRefused(
      `the target ${url} is a ${target.ids.name} store; the import keeps NetBox's integer ids ` +
        'and needs a new or empty integer store',
    );
  try {
    await target.apply([unfinishedMark()], { log: false });
  } catch (e) {
    if (!(e instanceof StorageConflict)) throw e;
    throw new TargetRefused((await unfinishedImport(target, url)) ?? e.message);
  }
  const counts = await rowCounts(target);
  counts.set(MARK_RESOURCE, counts.get(MARK_RESOURCE)! - 1);
  const held = [...counts].filter(([, n]) => n > 0).map(([name, n]) => `${name} (${n})`);
  if (held.length) {
    await target.apply(await unfinishedMarkRemoved(target), { log: false });
    throw new TargetRefused(`the target ${url} already holds objects: ${held.join(', ')}; import into an empty store`);
  }
  return { storage: target, url };
}

export class ImportWriter {
  /** What was written, in order: the undo deletes it backwards. */
  private readonly written: { resource: string; ids: string[] }[] = [];
  /** Rows of each resource in batches the store acknowledged (the undo's check that the target holds only these). */
  private readonly committed = new Map<string, number>([[MARK_RESOURCE, 1]]);
  /** Rows written with their deferred references cleared, to be filled once their targets exist. */
  private readonly later: { resource: string; row: Row }[] = [];
  private readonly pending: WriteOp[] = [];
  private readonly target: Storage;

  constructor(
    claimed: ClaimedTarget,
    private readonly batch: number,
  ) {
    this.target = claimed.storage;
  }

  /** Queues a create; rows holding a deferred reference (a device's primary IP) get it in `finish`. */
  async create(resource: string, row: Row, deferred: readonly string[]): Promise<void> {
    let first = row;
    if (deferred.some((n) => row[n] !== null)) {
      this.later.push({ resource, row });
      // `deferred` names the derived primary_ip too, so it is cleared with the fields it follows.
      first = { ...row, ...Object.fromEntries(deferred.map((n) => [n, null])) };
    }
    this.pending.push({ op: 'create', resource, row: first });
    if (this.pending.length >= this.batch) await this.flush();
  }

  /** Writes the queued creates. A refused batch wrote nothing, so its ids are not the undo's to delete (another
   * writer's row may hold one); a batch whose commit is unknown may have written, so they are. */
  async flush(): Promise<void> {
    if (!this.pending.length) return;
    const ops = this.pending.splice(0);
    try {
      await this.target.apply(ops, { log: false });
    } catch (e) {
      if (e instanceof CommitUnknown) this.wrote(ops);
      throw e;
    }
    this.wrote(ops);
    for (const op of ops) this.committed.set(op.resource, (this.committed.get(op.resource) ?? 0) + 1);
  }

  private wrote(ops: readonly WriteOp[]): void {
    for (const op of ops) {
      let last = this.written[this.written.length - 1];
      if (last?.resource !== op.resource) this.written.push((last = { resource: op.resource, ids: [] }));
      last.ids.push(op.op === 'create' ? op.row.id : '');
    }
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
   * Puts the target back as it was (empty): a database store's own `truncateAll` when the target holds
   * exactly the rows this import's acknowledged batches wrote (nothing else wrote into it meanwhile, and
   * no batch's fate is unknown), else the rows written deleted by id in reverse order (deferred references
   * cleared first), leaving whatever else is there.
   */
  async undo(): Promise<void> {
    this.pending.length = 0;
    const t = this.target;
    if ('truncateAll' in t && typeof t.truncateAll === 'function' && (await this.holdsOnlyOurs())) {
      await t.truncateAll();
      return;
    }
    const ours = new Set(this.written.flatMap((w) => w.ids.map((id) => `${w.resource} ${id}`)));
    const clear = this.later
      .map(({ resource, row }) => ({ resource, id: row.id }))
      .filter(({ resource, id }) => ours.has(`${resource} ${id}`));
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

  private async holdsOnlyOurs(): Promise<boolean> {
    for (const [name, n] of await rowCounts(this.target)) if (n !== (this.committed.get(name) ?? 0)) return false;
    return true;
  }
}

function clearDeferred(resource: string, row: Row): Row {
  const r = RESOURCES.find((x) => x.name === resource)!;
  const out: Row = { ...row };
  for (const f of r.fields) if (f.deferred) out[f.name] = null;
  return out;
}
