// Hex <-> uint32 word conversion and word comparison, for the containment index and the memory
// store's network column. Parsing by char code keeps query setup free of substring allocations.
import { hexDigit, type AddrHex, type Family } from './ip.js';

/** Reads 8 hex chars of hex starting at `at` as a uint32; NaN if any char is not hex. */
export function hexWord(hex: string, at: number): number {
  let v = 0;
  for (let i = at; i < at + 8; i++) {
    const d = hexDigit(hex.charCodeAt(i));
    if (d < 0) return NaN;
    v = v * 16 + d;
  }
  return v;
}

/** Writes the 4 words of a 32-char IPv6 hex into out[at..at+3]; false if malformed. */
export function hexToWords6(hex: AddrHex, out: Uint32Array, at: number): boolean {
  if (hex.length !== 32) return false;
  for (let k = 0; k < 4; k++) {
    const w = hexWord(hex, k * 8);
    if (w !== w) return false; // NaN
    out[at + k] = w;
  }
  return true;
}

/** 8-char IPv4 hex -> uint32, or -1 if malformed. */
export function hexToWord4(hex: AddrHex): number {
  if (hex.length !== 8) return -1;
  const w = hexWord(hex, 0);
  return w === w ? w : -1;
}

/** MASK[l] = int32 with the top l bits set (l = 0..32). */
export const MASK = new Int32Array(33);
for (let l = 1; l <= 32; l++) MASK[l] = -1 << (32 - l);

/** Bits of prefix length `len` that fall in 32-bit word k (0..3) of an IPv6 address. */
export function wordBits(len: number, k: number): number {
  const b = len - 32 * k;
  return b <= 0 ? 0 : b >= 32 ? 32 : b;
}

export function checkLength(family: Family, length: number): boolean {
  return Number.isInteger(length) && length >= 0 && length <= (family === 4 ? 32 : 128);
}

/** Address hex -> out[at..at+3]: IPv4 in the first word and zeros after, IPv6 as its four words. */
export function addrWords(family: Family, hex: AddrHex, out: Uint32Array, at: number): void {
  if (family === 4) {
    out[at] = hexToWord4(hex);
    out[at + 1] = out[at + 2] = out[at + 3] = 0;
  } else hexToWords6(hex, out, at);
}

/** Compares the 4-word addresses a[i..i+3] and b[j..j+3]. */
export function cmpWords(a: Uint32Array, i: number, b: Uint32Array, j: number): number {
  for (let k = 0; k < 4; k++) if (a[i + k] !== b[j + k]) return a[i + k] < b[j + k] ? -1 : 1;
  return 0;
}
