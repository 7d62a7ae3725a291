// IPv4 half of the containment index: entries sorted by (network, length) in
// typed-array columns, plus each entry's nearest enclosing entry (parent).
// Removed entries stay in place as tombstones (slot -1) until the next
// rebuild: the forest shape is still valid for the survivors, so a remove
// never forces an O(n) rebuild by itself.
import { walkSorted, type WalkVisitor } from './sorted-walk.js';
import { CoverRuns, visitMerged, type RunEntries, type SpanVisitor } from './covered-runs.js';
import { sortV4Entries } from './radix.js';
import { u32ToHex } from './ip.js';
import { MASK } from './words.js';
import type { SlotTable } from './slot-table.js';

export class V4Index {
  n = 0;
  net: Uint32Array = new Uint32Array(0);
  len: Uint8Array = new Uint8Array(0);
  slot: Int32Array = new Int32Array(0);
  parent: Int32Array = new Int32Array(0);
  // bucket[k] = first position whose network >= k << shift: narrows every binary search to one
  // bucket, so the search touches a few cache lines instead of ~20 scattered ones at 1M entries.
  bucket: Int32Array = new Int32Array(3);
  shift = 31;
  dead = 0;
  // Adds since the last rebuild, unsorted.
  pn = 0;
  pNet: Uint32Array = new Uint32Array(16);
  pLen: Uint8Array = new Uint8Array(16);
  pSlot: Int32Array = new Int32Array(16);
  pDead = 0;
  /** Runs of touching blocks, for free-space walks. */
  private readonly runs = new CoverRuns();

  get live(): number {
    return this.n - this.dead + this.pn - this.pDead;
  }

  /** Rebuild before answering: more pending adds than a query may scan, or too many tombstones. */
  needsRebuild(pendingScanMax = 0): boolean {
    return this.pn > pendingScanMax || (this.dead > 64 && this.dead * 4 > this.n);
  }

  /** Appends a pending entry (network already masked); returns its pending position. */
  addPending(slot: number, net: number, len: number): number {
    if (this.pn === this.pSlot.length) {
      const cap = this.pn * 2;
      this.pNet = grow(this.pNet, new Uint32Array(cap));
      this.pLen = grow(this.pLen, new Uint8Array(cap));
      this.pSlot = grow(this.pSlot, new Int32Array(cap));
    }
    const p = this.pn++;
    this.pNet[p] = net;
    this.pLen[p] = len;
    this.pSlot[p] = slot;
    return p;
  }

  kill(pos: number, pending: boolean): void {
    if (pending) {
      this.pSlot[pos] = -1;
      this.pDead++;
    } else {
      this.slot[pos] = -1;
      this.dead++;
      this.runs.killed(pos, this.n);
    }
  }

  /** Re-sorts live sorted + pending entries; tells `table` every entry's new location. */
  rebuild(table: SlotTable, tag: number): void {
    const m = this.live;
    const net = new Uint32Array(m);
    const len = new Uint8Array(m);
    const slot = new Int32Array(m);
    let k = 0;
    for (let i = 0; i < this.n; i++) {
      if (this.slot[i] < 0) continue;
      net[k] = this.net[i];
      len[k] = this.len[i];
      slot[k++] = this.slot[i];
    }
    for (let i = 0; i < this.pn; i++) {
      if (this.pSlot[i] < 0) continue;
      net[k] = this.pNet[i];
      len[k] = this.pLen[i];
      slot[k++] = this.pSlot[i];
    }
    // Free the old columns before allocating sorted ones (lower peak memory).
    this.net = this.len = this.slot = this.parent = null as never;
    this.pNet = new Uint32Array(16);
    this.pLen = new Uint8Array(16);
    this.pSlot = new Int32Array(16);
    this.pn = this.pDead = this.dead = 0;
    this.runs.reset();

    sortV4Entries(net, len, slot, m);
    this.n = m;
    this.net = net;
    this.len = len;
    this.slot = slot;
    this.parent = buildParents(net, len, m);
    this.buildBuckets();
    for (let i = 0; i < m; i++) table.update(slot[i], i * 4 + tag);
  }

