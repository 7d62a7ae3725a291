// IPv6 half of the containment index. Same design as V4Index, but each
// network is 4 big-endian uint32 words interleaved in one Uint32Array (16
// bytes/entry, one cache line per probe). A 32-char hex string would cost
// ~56 bytes/entry of heap and a slower string compare (see docs/benchmarks-net.md).
import { walkSorted, type WalkVisitor } from './sorted-walk.js';
import { CoverRuns, visitMerged, type RunEntries, type SpanVisitor } from './covered-runs.js';
import { u32ToHex } from './ip.js';
import { radixOrder, type DigitFill } from './radix.js';
import { cmpWords, MASK, wordBits } from './words.js';
import type { SlotTable } from './slot-table.js';

export class V6Index {
  n = 0;
  net: Uint32Array = new Uint32Array(0); // 4 words per entry
  len: Uint8Array = new Uint8Array(0);
  slot: Int32Array = new Int32Array(0);
  parent: Int32Array = new Int32Array(0);
  dead = 0;
  pn = 0;
  pNet: Uint32Array = new Uint32Array(64);
  pLen: Uint8Array = new Uint8Array(16);
  pSlot: Int32Array = new Int32Array(16);
  pDead = 0;
  /** Runs of touching blocks, for free-space walks. */
  private readonly runs = new CoverRuns();
  /** Scratch of the run walk: a broadcast address (and one past it). */
  private readonly b = new Uint32Array(4);

  get live(): number {
    return this.n - this.dead + this.pn - this.pDead;
  }

  /** Rebuild before answering: more pending adds than a query may scan, or too many tombstones. */
  needsRebuild(pendingScanMax = 0): boolean {
    return this.pn > pendingScanMax || (this.dead > 64 && this.dead * 4 > this.n);
  }

