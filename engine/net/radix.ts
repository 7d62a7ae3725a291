// LSD radix sort of row ids by 16-bit digits. A comparator sort over 1M rows
// costs ~1 s; a few linear counting passes cost tens of milliseconds.

/** Writes each row's digit (0..65535) for one pass into digits[row]. */
export type DigitFill = (digits: Uint16Array, n: number) => void;

/**
 * Returns the permutation of rows 0..n-1 sorted by the passes, which must be
 * listed least significant first (LSD order; each pass is stable).
 */
export function radixOrder(n: number, passes: DigitFill[]): Int32Array {
  let src = new Int32Array(n);
  for (let i = 0; i < n; i++) src[i] = i;
  if (n < 2) return src;
  let dst = new Int32Array(n);
  const digits = new Uint16Array(n);
  const counts = new Int32Array(65536);
  for (const fill of passes) {
    fill(digits, n);
    counts.fill(0);
    for (let r = 0; r < n; r++) counts[digits[r]]++;
    // A pass where every row has the same digit cannot change the order.
    if (counts[digits[0]] === n) continue;
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const r = src[i];
      dst[counts[digits[r]]++] = r;
    }
    const t = src;
    src = dst;
    dst = t;
  }
  return src;
}

/** Bits per digit of the sort that carries its entries: 2,048 write streams stay in cache. */
const CARRY_BITS = 11;

/**
 * Sorts IPv4 entries (network, length, slot) by (network, length) where they are: LSD passes over
 * the length, then the network in 11-bit digits, each carrying the entries along. At 1M entries
 * this beats sorting a permutation and gathering by it, whose random reads cost more than the
 * passes themselves.
 */
export function sortV4Entries(net: Uint32Array, len: Uint8Array, slot: Int32Array, n: number): void {
  let aN: Uint32Array = net,
    aL: Uint8Array = len,
    aS: Int32Array = slot;
  let bN: Uint32Array = new Uint32Array(n),
    bL: Uint8Array = new Uint8Array(n),
    bS: Int32Array = new Int32Array(n);
  const counts = new Int32Array(1 << CARRY_BITS),
    mask = (1 << CARRY_BITS) - 1;
  // shift < 0: the pass's digit is the length.
  for (const shift of [-1, 0, CARRY_BITS, 2 * CARRY_BITS]) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[shift < 0 ? aL[i] : (aN[i] >>> shift) & mask]++;
    if (n === 0 || counts[shift < 0 ? aL[0] : (aN[0] >>> shift) & mask] === n) continue;
    for (let d = 0, sum = 0; d <= mask; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const p = counts[shift < 0 ? aL[i] : (aN[i] >>> shift) & mask]++;
      bN[p] = aN[i];
      bL[p] = aL[i];
      bS[p] = aS[i];
    }
    [aN, bN] = [bN, aN];
    [aL, bL] = [bL, aL];
    [aS, bS] = [bS, aS];
  }
  if (aN !== net) {
    net.set(aN);
    len.set(aL);
    slot.set(aS);
  }
}
