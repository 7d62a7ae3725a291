// IP address / CIDR parsing and formatting over a fixed-width hex encoding.
// Hex is the interchange form because, at fixed width, string order equals
// numeric order, so callers can compare and sort addresses without BigInt.

export type Family = 4 | 6;
/**
 * Address as fixed-width lowercase hex: 8 chars (IPv4) or 32 chars (IPv6). String order == numeric
 * order within a family.
 */
export type AddrHex = string;
export interface Addr {
  family: Family;
  hex: AddrHex;
}
export interface Cidr {
  family: Family;
  host: AddrHex;
  network: AddrHex;
  broadcast: AddrHex;
  length: number;
  hostBitsSet: boolean;
}

export const maxLength = (f: Family): 32 | 128 => (f === 4 ? 32 : 128);

const HEX_CHARS = '0123456789abcdef';
const ZEROS = '0'.repeat(32);
const FS = 'f'.repeat(32);
// Two-char hex for every byte: building hex from bytes then needs no padStart.
const HEX2: string[] = [];
for (let i = 0; i < 256; i++) HEX2.push(HEX_CHARS[i >> 4] + HEX_CHARS[i & 15]);

const C_0 = 48,
  C_9 = 57,
  C_DOT = 46,
  C_COLON = 58;

/** Value of one hex digit char code, or -1. */
export function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const l = c | 0x20; // ASCII lowercase fold
  if (l >= 97 && l <= 102) return l - 87;
  return -1;
}

export function u32ToHex(n: number): AddrHex {
  return HEX2[n >>> 24] + HEX2[(n >>> 16) & 255] + HEX2[(n >>> 8) & 255] + HEX2[n & 255];
}

export function hexToU32(hex8: AddrHex): number {
  let v = 0;
  for (let i = 0; i < 8; i++) v = v * 16 + hexDigit(hex8.charCodeAt(i));
  return v;
}

/** Dotted quad in s[start, end) -> uint32, or -1. Exactly 4 parts, 0-255, no leading zeros. */
function parseV4(s: string, start: number, end: number): number {
  let value = 0;
  let parts = 0;
  let i = start;
  while (true) {
    const first = i;
    let part = 0;
    while (i < end) {
      const c = s.charCodeAt(i);
      if (c < C_0 || c > C_9) break;
      part = part * 10 + (c - C_0);
      i++;
      if (i - first > 3) return -1;
    }
    const digits = i - first;
    if (digits === 0 || part > 255) return -1;
    if (digits > 1 && s.charCodeAt(first) === C_0) return -1; // '010' could mean octal
    value = value * 256 + part;
    parts++;
    if (i === end) break;
    if (s.charCodeAt(i) !== C_DOT || parts === 4) return -1;
    i++;
  }
  return parts === 4 ? value : -1;
}

// Reused group buffer: IPv6 parsing touches it instead of allocating arrays.
const G = new Uint16Array(8);

function groupsToHex(): string {
  let out = '';
  for (let k = 0; k < 8; k++) out += HEX2[G[k] >>> 8] + HEX2[G[k] & 255];
  return out;
}

/** Parse an RFC 4291 textual IPv6 address in s[0, n) into the group buffer G; false if it is not one. */
function parseV6Groups(s: string, n: number): boolean {
  if (n < 2 || n > 45) return false;
  let g = 0; // groups written
  let gap = -1; // group index where '::' sits
  let i = 0;
  if (s.charCodeAt(0) === C_COLON) {
    if (s.charCodeAt(1) !== C_COLON) return false;
    gap = 0;
    i = 2;
  }
  while (i < n) {
    if (g === 8) return false;
    let v = 0;
    let j = i;
    while (j < n && j - i < 5) {
      const h = hexDigit(s.charCodeAt(j));
      if (h < 0) break;
      v = v * 16 + h;
      j++;
    }
    if (j < n && s.charCodeAt(j) === C_DOT) {
      // Embedded IPv4 must be the final 32 bits.
      if (g > 6) return false;
      const v4 = parseV4(s, i, n);
      if (v4 < 0) return false;
      G[g++] = v4 >>> 16;
      G[g++] = v4 & 0xffff;
      break;
    }
    if (j === i || j - i > 4) return false;
    G[g++] = v;
    if (j === n) break;
    if (s.charCodeAt(j) !== C_COLON) return false;
    j++;
    if (j < n && s.charCodeAt(j) === C_COLON) {
      if (gap >= 0) return false;
      gap = g;
      j++;
    } else if (j === n) {
      return false; // single trailing colon
    }
    i = j;
  }
  if (gap < 0) {
    if (g !== 8) return false;
  } else {
    if (g > 7) return false; // '::' stands for at least one zero group
    const tail = g - gap;
    for (let k = 0; k < tail; k++) G[7 - k] = G[g - 1 - k];
    for (let k = gap; k < 8 - tail; k++) G[k] = 0;
  }
  return true;
}

