// The characters a class of an RE2 pattern (`\d`, `\w`, `\s`, `\pL`, `\p{Greek}`, `\P{…}`,
// `[:alpha:]`, …) stands for, as code point ranges, so that every storage backend can be given the
// class written out: the database engines read these classes otherwise (PostgreSQL has no `\p{…}`,
// and its `\w` is Unicode in the ICU collation its case-insensitive match runs in; MariaDB's PCRE2
// and MySQL's ICU make `\d`, `\w`, `\s` and the POSIX classes Unicode-aware, RE2 keeps them ASCII).
// The ranges are read from the RE2 engine the memory store runs, so they are its own, Unicode
// version included: each class is run once over every code point, and kept.
import { RE2JS } from 're2js';

/** Inclusive code point ranges, ascending, disjoint. */
export type CodeRanges = readonly (readonly [number, number])[];

/** Surrogate code points: no stored text holds them, so no range names them. */
const SURROGATES = [0xd800, 0xdfff] as const;
const BMP_AFTER = SURROGATES[1] - SURROGATES[0] + 1;   // code units skipped by the text below
const ASTRAL_AT = 0x10000 - BMP_AFTER;                  // index of U+10000 in that text

/** Every code point but the surrogates, in order, as one text (built for a lookup, then dropped). */
function everyCodePoint(): string {
  const parts: string[] = [];
  for (let start = 0; start <= 0x10ffff; start += 0x1000) {
    const cps: number[] = [];
    for (let c = start; c < start + 0x1000 && c <= 0x10ffff; c++) if (c < SURROGATES[0] || c > SURROGATES[1]) cps.push(c);
    parts.push(String.fromCodePoint(...cps));
  }
  return parts.join('');
}

/** The code point at a UTF-16 index of everyCodePoint()'s text. */
function codePointAt(index: number): number {
  if (index < SURROGATES[0]) return index;
  if (index < ASTRAL_AT) return index + BMP_AFTER;
  return 0x10000 + (index - ASTRAL_AT) / 2;
}

const known = new Map<string, CodeRanges>();

/**
 * The ranges of one class, written as RE2 reads it alone: `\d`, `\PL`, `\p{^Greek}`, `[[:alpha:]]`.
 * The pattern it comes from was validated by the planner, so the class compiles. Kept per class
 * (RE2 knows a few hundred names), so only a class's first use pays the scan (~0.1–0.4 s).
 */
export function classRanges(cls: string): CodeRanges {
  const hit = known.get(cls);
  if (hit) return hit;
  const text = everyCodePoint();
  const m = RE2JS.compile(`(?:${cls})+`).matcher(text);
  const out: [number, number][] = [];
  // A match ends after its last code point's units: two of them above U+FFFF.
  while (m.find()) out.push([codePointAt(m.start()), codePointAt(m.end() - (m.end() > ASTRAL_AT ? 2 : 1))]);
  known.set(cls, out);
  return out;
}
