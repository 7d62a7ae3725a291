// Nested-interval ("laminar forest") index over CIDR blocks. Any two CIDR
// blocks are nested or disjoint, so after sorting by (network asc, length asc)
// each entry has one nearest enclosing entry (its parent), and:
//  - blocks containing x are a parent chain reached from a binary search;
//  - blocks inside N are one contiguous range of the sorted order.
// IPv4 and IPv6 live in separate sub-indexes: containment never crosses families.
import type { AddrHex, Family } from './ip.js';
import type { SpanVisitor } from './covered-runs.js';
import { SlotTable } from './slot-table.js';
import { V4Index } from './v4-index.js';
import { V6Index } from './v6-index.js';
import { MASK, checkLength, hexToWord4, hexToWords6, wordBits } from './words.js';

// Location tags stored in the slot table: loc = position * 4 + tag.
const PENDING = 1;
const V6 = 2;
const MAX_SLOT = 0x7fffffff;
/**
 * Adds wait unsorted; a query scans up to this many of them beside the sorted entries instead of
 * re-sorting: at 1M entries a rebuild takes ~100 ms, a scan of 1,024 pending entries ~1 µs. So a
 * write followed by a lookup does not pay for a sort (one in 1,024 writes does).
 */
const PENDING_SCAN_MAX = 1024;
/** Below this many sorted entries a rebuild costs under a millisecond: done at once. */
const REBUILD_CHEAP = 8192;

export class ContainmentIndex {
  private readonly v4 = new V4Index();
  private readonly v6 = new V6Index();
  private readonly slots = new SlotTable();
  // Query scratch: words of the query (lo in 0..3, hi in 4..7); reused, never escapes.
  private readonly w = new Uint32Array(8);

  add(slot: number, family: Family, network: AddrHex, length: number): void {
    if (family === 4) this.w[0] = this.word4(network, length);
    else this.words6(family, network, length);
    this.addWords(slot, family, this.w, 0, length);
  }

  /** add() for an address already held as words (src[at], or src[at..at+3] for IPv6); host bits are masked off. */
  addWords(slot: number, family: Family, src: Uint32Array, at: number, length: number): void {
    if (!Number.isInteger(slot) || slot < 0 || slot > MAX_SLOT) throw new RangeError(`bad slot ${slot}`);
    if (!checkLength(family, length)) throw new RangeError(`bad length ${length}`);
    if (this.slots.get(slot) >= 0) this.remove(slot);
    if (family === 4) {
      const pos = this.v4.addPending(slot, (src[at] & MASK[length]) >>> 0, length);
      this.slots.set(slot, pos * 4 + PENDING);
    } else {
      if (src !== this.w || at !== 0) for (let k = 0; k < 4; k++) this.w[k] = src[at + k];
      this.maskWords(length); // stored networks are always masked
      const pos = this.v6.addPending(slot, this.w, 0, length);
      this.slots.set(slot, pos * 4 + PENDING + V6);
    }
  }

  remove(slot: number): void {
    const loc = this.slots.get(slot);
    if (loc < 0) return;
    const pos = Math.floor(loc / 4);
    const sub = loc & V6 ? this.v6 : this.v4;
    sub.kill(pos, (loc & PENDING) !== 0);
    this.slots.delete(slot);
  }

  get size(): number {
    return this.slots.size;
  }

  /** Applies pending adds/removes now (queries do this lazily). */
  flush(): void {
    if (this.v4.needsRebuild()) this.v4.rebuild(this.slots, 0);
    if (this.v6.needsRebuild()) this.v6.rebuild(this.slots, V6);
  }

  /** Before a lookup: rebuild a sub-index only when its pending adds are too many to scan (or it is small). */
  private settle(): void {
    if (this.v4.needsRebuild(this.v4.n >= REBUILD_CHEAP ? PENDING_SCAN_MAX : 0)) this.v4.rebuild(this.slots, 0);
    if (this.v6.needsRebuild(this.v6.n >= REBUILD_CHEAP ? PENDING_SCAN_MAX : 0)) this.v6.rebuild(this.slots, V6);
  }

  equal(family: Family, network: AddrHex, length: number): number[] {
    return this.exact(family, network, length);
  }

  networkEquals(family: Family, network: AddrHex): number[] {
    return this.exact(family, network, -1);
  }

  containing(family: Family, network: AddrHex, length: number, orEqual: boolean): number[] {
    this.settle();
    const out: number[] = [];
    const maxLen = orEqual ? length : length - 1;
    if (family === 4) {
      this.v4.containing(this.word4(network, length), maxLen, out);
    } else {
      const w = this.words6(family, network, length);
      this.v6.containing(w[0], w[1], w[2], w[3], maxLen, out);
    }
    return out;
  }

  containedIn(family: Family, network: AddrHex, length: number, orEqual: boolean): number[] {
    this.settle();
    const out: number[] = [];
    const minLen = orEqual ? length : length + 1;
    if (family === 4) {
      const x = this.word4(network, length);
      const m = MASK[length];
      this.v4.range((x & m) >>> 0, (x | ~m) >>> 0, minLen, out);
    } else {
      this.words6(family, network, length);
      this.v6.range(this.maskWords(length), minLen, out);
    }
    return out;
  }