/** Parse an RFC 4291 textual IPv6 address in s to 32-char hex, or null. */
function parseV6(s: string): string | null {
  return parseV6Groups(s, s.length) ? groupsToHex() : null;
}

export function parseAddress(text: string): Addr | null {
  if (typeof text !== 'string') return null;
  if (text.indexOf(':') >= 0) {
    const hex = parseV6(text);
    return hex === null ? null : { family: 6, hex };
  }
  const v = parseV4(text, 0, text.length);
  return v < 0 ? null : { family: 4, hex: u32ToHex(v) };
}

/** Decimal prefix length in s[start, end), digits only, or -1. */
function parseLength(s: string, start: number, end: number, max: number): number {
  const digits = end - start;
  if (digits < 1 || digits > 3) return -1;
  let v = 0;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c < C_0 || c > C_9) return -1;
    v = v * 10 + (c - C_0);
  }
  return v <= max ? v : -1;
}

/** A dotted quad as a uint32, or -1: exactly what parseAddress accepts as IPv4 (no leading zeros). */
export function parseV4Text(text: string): number {
  return parseV4(text, 0, text.length);
}

/**
 * A network text straight into address words (IPv4 in word 0, the rest zero): `family << 8 |
 * length`, or -1 where parseCidr returns null. Loads call this per row; an IPv4 text allocates
 * nothing (parseCidr builds three hex strings).
 */
export function parseCidrWords(text: string, out: Uint32Array, at: number): number {
  const slash = text.indexOf('/');
  const end = slash < 0 ? text.length : slash;
  const colon = text.indexOf(':');
  let family: Family;
  if (colon >= 0 && colon < end) {
    if (!parseV6Groups(text, end)) return -1;
    for (let k = 0; k < 4; k++) out[at + k] = ((G[2 * k] << 16) | G[2 * k + 1]) >>> 0;
    family = 6;
  } else {
    const v = parseV4(text, 0, end);
    if (v < 0) return -1;
    out[at] = v;
    out[at + 1] = out[at + 2] = out[at + 3] = 0;
    family = 4;
  }
  const max = maxLength(family);
  const length = slash < 0 ? max : parseLength(text, slash + 1, text.length, max);
  return length < 0 ? -1 : (family << 8) | length;
}

export function parseCidr(text: string, opts?: { requireLength?: boolean }): Cidr | null {
  if (typeof text !== 'string') return null;
  const slash = text.indexOf('/');
  const addr = parseAddress(slash < 0 ? text : text.slice(0, slash));
  if (addr === null) return null;
  const max = maxLength(addr.family);
  let length: number = max;
  if (slash < 0) {
    if (opts?.requireLength) return null;
  } else {
    length = parseLength(text, slash + 1, text.length, max);
    if (length < 0) return null;
  }
  const network = networkOf(addr.family, addr.hex, length);
  return {
    family: addr.family,
    host: addr.hex,
    network,
    broadcast: broadcastOf(addr.family, addr.hex, length),
    length,
    hostBitsSet: network !== addr.hex,
  };
}

/** Keep the first `length` bits of hex, fill the rest with fill ('0' or 'f' run). */
function maskHex(family: Family, hex: AddrHex, length: number, fill: string): AddrHex {
  const width = family === 4 ? 8 : 32;
  const full = length >> 2;
  const rem = length & 3;
  if (full >= width) return hex;
  if (rem === 0) return hex.slice(0, full) + fill.slice(0, width - full);
  const keep = 0xf & (0xf << (4 - rem));
  const d = hexDigit(hex.charCodeAt(full));
  const nib = fill === ZEROS ? d & keep : d | (~keep & 0xf);
  return hex.slice(0, full) + HEX_CHARS[nib] + fill.slice(0, width - full - 1);
}

export function networkOf(family: Family, hex: AddrHex, length: number): AddrHex {
  return maskHex(family, hex, length, ZEROS);
}

export function broadcastOf(family: Family, hex: AddrHex, length: number): AddrHex {
  return maskHex(family, hex, length, FS);
}

