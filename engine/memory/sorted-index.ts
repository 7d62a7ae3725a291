// Range index over one numeric (or ISO date-time string) column: slots sorted by value,
// rebuilt lazily after writes so bulk loads cost one sort. A row added with a value at or past the
// last one (a change record's seq and time, a create's date) is appended instead: the change log's
// seq index was sorted anew, all of it, after every write (1M records: seconds per bulk create).
export type SortValue = number | string;

export class SortedIndex {
  /** Sorted slots in [0, n); room past n for appends. */
  private slots: Int32Array = new Int32Array(0);
  private n = 0;
  private values: SortValue[] = [];
  private dirty = true;

  constructor(
    private readonly valueOf: (slot: number) => SortValue | null,
    private readonly liveSlots: () => Iterable<number>,
  ) {}

  invalidate(): void {
    this.dirty = true;
  }

  /** A row was stored in `slot`: appended when it sorts last, else the index is rebuilt at its next use. */
  added(slot: number): void {
    if (this.dirty) return;
    const v = this.valueOf(slot);
    if (v === null || v === undefined) return; // not in the index
    if (v !== v) {
      this.dirty = true;
      return;
    } // NaN: where the sort puts it, not here
    const n = this.n;
    if (n > 0) {
      const last = this.values[n - 1];
      if (typeof v !== typeof last || v < last || (v === last && slot < this.slots[n - 1])) {
        this.dirty = true;
        return;
      }
    }
    if (n === this.slots.length) {
      const grown = new Int32Array(Math.max(16, n * 2));
      grown.set(this.slots);
      this.slots = grown;
    }
    this.slots[n] = slot;
    this.values.push(v);
    this.n = n + 1;
  }

  private build(): void {
    const pairs: [SortValue, number][] = [];
    for (const s of this.liveSlots()) {
      const v = this.valueOf(s);
      if (v !== null && v !== undefined) pairs.push([v, s]);
    }
    pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    this.values = pairs.map((p) => p[0]);
    this.slots = Int32Array.from(pairs, (p) => p[1]);
    this.n = pairs.length;
    this.dirty = false;
  }

  /** First position whose value is >= v (or > v when `strict`). */
  private bound(v: SortValue, strict: boolean): number {
    let lo = 0,
      hi = this.values.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const x = this.values[mid];
      if (x < v || (strict && x === v)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Slots whose value lies in the range; bounds are optional and inclusive unless marked exclusive. */
  range(lo: SortValue | null, loExclusive: boolean, hi: SortValue | null, hiExclusive: boolean): Int32Array {
    if (this.dirty) this.build();
    const a = lo === null ? 0 : this.bound(lo, loExclusive);
    const b = hi === null ? this.n : this.bound(hi, !hiExclusive);
    return b > a ? this.slots.subarray(a, b) : new Int32Array(0);
  }

  /**
   * Membership in `range(lo, loExclusive, hi, hiExclusive)` without reading the range: the row's own
   * value compared as the bounds compare (a broad range's page is then walked in another order).
   */
  tester(
    lo: SortValue | null,
    loExclusive: boolean,
    hi: SortValue | null,
    hiExclusive: boolean,
  ): (s: number) => boolean {
    const valueOf = this.valueOf;
    return (s) => {
      const v = valueOf(s);
      if (v === null || v === undefined) return false;
      if (lo !== null && (loExclusive ? !(v > lo) : !(v >= lo))) return false;
      return hi === null || (hiExclusive ? v < hi : v <= hi);
    };
  }

  get size(): number {
    if (this.dirty) this.build();
    return this.n;
  }
}