  /** Does entry i contain address x? */
  private covers(i: number, x: number): boolean {
    return ((this.net[i] ^ x) & MASK[this.len[i]]) === 0;
  }

  /** About 8 entries per bucket, at most 2^16 buckets (256 KiB). */
  private buildBuckets(): void {
    const n = this.n,
      net = this.net;
    const bits = Math.min(16, Math.max(1, Math.floor(Math.log2(Math.max(1, n))) - 3));
    const shift = 32 - bits;
    const bucket = new Int32Array((1 << bits) + 1);
    let i = 0;
    for (let k = 0; k < 1 << bits; k++) {
      const start = k * 2 ** shift; // k << shift overflows int32 for the top half
      while (i < n && net[i] < start) i++;
      bucket[k] = i;
    }
    bucket[1 << bits] = n;
    this.bucket = bucket;
    this.shift = shift;
  }

  /** First position whose key (network, length) >= (x, l). */
  lowerBound(x: number, l: number): number {
    const net = this.net,
      len = this.len;
    const b = x >>> this.shift;
    let lo = this.bucket[b],
      hi = this.bucket[b + 1];
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = net[mid];
      if (v < x || (v === x && len[mid] < l)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Entries E with E.length <= maxLen whose block contains address x. */
  containing(x: number, maxLen: number, out: number[]): void {
    if (maxLen < 0) return;
    for (let p = 0; p < this.pn; p++) {
      const l = this.pLen[p];
      if (this.pSlot[p] >= 0 && l <= maxLen && ((this.pNet[p] ^ x) & MASK[l]) === 0) out.push(this.pSlot[p]);
    }
    const parent = this.parent,
      len = this.len,
      slot = this.slot,
      net = this.net;
    // Last entry with key <= (x, maxLen): every qualifying entry is it or an ancestor.
    let i = this.lowerBound(x, maxLen + 1) - 1;
    // Climb past entries that do not cover x (<= 33 distinct lengths).
    while (i >= 0 && !this.covers(i, x)) {
      const p = parent[i];
      // A run of equal duplicates: jump to its first member instead of stepping.
      if (p >= 0 && net[p] === net[i] && len[p] === len[i]) i = parent[this.lowerBound(net[i], len[i])];
      else i = p;
    }
    // From here every ancestor covers x; filter only by length.
    while (i >= 0) {
      if (len[i] <= maxLen && slot[i] >= 0) out.push(slot[i]);
      // Duplicates chain to i - 1; testing for that lets the CPU predict the
      // next index instead of waiting on the parent load.
      const p = parent[i];
      i = p === i - 1 ? i - 1 : p;
    }
  }

  /** Key order of two entries: sorted positions (e >= 0) or pending adds (e = ~p). */
  private readonly entryCmp = (a: number, b: number): number => {
    const x = a >= 0 ? this.net[a] : this.pNet[~a],
      y = b >= 0 ? this.net[b] : this.pNet[~b];
    return x - y || (a >= 0 ? this.len[a] : this.pLen[~a]) - (b >= 0 ? this.len[b] : this.pLen[~b]);
  };

  /** Live pending adds (as entries ~p) that `keep` accepts, in key order. */
  private pendingEntries(keep: (p: number) => boolean): number[] {
    const out: number[] = [];
    for (let p = 0; p < this.pn; p++) if (this.pSlot[p] >= 0 && keep(p)) out.push(~p);
    return out.sort(this.entryCmp);
  }

  /** Entries with network in [lo, hi] and key >= (lo, minLen), in key order. */
  range(lo: number, hi: number, minLen: number, out: number[]): void {
    const net = this.net,
      slot = this.slot,
      n = this.n;
    // Pending adds in the range, merged into the sorted run in key order.
    const pend = this.pendingEntries((p) => {
      const x = this.pNet[p];
      return x <= hi && (x > lo || (x === lo && this.pLen[p] >= minLen));
    });
    let k = 0;
    for (let i = this.lowerBound(lo, minLen); i < n && net[i] <= hi; i++) {
      while (k < pend.length && this.entryCmp(pend[k], i) < 0) out.push(this.pSlot[~pend[k++]]);
      if (slot[i] >= 0) out.push(slot[i]);
    }
    while (k < pend.length) out.push(this.pSlot[~pend[k++]]);
  }

  /** Entries with exactly this network (and length, unless l < 0). */
  equal(x: number, l: number, out: number[]): void {
    for (let p = 0; p < this.pn; p++) {
      if (this.pSlot[p] >= 0 && this.pNet[p] === x && (l < 0 || this.pLen[p] === l)) out.push(this.pSlot[p]);
    }
    const net = this.net,
      len = this.len,
      slot = this.slot,
      n = this.n;
    for (let i = this.lowerBound(x, l < 0 ? 0 : l); i < n && net[i] === x && (l < 0 || len[i] === l); i++) {
      if (slot[i] >= 0) out.push(slot[i]);
    }
  }

  /**
   * Live entries in key order (descending when `desc`); `fn(slot, newKey)` is told when the
   * (network, length) key differs from the previous live entry's, and returns false to stop.
   */
  walk(desc: boolean, fn: WalkVisitor): boolean {
    const { slot, pSlot } = this;
    return walkSorted(
      {
        n: this.n,
        pending: this.pendingEntries(() => true),
        cmp: this.entryCmp,
        slotOf: (e) => (e >= 0 ? slot[e] : pSlot[~e]),
      },
      desc,
      fn,
    );
  }

  /** Entry i's last address. */
  private bcast(i: number): number {
    return (this.net[i] | ~MASK[this.len[i]]) >>> 0;
  }

  private readonly runEntries: RunEntries = {
    size: () => this.n,
    inside: (i, j) => this.net[j] <= this.bcast(i),
    adjacent: (i, j) => {
      const b = this.bcast(i);
      return b !== 0xffffffff && this.net[j] === b + 1;
    },
    after: (i) => {
      const b = this.bcast(i);
      return b === 0xffffffff ? this.n : this.lowerBound(b + 1, 0);
    },
    live: (i) => this.slot[i] >= 0,
  };

  /**
   * The addresses covered by live entries with network in [lo, hi] and key >= (lo, minLen), in
   * address order (touching sorted blocks as one stretch). False from visit stops.
   */
  coveredSpans(lo: number, hi: number, minLen: number, visit: SpanVisitor): void {
    const pend = this.pendingEntries((p) => {
      const x = this.pNet[p];
      return x <= hi && (x > lo || (x === lo && this.pLen[p] >= minLen));
    }).map((e) => [u32ToHex(this.pNet[~e]), u32ToHex((this.pNet[~e] | ~MASK[this.pLen[~e]]) >>> 0)] as const);
    visitMerged(
      pend,
      (v) =>
        this.runs.walk(
          this.runEntries,
          this.lowerBound(lo, minLen),
          (p) => this.net[p] <= hi,
          (f, l) => v(u32ToHex(this.net[f]), u32ToHex(this.bcast(l))),
        ),
      visit,
    );
  }

  /** Upper bound on the entries with network in [lo, hi]: sorted positions (tombstones too) and every pending add. */
  countRange(lo: number, hi: number): number {
    return this.lowerBound(hi, 33) - this.lowerBound(lo, 0) + this.pn;
  }
}

/** Nearest enclosing entry for each sorted entry. The ancestor chain of i-1 is the stack. */
function buildParents(net: Uint32Array, len: Uint8Array, m: number): Int32Array {
  const parent = new Int32Array(m);
  for (let i = 0; i < m; i++) {
    let t = i - 1;
    const x = net[i];
    while (t >= 0 && ((net[t] ^ x) & MASK[len[t]]) !== 0) t = parent[t];
    parent[i] = t;
  }
  return parent;
}

function grow<T extends Uint32Array | Uint8Array | Int32Array>(old: T, next: T): T {
  next.set(old as never);
  return next;
}