  networkInRange(family: Family, lo: AddrHex, hi: AddrHex): number[] {
    this.settle();
    const out: number[] = [];
    if (family === 4) {
      this.v4.range(this.word4(lo, 0), this.word4(hi, 0), 0, out);
    } else {
      this.words6(family, hi, 0);
      this.w.copyWithin(4, 0, 4);
      this.words6(family, lo, 0);
      this.v6.range(this.w, 0, out);
    }
    return out;
  }

  /**
   * The addresses covered by the entries inside a block (network in it, length >= minLen), in
   * address order, as (first, last) hex stretches that may overlap or touch: what a free-space
   * walk subtracts. Touching sorted blocks come as one stretch, so the walk's cost follows the
   * number of gaps, not of blocks. With `from`: only the entries whose network is `from` or later.
   * False from visit stops.
   */
  coveredSpans(
    family: Family,
    network: AddrHex,
    length: number,
    minLen: number,
    visit: SpanVisitor,
    from?: AddrHex,
  ): void {
    this.settle();
    if (family === 4) {
      const x = this.word4(network, length);
      const m = MASK[length];
      const start = from === undefined ? (x & m) >>> 0 : this.word4(from, 0);
      this.v4.coveredSpans(start, (x | ~m) >>> 0, from === undefined ? minLen : 0, visit);
    } else {
      this.words6(family, network, length);
      const w = this.maskWords(length);
      if (from !== undefined && !hexToWords6(from, w, 0)) throw new RangeError(`bad IPv6 address ${from}`);
      this.v6.coveredSpans(w, from === undefined ? minLen : 0, visit);
    }
  }

  /** Upper bound on containedIn(...) result size, O(log n); for plan costing. */
  estimateContainedIn(family: Family, network: AddrHex, length: number): number {
    this.settle();
    if (family === 4) {
      const x = this.word4(network, length);
      const m = MASK[length];
      return this.v4.countRange((x & m) >>> 0, (x | ~m) >>> 0);
    }
    this.words6(family, network, length);
    return this.v6.countRange(this.maskWords(length));
  }

  /** Upper bound on networkInRange(...) result size, O(log n). */
  estimateNetworkInRange(family: Family, lo: AddrHex, hi: AddrHex): number {
    this.settle();
    if (family === 4) return Math.max(0, this.v4.countRange(this.word4(lo, 0), this.word4(hi, 0)));
    this.words6(family, hi, 0);
    this.w.copyWithin(4, 0, 4);
    this.words6(family, lo, 0);
    return Math.max(0, this.v6.countRange(this.w));
  }

  /**
   * Every entry in (family, network, length) order, descending when `desc`; see V4Index.walk.
   * Lets a broad result be paged in network order without sorting it.
   */
  walk(desc: boolean, fn: (slot: number, newKey: boolean) => boolean, families: readonly Family[] = [4, 6]): void {
    this.settle();
    const order = desc ? [this.v6, this.v4] : [this.v4, this.v6];
    const wanted = order.filter((sub) => families.includes(sub === this.v4 ? 4 : 6));
    let familyStart = true;
    const step = (slot: number, newKey: boolean) => {
      const r = fn(slot, newKey || familyStart);
      familyStart = false;
      return r;
    };
    for (const sub of wanted) {
      familyStart = true;
      if (!sub.walk(desc, step)) return;
    }
  }

  /** The family a slot was added with, or 0 when it is not in the index (one typed-array read). */
  familyOf(slot: number): 0 | 4 | 6 {
    const loc = this.slots.get(slot);
    return loc < 0 ? 0 : loc & V6 ? 6 : 4;
  }

  /** Live entries per family. */
  stats(): { v4: number; v6: number } {
    return { v4: this.v4.live, v6: this.v6.live };
  }

  private exact(family: Family, network: AddrHex, length: number): number[] {
    this.settle();
    const out: number[] = [];
    if (family === 4) {
      this.v4.equal(this.word4(network, length < 0 ? 0 : length), length, out);
    } else {
      const w = this.words6(family, network, length < 0 ? 0 : length);
      this.v6.equal(w[0], w[1], w[2], w[3], length, out);
    }
    return out;
  }

  private word4(hex: AddrHex, length: number): number {
    const x = hexToWord4(hex);
    if (x < 0 || !checkLength(4, length)) throw new RangeError(`bad IPv4 block ${hex}/${length}`);
    return x;
  }

  /** Parses IPv6 hex into w[0..3]. */
  private words6(family: Family, hex: AddrHex, length: number): Uint32Array {
    if (family !== 6) throw new RangeError(`bad family ${family}`);
    if (!hexToWords6(hex, this.w, 0) || !checkLength(6, length))
      throw new RangeError(`bad IPv6 block ${hex}/${length}`);
    return this.w;
  }

  /** w[0..3] := network, w[4..7] := broadcast of w[0..3]/length. */
  private maskWords(length: number): Uint32Array {
    const w = this.w;
    for (let k = 0; k < 4; k++) {
      const m = MASK[wordBits(length, k)];
      const x = w[k];
      w[k] = x & m;
      w[k + 4] = x | ~m;
    }
    return w;
  }
}