function hex4(hex: string, at: number): number {
  return (
    (hexDigit(hex.charCodeAt(at)) << 12) |
    (hexDigit(hex.charCodeAt(at + 1)) << 8) |
    (hexDigit(hex.charCodeAt(at + 2)) << 4) |
    hexDigit(hex.charCodeAt(at + 3))
  );
}

/** Dotted quad of an IPv4 address held as a uint32. */
export function formatV4(n: number): string {
  return (n >>> 24) + '.' + ((n >>> 16) & 255) + '.' + ((n >>> 8) & 255) + '.' + (n & 255);
}

/** Is the address in G IPv4-mapped (::ffff:a.b.c.d)? Such are written with a dotted tail, as RFC
 * 5952 section 5 and PostgreSQL print them. */
function mappedV4(): boolean {
  return G[0] === 0 && G[1] === 0 && G[2] === 0 && G[3] === 0 && G[4] === 0 && G[5] === 0xffff;
}

/** Start of the longest run of at least two zero groups in G (the first wins a tie), -1 if none;
 * its length goes to `zeroRun`. */
let zeroRun = 0;
function longestZeroRun(): number {
  let best = -1,
    bestLen = 1;
  for (let k = 0; k < 8;) {
    if (G[k] !== 0) {
      k++;
      continue;
    }
    let e = k;
    while (e < 8 && G[e] === 0) e++;
    if (e - k > bestLen) {
      best = k;
      bestLen = e - k;
    }
    k = e;
  }
  zeroRun = bestLen;
  return best;
}

function formatV6(hex: string): string {
  for (let k = 0; k < 8; k++) G[k] = hex4(hex, k * 4);
  if (mappedV4()) return '::ffff:' + formatV4(((G[6] << 16) | G[7]) >>> 0);
  const best = longestZeroRun(),
    bestLen = zeroRun;
  let out = '';
  for (let k = 0; k < 8; k++) {
    if (k === best) {
      out += '::';
      k += bestLen - 1;
      continue;
    }
    if (out.length > 0 && out.charCodeAt(out.length - 1) !== C_COLON) out += ':';
    out += G[k].toString(16);
  }
  return out;
}

/**
 * Is s[start, end) the very text formatV6 writes for the IPv6 address in four words (masked to
 * `length` bits, the rest filled with ones when `ones`)? Loads check every stored text this way:
 * formatting it to compare would build a dozen strings per row.
 */
export function isCanonicalV6(
  s: string,
  start: number,
  end: number,
  w: Uint32Array,
  at: number,
  length = 128,
  ones = false,
): boolean {
  for (let k = 0; k < 8; k++) {
    const bits = Math.min(16, Math.max(0, length - k * 16));
    const keep = bits === 16 ? 0xffff : (0xffff << (16 - bits)) & 0xffff;
    const word = w[at + (k >> 1)],
      g = k & 1 ? word & 0xffff : word >>> 16;
    G[k] = ones ? (g & keep) | (~keep & 0xffff) : g & keep;
  }
  if (mappedV4())
    return (
      end - start > 7 && s.startsWith('::ffff:', start) && parseV4(s, start + 7, end) === ((G[6] << 16) | G[7]) >>> 0
    );
  const best = longestZeroRun(),
    bestLen = zeroRun;
  let i = start;
  for (let k = 0; k < 8; k++) {
    if (k === best) {
      if (s.charCodeAt(i) !== C_COLON || s.charCodeAt(i + 1) !== C_COLON) return false;
      i += 2;
      k += bestLen - 1;
      continue;
    }
    if (i > start && s.charCodeAt(i - 1) !== C_COLON) {
      if (s.charCodeAt(i) !== C_COLON) return false;
      i++;
    }
    // The group's hex digits, lower case, without leading zeros.
    const g = G[k];
    for (let shift = g >= 0x1000 ? 12 : g >= 0x100 ? 8 : g >= 0x10 ? 4 : 0; shift >= 0; shift -= 4, i++)
      if (i >= end || s.charCodeAt(i) !== HEX_CHARS.charCodeAt((g >> shift) & 15)) return false;
  }
  return i === end;
}

export function formatAddress(a: Addr): string {
  return a.family === 4 ? formatV4(hexToU32(a.hex)) : formatV6(a.hex);
}

export function formatCidr(family: Family, hex: AddrHex, length: number): string {
  return formatAddress({ family, hex }) + '/' + length;
}
