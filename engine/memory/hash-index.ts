// Equality index: value -> row slots. Null and missing share the `null` key. A key held by one row
// keeps a bare number (most keys of unique-ish fields), upgraded to a Set at the second row.
export type HashKey = string | number | boolean | null;

/** Keys held by at least this many rows get a bitmap when a row test asks for them. */
const BITMAP_MIN = 4096;

export class HashIndex {
  private readonly map = new Map<HashKey, number | Set<number>>();
  /**
   * Bit per slot for large keys that row tests use: testing one bit beats probing a Set of
   * hundreds of thousands of entries (a cache miss each). Kept in step with add / remove.
   */
  private readonly bitmaps = new Map<HashKey, Uint32Array>();

  add(key: HashKey, slot: number): void {
    const cur = this.map.get(key);
    if (cur === undefined) this.map.set(key, slot);
    else if (typeof cur === 'number') {
      if (cur !== slot) this.map.set(key, new Set([cur, slot]));
    } else cur.add(slot);
    const bm = this.bitmaps.get(key);
    if (bm) this.setBit(key, bm, slot);
  }

  remove(key: HashKey, slot: number): void {
    const cur = this.map.get(key);
    if (cur === undefined) return;
    const bm = this.bitmaps.get(key);
    if (bm && slot >>> 5 < bm.length) bm[slot >>> 5] &= ~(1 << (slot & 31));
    if (typeof cur === 'number') {
      if (cur === slot) {
        this.map.delete(key);
        this.bitmaps.delete(key);
      }
      return;
    }
    cur.delete(slot);
    if (cur.size === 1) {
      this.map.set(key, cur.values().next().value as number);
      this.bitmaps.delete(key);
    }
  }

  private setBit(key: HashKey, bm: Uint32Array, slot: number): void {
    if (slot >>> 5 >= bm.length) {
      const grown = new Uint32Array(Math.max(bm.length * 2, (slot >>> 5) + 1));
      grown.set(bm);
      this.bitmaps.set(key, (bm = grown));
    }
    bm[slot >>> 5] |= 1 << (slot & 31);
  }

  /** A membership test for the rows holding `key` (for row predicates). */
  tester(key: HashKey): (slot: number) => boolean {
    const cur = this.map.get(key);
    if (cur === undefined) return () => false;
    if (typeof cur === 'number') return (s) => s === cur;
    if (cur.size < BITMAP_MIN) return (s) => cur.has(s);
    const bits = this.bitmap(key)!;
    return (s) => ((bits[s >>> 5] >>> (s & 31)) & 1) === 1;
  }

  /** The bit per slot of a key held by many rows (built at first use), or null for a smaller key. */
  bitmap(key: HashKey): Uint32Array | null {
    const cur = this.map.get(key);
    if (cur === undefined || typeof cur === 'number' || cur.size < BITMAP_MIN) return null;
    let bm = this.bitmaps.get(key);
    if (!bm) {
      let max = 0;
      for (const s of cur) if (s > max) max = s;
      bm = new Uint32Array((max >>> 5) + 1);
      for (const s of cur) bm[s >>> 5] |= 1 << (s & 31);
      this.bitmaps.set(key, bm);
    }
    return bm;
  }

  /** A membership test for the rows holding any of `keys`. */
  testerOfAny(keys: readonly HashKey[]): (slot: number) => boolean {
    const tests = keys.map((k) => this.tester(k));
    return tests.length === 1 ? tests[0] : (s) => tests.some((t) => t(s));
  }

  get(key: HashKey): ReadonlySet<number> | undefined {
    const cur = this.map.get(key);
    return cur === undefined ? undefined : typeof cur === 'number' ? new Set([cur]) : cur;
  }

  count(key: HashKey): number {
    const cur = this.map.get(key);
    return cur === undefined ? 0 : typeof cur === 'number' ? 1 : cur.size;
  }

  get distinct(): number {
    return this.map.size;
  }
}
