// How a figure reads, in a table and on a chart axis alike: at most three significant digits and
// no padded zeros, so an axis says `1 ms`, `100 µs` or `1 s`, never `1000.0 ms`.

/** 1234.5 -> "1.23k"-free plain text: three significant digits, trailing zeros dropped. */
const sig3 = (x: number): string => String(Number(x.toPrecision(3)));

/** A duration given in microseconds: ns, µs, ms or s, whichever keeps the number between 1 and 1000. */
export function duration(us: number): string {
  if (us < 1) return `${sig3(us * 1000)} ns`;
  if (us < 1e3) return `${sig3(us)} µs`;
  if (us < 1e6) return `${sig3(us / 1e3)} ms`;
  return `${sig3(us / 1e6)} s`;
}

/** A duration given in milliseconds (HTTP and lag figures). */
export const ms = (v: number): string => duration(v * 1000);

/** A median and a p99 in one cell. */
export const pair = (medianUs: number, p99Us: number): string => `${duration(medianUs)} / ${duration(p99Us)}`;

/** A whole count with thousands separators: 1,000,000. */
export const count = (n: number): string => Math.round(n).toLocaleString('en-US');

/** A count as an axis or a heading says it: 10k, 1M, 2.5M. */
export function short(n: number): string {
  if (n >= 1e6) return `${sig3(n / 1e6)}M`;
  if (n >= 1e3) return `${sig3(n / 1e3)}k`;
  return sig3(n);
}

/** A ratio: 1 decimal below 10, whole above (with separators): 0.9×, 12×, 2,025×. */
export const ratio = (r: number): string => (r < 10 ? `${r.toFixed(1)}×` : `${count(r)}×`);

/** How many times faster `fast` is than `slow` (both durations). */
export const times = (fast: number, slow: number): string => ratio(slow / fast);

/** A share of a reference rate, to two decimals: 0.88×; a share too small for them says so. */
export const share = (part: number, whole: number): string =>
  part / whole < 0.01 ? '< 0.01×' : `${(part / whole).toFixed(2)}×`;

/** A rate in requests a second, singular when it is one. */
export const perSecond = (n: number, what = 'request'): string =>
  `${count(n)} ${what}${Math.round(n) === 1 ? '' : 's'}/s`;

/** A file's name for a link text. */
export const basename = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
