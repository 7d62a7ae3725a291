// Hex <-> uint32 word conversion for the containment index. Parsing by char
// code keeps query setup free of substring allocations.
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
