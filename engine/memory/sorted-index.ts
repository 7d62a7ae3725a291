// Range index over one numeric (or ISO date-time string) column: slots sorted by value,
// rebuilt lazily after writes so bulk loads cost one sort.
export type SortValue = number | string;

export class SortedIndex {
  private slots: Int32Array = new Int32Array(0);
  private values: SortValue[] = [];
  private dirty = true;

  constructor(private readonly valueOf: (slot: number) => SortValue | null, private readonly liveSlots: () => Iterable<number>) {}

  invalidate(): void { this.dirty = true; }

  private build(): void {
    const pairs: [SortValue, number][] = [];
    for (const s of this.liveSlots()) {
      const v = this.valueOf(s);
      if (v !== null && v !== undefined) pairs.push([v, s]);
    }
    pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    this.values = pairs.map((p) => p[0]);
    this.slots = Int32Array.from(pairs, (p) => p[1]);
    this.dirty = false;
  }

  /** First position whose value is >= v (or > v when `strict`). */
  private bound(v: SortValue, strict: boolean): number {
    let lo = 0, hi = this.values.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const x = this.values[mid];
      if (x < v || (strict && x === v)) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  /** Slots whose value lies in the range; bounds are optional and inclusive unless marked exclusive. */
  range(lo: SortValue | null, loExclusive: boolean, hi: SortValue | null, hiExclusive: boolean): Int32Array {
    if (this.dirty) this.build();
    const a = lo === null ? 0 : this.bound(lo, loExclusive);
    const b = hi === null ? this.values.length : this.bound(hi, !hiExclusive);
    return b > a ? this.slots.subarray(a, b) : new Int32Array(0);
  }

  get size(): number {
    if (this.dirty) this.build();
    return this.slots.length;
  }
}