  /** Appends a pending entry from w[at..at+3] (already masked); returns its pending position. */
  addPending(slot: number, w: Uint32Array, at: number, len: number): number {
    if (this.pn === this.pSlot.length) {
      const cap = this.pn * 2;
      const nNet = new Uint32Array(cap * 4);
      nNet.set(this.pNet);
      this.pNet = nNet;
      const nLen = new Uint8Array(cap);
      nLen.set(this.pLen);
      this.pLen = nLen;
      const nSlot = new Int32Array(cap);
      nSlot.set(this.pSlot);
      this.pSlot = nSlot;
    }
    const p = this.pn++;
    const b = p * 4;
    this.pNet[b] = w[at];
    this.pNet[b + 1] = w[at + 1];
    this.pNet[b + 2] = w[at + 2];
    this.pNet[b + 3] = w[at + 3];
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

  rebuild(table: SlotTable, tag: number): void {
    const m = this.live;
    const net = new Uint32Array(m * 4);
    const len = new Uint8Array(m);
    const slot = new Int32Array(m);
    let k = 0;
    for (let i = 0; i < this.n; i++) {
      if (this.slot[i] < 0) continue;
      copy4(net, k * 4, this.net, i * 4);
      len[k] = this.len[i];
      slot[k++] = this.slot[i];
    }
    for (let i = 0; i < this.pn; i++) {
      if (this.pSlot[i] < 0) continue;
      copy4(net, k * 4, this.pNet, i * 4);
      len[k] = this.pLen[i];
      slot[k++] = this.pSlot[i];
    }
    this.net = this.len = this.slot = this.parent = null as never;
    this.pNet = new Uint32Array(64);
    this.pLen = new Uint8Array(16);
    this.pSlot = new Int32Array(16);
    this.pn = this.pDead = this.dead = 0;
    this.runs.reset();

    const passes: DigitFill[] = [
      (d, c) => {
        for (let r = 0; r < c; r++) d[r] = len[r];
      },
    ];
    for (let w = 3; w >= 0; w--) {
      passes.push((d, c) => {
        for (let r = 0; r < c; r++) d[r] = net[r * 4 + w] & 0xffff;
      });
      passes.push((d, c) => {
        for (let r = 0; r < c; r++) d[r] = net[r * 4 + w] >>> 16;
      });
    }
    const order = radixOrder(m, passes);
    const sNet = new Uint32Array(m * 4);
    const sLen = new Uint8Array(m);
    const sSlot = new Int32Array(m);
    for (let i = 0; i < m; i++) {
      const r = order[i];
      const a = i * 4,
        b = r * 4;
      copy4(sNet, a, net, b);
      sLen[i] = len[r];
      sSlot[i] = slot[r];
    }
    this.n = m;
    this.net = sNet;
    this.len = sLen;
    this.slot = sSlot;
    this.parent = new Int32Array(m);
    for (let i = 0; i < m; i++) {
      let t = i - 1;
      const b = i * 4;
      while (t >= 0 && !this.covers(t, sNet[b], sNet[b + 1], sNet[b + 2], sNet[b + 3])) t = this.parent[t];
      this.parent[i] = t;
    }
    for (let i = 0; i < m; i++) table.update(sSlot[i], i * 4 + tag);
  }

  /** Does entry i's block contain the address (x0..x3)? */
  covers(i: number, x0: number, x1: number, x2: number, x3: number): boolean {
    return coversIn(this.net, i * 4, this.len[i], x0, x1, x2, x3);
  }

  /** Key order of two entries: sorted positions (e >= 0) or pending adds (e = ~p). */
  private readonly entryCmp = (a: number, b: number): number =>
    cmpWords(
      a >= 0 ? this.net : this.pNet,
      (a >= 0 ? a : ~a) * 4,
      b >= 0 ? this.net : this.pNet,
      (b >= 0 ? b : ~b) * 4,
    ) || (a >= 0 ? this.len[a] : this.pLen[~a]) - (b >= 0 ? this.len[b] : this.pLen[~b]);

  /** Live pending adds (as entries ~p) that `keep` accepts, in key order. */
  private pendingEntries(keep: (p: number) => boolean): number[] {
    const out: number[] = [];
    for (let p = 0; p < this.pn; p++) if (this.pSlot[p] >= 0 && keep(p)) out.push(~p);
    return out.sort(this.entryCmp);
  }

  /** Is key(i) < (x0..x3, l)? */
  private less(i: number, x0: number, x1: number, x2: number, x3: number, l: number): boolean {
    const net = this.net,
      b = i * 4;
    let v = net[b];
    if (v !== x0) return v < x0;
    v = net[b + 1];
    if (v !== x1) return v < x1;
    v = net[b + 2];
    if (v !== x2) return v < x2;
    v = net[b + 3];
    if (v !== x3) return v < x3;
    return this.len[i] < l;
  }

  /** First position whose key >= (x0..x3, l). */
  lowerBound(x0: number, x1: number, x2: number, x3: number, l: number): number {
    let lo = 0,
      hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.less(mid, x0, x1, x2, x3, l)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Is entry i's network <= (x0..x3)? */
  private netAtMost(i: number, x0: number, x1: number, x2: number, x3: number): boolean {
    return this.less(i, x0, x1, x2, x3, 256); // any length < 256
  }

  containing(x0: number, x1: number, x2: number, x3: number, maxLen: number, out: number[]): void {
    if (maxLen < 0) return;
    for (let p = 0; p < this.pn; p++) {
      if (this.pSlot[p] >= 0 && this.pLen[p] <= maxLen && coversIn(this.pNet, p * 4, this.pLen[p], x0, x1, x2, x3))
        out.push(this.pSlot[p]);
    }
    const parent = this.parent,
      len = this.len,
      slot = this.slot;
    let i = this.lowerBound(x0, x1, x2, x3, maxLen + 1) - 1;
    while (i >= 0 && !this.covers(i, x0, x1, x2, x3)) {
      const p = parent[i];
      if (p >= 0 && len[p] === len[i] && this.sameNet(p, i)) {
        const b = i * 4;
        i = parent[this.lowerBound(this.net[b], this.net[b + 1], this.net[b + 2], this.net[b + 3], len[i])];
      } else {
        i = p;
      }
    }
    while (i >= 0) {
      if (len[i] <= maxLen && slot[i] >= 0) out.push(slot[i]);
      const p = parent[i];
      i = p === i - 1 ? i - 1 : p; // predictable step through duplicate runs
    }
  }

  private sameNet(a: number, b: number): boolean {
    const net = this.net,
      x = a * 4,
      y = b * 4;
    return net[x] === net[y] && net[x + 1] === net[y + 1] && net[x + 2] === net[y + 2] && net[x + 3] === net[y + 3];
  }

  /** Entries with network in [lo, hi] (lo = w[0..3], hi = w[4..7]) and key >= (lo, minLen), in key order. */
  range(w: Uint32Array, minLen: number, out: number[]): void {
    const slot = this.slot,
      n = this.n;
    const h0 = w[4],
      h1 = w[5],
      h2 = w[6],
      h3 = w[7];
    // Pending adds with key in [(lo, minLen), (hi, any)], merged into the sorted run in key order.
    const pend = this.pendingEntries((p) => {
      const c = cmpWords(this.pNet, p * 4, w, 0);
      return (c > 0 || (c === 0 && this.pLen[p] >= minLen)) && cmpWords(this.pNet, p * 4, w, 4) <= 0;
    });
    let k = 0;
    for (let i = this.lowerBound(w[0], w[1], w[2], w[3], minLen); i < n; i++) {
      if (!this.netAtMost(i, h0, h1, h2, h3)) break;
      while (k < pend.length && this.entryCmp(pend[k], i) < 0) out.push(this.pSlot[~pend[k++]]);
      if (slot[i] >= 0) out.push(slot[i]);
    }
    while (k < pend.length) out.push(this.pSlot[~pend[k++]]);
  }

  /** Entries with exactly this network (and length, unless l < 0). */
  equal(x0: number, x1: number, x2: number, x3: number, l: number, out: number[]): void {
    for (let p = 0; p < this.pn; p++) {
      const b = p * 4,
        q = this.pNet;
      if (
        this.pSlot[p] >= 0 &&
        q[b] === x0 &&
        q[b + 1] === x1 &&
        q[b + 2] === x2 &&
        q[b + 3] === x3 &&
        (l < 0 || this.pLen[p] === l)
      )
        out.push(this.pSlot[p]);
    }
    const net = this.net,
      len = this.len,
      slot = this.slot,
      n = this.n;
    for (let i = this.lowerBound(x0, x1, x2, x3, l < 0 ? 0 : l); i < n; i++) {
      const b = i * 4;
      if (net[b] !== x0 || net[b + 1] !== x1 || net[b + 2] !== x2 || net[b + 3] !== x3) break;
      if (l >= 0 && len[i] !== l) break;
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

  /**
   * this.b := the last address of the block at words[at..at+3] / l; with `next`, the address after it
   * (false past the end of the space).
   */
  private endOf(words: Uint32Array, at: number, l: number, next: boolean): boolean {
    const b = this.b;
    for (let k = 0; k < 4; k++) b[k] = words[at + k] | ~MASK[wordBits(l, k)];
    if (!next) return true;
    for (let k = 3; k >= 0; k--) {
      if (b[k] !== 0xffffffff) {
        b[k]++;
        return true;
      }
      b[k] = 0;
    }
    return false;
  }

  private readonly runEntries: RunEntries = {
    size: () => this.n,
    inside: (i, j) => {
      this.endOf(this.net, i * 4, this.len[i], false);
      return cmpWords(this.net, j * 4, this.b, 0) <= 0;
    },
    adjacent: (i, j) => this.endOf(this.net, i * 4, this.len[i], true) && cmpWords(this.net, j * 4, this.b, 0) === 0,
    after: (i) =>
      this.endOf(this.net, i * 4, this.len[i], true)
        ? this.lowerBound(this.b[0], this.b[1], this.b[2], this.b[3], 0)
        : this.n,
    live: (i) => this.slot[i] >= 0,
  };

  /** The block at words[at..at+3] / l as [first, last] hex. */
  private hexSpan(words: Uint32Array, at: number, l: number): readonly [string, string] {
    this.endOf(words, at, l, false);
    return [hex4(words, at), hex4(this.b, 0)];
  }

  /**
   * The addresses covered by live entries with network in [lo, hi] (lo = w[0..3], hi = w[4..7])
   * and key >= (lo, minLen), in address order (touching sorted blocks as one stretch). False from
   * visit stops.
   */
  coveredSpans(w: Uint32Array, minLen: number, visit: SpanVisitor): void {
    const pend = this.pendingEntries((p) => {
      const c = cmpWords(this.pNet, p * 4, w, 0);
      return (c > 0 || (c === 0 && this.pLen[p] >= minLen)) && cmpWords(this.pNet, p * 4, w, 4) <= 0;
    }).map((e) => this.hexSpan(this.pNet, ~e * 4, this.pLen[~e]));
    const h0 = w[4],
      h1 = w[5],
      h2 = w[6],
      h3 = w[7];
    visitMerged(
      pend,
      (v) =>
        this.runs.walk(
          this.runEntries,
          this.lowerBound(w[0], w[1], w[2], w[3], minLen),
          (p) => this.netAtMost(p, h0, h1, h2, h3),
          (f, l) => {
            const first = hex4(this.net, f * 4);
            this.endOf(this.net, l * 4, this.len[l], false);
            return v(first, hex4(this.b, 0));
          },
        ),
      visit,
    );
  }

  /**
   * Upper bound on the entries with network in [w0..3, w4..7]: sorted positions (tombstones too) and
   * every pending add.
   */
  countRange(w: Uint32Array): number {
    return this.lowerBound(w[4], w[5], w[6], w[7], 256) - this.lowerBound(w[0], w[1], w[2], w[3], 0) + this.pn;
  }
}

/** Does the block at words[b..b+3] / l contain the address (x0..x3)? */
function coversIn(net: Uint32Array, b: number, l: number, x0: number, x1: number, x2: number, x3: number): boolean {
  if (((net[b] ^ x0) & MASK[wordBits(l, 0)]) !== 0) return false;
  if (l <= 32) return true;
  if (((net[b + 1] ^ x1) & MASK[wordBits(l, 1)]) !== 0) return false;
  if (l <= 64) return true;
  if (((net[b + 2] ^ x2) & MASK[wordBits(l, 2)]) !== 0) return false;
  if (l <= 96) return true;
  return ((net[b + 3] ^ x3) & MASK[l - 96]) === 0;
}

/** The 4-word address at words[at..at+3] as 32 hex characters. */
function hex4(words: Uint32Array, at: number): string {
  return u32ToHex(words[at]) + u32ToHex(words[at + 1]) + u32ToHex(words[at + 2]) + u32ToHex(words[at + 3]);
}

function copy4(dst: Uint32Array, d: number, src: Uint32Array, s: number): void {
  dst[d] = src[s];
  dst[d + 1] = src[s + 1];
  dst[d + 2] = src[s + 2];
  dst[d + 3] = src[s + 3];
}
