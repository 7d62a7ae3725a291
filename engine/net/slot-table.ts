// slot -> int32 location map. Slots are row numbers, normally dense, so a
// typed array (4 bytes/slot) is used; a slot far beyond the dense range goes to
// a Map so one huge row id cannot force a giant allocation.

const ABSENT = -1;
const MIN_DENSE = 1024;

export class SlotTable {
  private dense = new Int32Array(MIN_DENSE).fill(ABSENT);
  private sparse = new Map<number, number>();
  private count = 0;

  get(slot: number): number {
    if (slot < this.dense.length) return this.dense[slot];
    const v = this.sparse.get(slot);
    return v === undefined ? ABSENT : v;
  }

  set(slot: number, loc: number): void {
    if (slot >= this.dense.length) this.grow(slot);
    if (slot < this.dense.length) {
      if (this.dense[slot] === ABSENT) this.count++;
      this.dense[slot] = loc;
    } else {
      if (!this.sparse.has(slot)) this.count++;
      this.sparse.set(slot, loc);
    }
  }

  delete(slot: number): void {
    if (slot < this.dense.length) {
      if (this.dense[slot] !== ABSENT) this.count--;
      this.dense[slot] = ABSENT;
    } else if (this.sparse.delete(slot)) {
      this.count--;
    }
  }

  /** Overwrites an existing slot's location (bulk refresh after a rebuild). */
  update(slot: number, loc: number): void {
    if (slot < this.dense.length) this.dense[slot] = loc;
    else this.sparse.set(slot, loc);
  }

  get size(): number {
    return this.count;
  }

  private grow(slot: number): void {
    // Only grow densely while the table would stay mostly populated.
    const limit = Math.max(MIN_DENSE * 64, this.count * 4);
    if (slot >= limit) return;
    let cap = this.dense.length;
    while (cap <= slot) cap *= 2;
    const next = new Int32Array(cap).fill(ABSENT);
    next.set(this.dense);
    // Pull sparse entries that now fall in the dense range.
    for (const [s, v] of this.sparse) {
      if (s < cap) {
        next[s] = v;
        this.sparse.delete(s);
      }
    }
    this.dense = next;
  }
}
