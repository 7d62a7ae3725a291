// Covered-from-start watermarks ("cover marks") of prefix blocks, the arithmetic. A block's mark is
// an address W such that every address of the block from its first up to W - 1 lies in prefixes
// strictly inside it: W = the first address says nothing, W = the last + 1 says the block is full.
// Stores keep marks as text whose order is address order: hex one digit wider than the family's
// addresses (9 digits IPv4, 33 IPv6), so the last + 1 of a block at the end of the space still fits.
// A block is named by its key `<network hex>/<length>` (as allocation hints name their parent).
import { maxLength, parseCidr, type Family } from '../net/ip.js';

/** A block as numbers: its first and last address. */
export interface MarkBlock {
  readonly family: Family;
  readonly lo: bigint;
  readonly hi: bigint;
  readonly length: number;
}

const hexWidth = (f: Family) => (f === 4 ? 8 : 32);

export const markText = (f: Family, v: bigint): string => v.toString(16).padStart(hexWidth(f) + 1, '0');
export const markValue = (text: string): bigint => BigInt(`0x${text}`);

export function markBlock(family: Family, lo: bigint, length: number): MarkBlock {
  return { family, lo, hi: lo + (1n << BigInt(maxLength(family) - length)) - 1n, length };
}

/** A prefix's CIDR text as a block (null when it is not one). */
export function blockOfCidr(text: unknown): MarkBlock | null {
  const c = typeof text === 'string' ? parseCidr(text) : null;
  return c ? markBlock(c.family, BigInt(`0x${c.network}`), c.length) : null;
}

export const blockKey = (b: MarkBlock): string => `${b.lo.toString(16).padStart(hexWidth(b.family), '0')}/${b.length}`;

/** The block a key names (its family from the width of its hex). */
export function keyBlock(key: string): MarkBlock {
  const [hex, len] = key.split('/');
  return markBlock(hex.length === 8 ? 4 : 6, BigInt(`0x${hex}`), Number(len));
}

/** The keys of every block strictly containing `b` (lengths 0 to b.length - 1). */
export function ancestorKeys(b: MarkBlock): string[] {
  const w = BigInt(maxLength(b.family));
  const out: string[] = [];
  for (let l = 0; l < b.length; l++) {
    const host = w - BigInt(l);
    out.push(blockKey(markBlock(b.family, (b.lo >> host) << host, l)));
  }
  return out;
}

/** `a` strictly contains `c`. */
export const strictlyInside = (c: MarkBlock, a: MarkBlock): boolean =>
  c.family === a.family && c.length > a.length && c.lo >= a.lo && c.hi <= a.hi;

/** Blocks in address order, the outer of nested ones first. */
export function byAddress(blocks: readonly MarkBlock[]): MarkBlock[] {
  return [...blocks].sort((x, y) => (x.lo < y.lo ? -1 : x.lo > y.lo ? 1 : x.length - y.length));
}

/** The mark `w` moved past the blocks (in address order) that cover it, one after another. */
export function sweep(w: bigint, sorted: readonly MarkBlock[]): bigint {
  for (const c of sorted) {
    if (c.lo > w) break;
    if (c.hi >= w) w = c.hi + 1n;
  }
  return w;
}

/** The address ranges the blocks (in address order) cover, touching ones merged. */
export function coveredRuns(sorted: readonly MarkBlock[]): { lo: bigint; hi: bigint }[] {
  const out: { lo: bigint; hi: bigint }[] = [];
  for (const c of sorted) {
    const last = out[out.length - 1];
    if (last && c.lo <= last.hi + 1n) {
      if (c.hi > last.hi) last.hi = c.hi;
    } else out.push({ lo: c.lo, hi: c.hi });
  }
  return out;
}

/** The blocks of `sorted` (address order) strictly inside `a`, by binary search on their first address. */
export function blocksInside(sorted: readonly MarkBlock[], a: MarkBlock): MarkBlock[] {
  let lo = 0,
    hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid].lo < a.lo) lo = mid + 1;
    else hi = mid;
  }
  const out: MarkBlock[] = [];
  for (let i = lo; i < sorted.length && sorted[i].lo <= a.hi; i++)
    if (strictlyInside(sorted[i], a)) out.push(sorted[i]);
  return out;
}
