// Where a memory store's new ids come from. UUIDs are made as they are asked for (time-ordered); in
// an integer store each resource without `uuidIds` has a counter, the last id it handed out or saw,
// and the next ids are the numbers after it. The counter is never behind the highest id the table
// ever held: every create moves it (ids given in the create too: an import keeps the source's ids),
// a create replayed from the journal at a start moves it as well (a row created and deleted since
// the snapshot still counts), the snapshot carries the counters (a deleted highest row leaves no
// other trace: column-snapshot.ts), and a start moves each past what its table holds. An id handed
// out whose write then failed is not kept across a restart: a gap at most, never the id of a row
// that once committed.
import { RESOURCES } from '../../engine/schema/registry.js';
import type { IdStyle } from '../../engine/schema/id-style.js';
import { timeOrderedId } from '../time-ordered-id.js';
import type { IdCounters } from './column-snapshot.js';

/** Canonical integer ids (engine/schema/id-style.ts): what moves a counter. */
const INTEGER_ID = /^[1-9][0-9]{0,15}$/;

export class NewIds {
  /** Resources counted in this store (none in a UUID store); their last ids. */
  private readonly last = new Map<string, number>();

  constructor(style: IdStyle) {
    if (style.name === 'integer') for (const r of RESOURCES) if (!r.uuidIds) this.last.set(r.name, 0);
  }

  /** `n` new ids for rows of `resource`: the counter's next numbers, or UUIDs where it has none. */
  take(resource: string, n: number): string[] {
    const last = this.last.get(resource);
    if (last === undefined) return Array.from({ length: n }, timeOrderedId);
    this.last.set(resource, last + n);
    return Array.from({ length: n }, (_, i) => String(last + 1 + i));
  }

  /** A row of `resource` with this id was written: the counter is moved up to it. */
  saw(resource: string, id: unknown): void {
    const last = this.last.get(resource);
    if (last === undefined || typeof id !== 'string' || !INTEGER_ID.test(id)) return;
    const n = Number(id);
    if (n > last && n <= Number.MAX_SAFE_INTEGER) this.last.set(resource, n);
  }

  /** A run of created rows (values in `keys` order): the counter is moved up to their ids. */
  sawRun(resource: string, keys: readonly string[], values: readonly (readonly unknown[])[]): void {
    const at = keys.indexOf('id');
    if (at < 0 || !this.last.has(resource)) return;
    for (const row of values) this.saw(resource, row[at]);
  }

  /** Each counter moved up to at least `highest(resource)` (the highest id its table holds). */
  advance(highest: (resource: string) => number): void {
    for (const [resource, last] of this.last) this.last.set(resource, Math.max(last, highest(resource)));
  }

  /** The counters, for the snapshot (empty in a UUID store; counters still at 0 are left out). */
  record(): IdCounters {
    const out: Record<string, number> = {};
    for (const [resource, last] of this.last) if (last > 0) out[resource] = last;
    return out;
  }

  /** Counters a snapshot carried: each moved up to its value (a resource not counted here is ignored). */
  load(ids: IdCounters): void {
    for (const [resource, n] of Object.entries(ids)) {
      const last = this.last.get(resource);
      if (last !== undefined && n > last) this.last.set(resource, n);
    }
  }
}
