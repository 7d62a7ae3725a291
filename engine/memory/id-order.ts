// The table's slots in id order, for cursor pages (`start=<id>`: ids from there on, no count):
// the page is a binary search and a short walk, not a test of every row and a sort. Built at the
// first such page (a bulk load pays nothing), then kept in order row by row, each change a binary
// search and one move of the slots after it. Past CHANGES_BETWEEN_READS changes with no page read
// it is dropped instead (a burst of writes would pay the moves for nothing) and built again at
// the next page.
const CHANGES_BETWEEN_READS = 64;

export class IdOrder {
  private order: Int32Array | null = null;
  private n = 0;
  private changes = 0;

  /** `compare`: two slots' ids in the store's id order; `live`: every stored slot. */
  constructor(
    private readonly compare: (a: number, b: number) => number,
    private readonly live: () => Iterable<number>,
  ) {}

  /** Every stored slot in id order (a view, valid until the next change). */
  slots(): Int32Array {
    this.changes = 0;
    if (!this.order) {
      const all = Int32Array.from(this.live());
      all.sort(this.compare);
      this.order = all;
      this.n = all.length;
    }
    return this.order.subarray(0, this.n);
  }

  /** A stored slot, now in the table. */
  added(slot: number): void {
    if (!this.kept()) return;
    const at = this.position(slot);
    if (this.n === this.order!.length) {
      const grown = new Int32Array(Math.max(16, Math.ceil(this.n * 1.25)));
      grown.set(this.order!.subarray(0, this.n));
      this.order = grown;
    }
    this.order!.copyWithin(at + 1, at, this.n);
    this.order![at] = slot;
    this.n++;
  }

  /** A slot about to leave the table (its id still readable). */
  removed(slot: number): void {
    if (!this.kept()) return;
    const at = this.position(slot);
    if (at < this.n && this.order![at] === slot) {
      this.order!.copyWithin(at, at + 1, this.n);
      this.n--;
    } else this.drop(); // not where its id says: rebuilt at the next read rather than trusted
  }

  /** Forgets the order (a load replaced the table). */
  drop(): void {
    this.order = null;
    this.n = 0;
  }

  /** Whether changes are followed now: built, and read since the last CHANGES_BETWEEN_READS. */
  private kept(): boolean {
    if (!this.order) return false;
    if (++this.changes > CHANGES_BETWEEN_READS) {
      this.drop();
      return false;
    }
    return true;
  }

  /** First position whose slot's id is not before `slot`'s. */
  private position(slot: number): number {
    return firstPassing(this.order!.subarray(0, this.n), (x) => this.compare(x, slot) >= 0);
  }
}

/** First position in `ordered` whose slot passes `atOrAfter` (a test that is false, then true, along the order). */
export function firstPassing(ordered: Int32Array, atOrAfter: (slot: number) => boolean): number {
  let lo = 0,
    hi = ordered.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (atOrAfter(ordered[mid])) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
