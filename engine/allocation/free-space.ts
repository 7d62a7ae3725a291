// Free space inside an address block, as NetBox computes it for available-prefixes and
// available-ips: the block minus what is taken, written as the fewest CIDR blocks in address order
// (netaddr's `IPSet.iter_cidrs()`); an allocation takes the first of those blocks that is large
// enough, at its start (which is the first aligned fit in address order). Pure: the taken spans
// come from the memory index, from SQL rows or from a plain scan of the children, always in
// address order. Addresses are BigInt here (arithmetic only, never Map keys).
import { maxLength, type AddrHex, type Family } from '../net/ip.js';

/** Addresses lo..hi, both included. */
export interface Span {
  readonly lo: bigint;
  readonly hi: bigint;
}
/** A span as the stores hand it over: fixed-width hex (engine/net/ip.ts). */
export interface HexSpan {
  readonly lo: AddrHex;
  readonly hi: AddrHex;
}
/** A CIDR block: the network address and the length. */
export interface Block {
  readonly network: bigint;
  readonly length: number;
}

/**
 * What a store found taken inside a block, in address order. `complete` false: it stopped after
 * the number of spans asked for, and the last span may reach further than it says; only the
 * addresses before that span's start are known.
 */
export interface CoveredSpans {
  readonly spans: readonly HexSpan[];
  readonly complete: boolean;
}

export const bigOf = (hex: AddrHex): bigint => BigInt(`0x${hex}`);
export const hexOf = (family: Family, v: bigint): AddrHex => v.toString(16).padStart(family === 4 ? 8 : 32, '0');

/** The addresses of a block. */
export function spanOf(family: Family, b: Block): Span {
  return { lo: b.network, hi: b.network + (1n << BigInt(maxLength(family) - b.length)) - 1n };
}

/**
 * The part of `within` that the stores' answer says anything about, and the spans in it: all of
 * `within` when complete, else what lies before the start of the last span.
 */
export function knownPart(within: Span, got: CoveredSpans): { within: Span; used: Span[] } {
  const used = got.spans.map((s) => ({ lo: bigOf(s.lo), hi: bigOf(s.hi) }));
  if (got.complete) return { within, used };
  const last = used.pop();
  return { within: last ? { lo: within.lo, hi: last.lo - 1n } : within, used };
}

/**
 * The intervals of `within` no span covers, in address order. Spans come sorted by `lo`; they may
 * overlap, nest or touch.
 */
export function* gaps(within: Span, used: Iterable<Span>): Generator<Span> {
  let next = within.lo; // the first address not known to be taken
  for (const s of used) {
    if (s.hi < next) continue;
    if (s.lo > within.hi) break;
    if (s.lo > next) yield { lo: next, hi: s.lo - 1n };
    if (s.hi >= within.hi) return;
    next = s.hi + 1n;
  }
  if (next <= within.hi) yield { lo: next, hi: within.hi };
}

/** Trailing zero bits of v > 0. */
function trailingZeros(v: bigint): number {
  const low = v & -v;
  return low.toString(2).length - 1;
}

/** The fewest CIDR blocks that make up the interval exactly, in address order. */
export function* cidrBlocks(family: Family, span: Span): Generator<Block> {
  const bits = maxLength(family);
  let x = span.lo;
  while (x <= span.hi) {
    let k = x === 0n ? bits : Math.min(bits, trailingZeros(x));
    while (x + (1n << BigInt(k)) - 1n > span.hi) k--;
    yield { network: x, length: bits - k };
    x += 1n << BigInt(k);
  }
}

/** Free CIDR blocks of `within` (NetBox's available prefixes), in address order. */
export function* freeBlocks(family: Family, within: Span, used: Iterable<Span>): Generator<Block> {
  for (const g of gaps(within, used)) yield* cidrBlocks(family, g);
}

/** The start of the first `length` block that fits in the free intervals, in address order; null when none does. */
export function firstFit(family: Family, free: Iterable<Span>, length: number): bigint | null {
  const size = 1n << BigInt(maxLength(family) - length);
  for (const g of free) {
    const start = ((g.lo + size - 1n) / size) * size;
    if (start + size - 1n <= g.hi) return start;
  }
  return null;
}

/** Two span lists sorted by `lo`, merged. */
function* merged(a: readonly Span[], b: readonly Span[]): Generator<Span> {
  let i = 0,
    j = 0;
  while (i < a.length || j < b.length) yield j >= b.length || (i < a.length && a[i].lo <= b[j].lo) ? a[i++] : b[j++];
}

/** Inserts a span into a list sorted by `lo`. */
function insertSorted(list: Span[], s: Span): void {
  let k = list.length;
  while (k > 0 && list[k - 1].lo > s.lo) k--;
  list.splice(k, 0, s);
}

/**
 * Blocks for several requested lengths, each the first fit in what the requests before it left
 * free (NetBox's order); `failed`: the index of the first request that found no room.
 */
export function allocateBlocks(
  family: Family,
  within: Span,
  used: readonly Span[],
  lengths: readonly number[],
): { blocks: Block[] } | { failed: number } {
  const taken: Span[] = [];
  const blocks: Block[] = [];
  for (let i = 0; i < lengths.length; i++) {
    const start = firstFit(family, gaps(within, merged(used, taken)), lengths[i]);
    if (start === null) return { failed: i };
    const b = { network: start, length: lengths[i] };
    blocks.push(b);
    insertSorted(taken, spanOf(family, b));
  }
  return { blocks };
}

/**
 * Addresses of a block NetBox never offers: an IPv4 block shorter than /31 its network and
 * broadcast address, an IPv6 block shorter than /127 its first (subnet-router anycast) address.
 */
export function reservedAddresses(family: Family, block: Block): Span[] {
  const all = spanOf(family, block);
  if (family === 4 && block.length < 31)
    return [
      { lo: all.lo, hi: all.lo },
      { lo: all.hi, hi: all.hi },
    ];
  if (family === 6 && block.length < 127) return [{ lo: all.lo, hi: all.lo }];
  return [];
}

/** The intervals of free addresses of a block (of the part `within`): not taken, not reserved. */
export function addressGaps(family: Family, block: Block, within: Span, used: readonly Span[]): Generator<Span> {
  return gaps(within, merged(used, reservedAddresses(family, block)));
}

/** The first free addresses of a block, at most `limit`, in address order. */
export function freeAddresses(
  family: Family,
  block: Block,
  within: Span,
  used: readonly Span[],
  limit: number,
): bigint[] {
  const out: bigint[] = [];
  for (const g of addressGaps(family, block, within, used)) {
    for (let x = g.lo; x <= g.hi && out.length < limit; x++) out.push(x);
    if (out.length >= limit) break;
  }
  return out;
}

/** How many addresses the free intervals hold. */
export function countAddresses(free: Iterable<Span>): bigint {
  let n = 0n;
  for (const g of free) n += g.hi - g.lo + 1n;
  return n;
}
