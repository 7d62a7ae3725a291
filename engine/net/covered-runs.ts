// Runs of touching blocks in a sorted containment sub-index, so that a free-space walk crosses a
// run of adjacent blocks (100,000 /26s in a row) in one step instead of one step per block.
// Built at the first walk after a rebuild (O(n)); entries removed since are counted in a Fenwick
// tree, and a run that holds one is walked block by block instead.
import type { AddrHex } from './ip.js';

/** A covered stretch of addresses, first to last (hex); false stops the walk. */
export type SpanVisitor = (first: AddrHex, last: AddrHex) => boolean;

/** The sorted entries of a sub-index, as the runs need them (positions in key order). */
export interface RunEntries {
  /** How many sorted positions there are. */
  size(): number;
  /** Does entry j (j > i) start inside entry i's block? */
  inside(i: number, j: number): boolean;
  /** Does entry j start at the address right after entry i's block? */
  adjacent(i: number, j: number): boolean;
  /** The first position whose network lies past entry i's block (n when none). */
  after(i: number): number;
  /** False for an entry removed since the last rebuild. */
  live(i: number): boolean;
}

/** Per sorted position, the last entry of the run of touching blocks that starts there. */
function buildRunEnds(e: RunEntries): Int32Array {
  const n = e.size();
  const after = new Int32Array(n),
    last = new Int32Array(n);
  for (let i = n - 1; i >= 0; i--) {
    // Entries inside i are a contiguous stretch after it: skip them subtree by subtree.
    let j = i + 1;
    while (j < n && e.inside(i, j)) j = after[j];
    after[i] = j;
    last[i] = j < n && e.adjacent(i, j) ? last[j] : i;
  }
  return last;
}

export class CoverRuns {
  private last: Int32Array | null = null;
  /** Removed sorted positions since the last rebuild (Fenwick tree, 1-based); null: none. */
  private dead: Int32Array | null = null;

  /** The sorted positions changed (a rebuild). */
  reset(): void {
    this.last = null;
    this.dead = null;
  }

  /** The sorted entry at `pos` (of n) was removed; it stays as a tombstone until the next rebuild. */
  killed(pos: number, n: number): void {
    const t = (this.dead ??= new Int32Array(n + 1));
    for (let i = pos + 1; i < t.length; i += i & -i) t[i]++;
  }

  /** Removed positions in [0, k). */
  private deadBefore(k: number): number {
    const t = this.dead!;
    let s = 0;
    for (let i = k; i > 0; i -= i & -i) s += t[i];
    return s;
  }

  /**
   * Covered stretches of the entries from position `start` on, while `within(p)` holds, in
   * address order: visit(first, last) stands for the addresses from entry first's network to entry
   * last's broadcast. False from visit stops the walk.
   */
  walk(
    e: RunEntries,
    start: number,
    within: (p: number) => boolean,
    visit: (first: number, last: number) => boolean,
  ): void {
    const last = (this.last ??= buildRunEnds(e));
    const n = e.size();
    for (let p = start; p < n && within(p);) {
      if (!e.live(p)) {
        p++;
        continue;
      }
      const q = last[p];
      const end = e.after(q);
      if (!this.dead || this.deadBefore(end) === this.deadBefore(p)) {
        if (!visit(p, q)) return;
        p = end;
      } else {
        if (!visit(p, p)) return;
        p = e.after(p);
      }
    }
  }
}

/**
 * The sorted entries' stretches and the pending adds' blocks (each list in address order) as one
 * walk in address order.
 */
export function visitMerged(
  pending: readonly (readonly [AddrHex, AddrHex])[],
  sorted: (v: SpanVisitor) => void,
  visit: SpanVisitor,
): void {
  let k = 0,
    going = true;
  sorted((lo, hi) => {
    while (going && k < pending.length && pending[k][0] < lo) going = visit(pending[k][0], pending[k++][1]);
    if (going) going = visit(lo, hi);
    return going;
  });
  while (going && k < pending.length) going = visit(pending[k][0], pending[k++][1]);
}
