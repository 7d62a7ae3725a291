// The characters a class of an RE2 pattern (`\d`, `\w`, `\s`, `\pL`, `\p{Greek}`, `\P{…}`,
// `[:alpha:]`, …) stands for, as code point ranges, so that every storage backend can be given the
// class written out: the database engines read these classes otherwise (PostgreSQL has no `\p{…}`,
// and its `\w` is Unicode in the ICU collation its case-insensitive match runs in; MariaDB's PCRE2
// and MySQL's ICU make `\d`, `\w`, `\s` and the POSIX classes Unicode-aware, RE2 keeps them ASCII).
// The ranges are read from the RE2 engine the memory store runs, so they are its own, Unicode
// version included.
import { RE2JS } from 're2js';

/** Inclusive code point ranges, ascending, disjoint. */
export type CodeRanges = readonly (readonly [number, number])[];

/** Surrogate code points: no stored text holds them, so no range names them. */
const SURROGATES = [0xd800, 0xdfff] as const;
const BMP_AFTER = SURROGATES[1] - SURROGATES[0] + 1; // code units skipped by the text below
const ASTRAL_AT = 0x10000 - BMP_AFTER; // index of U+10000 in that text

/** Every code point but the surrogates, in order, as one text (built for a lookup, then dropped). */
function everyCodePoint(): string {
  const parts: string[] = [];
  for (let start = 0; start <= 0x10ffff; start += 0x1000) {
    const cps: number[] = [];
    for (let c = start; c < start + 0x1000 && c <= 0x10ffff; c++)
      if (c < SURROGATES[0] || c > SURROGATES[1]) cps.push(c);
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

/** Ranges without the surrogate code points (no stored text holds one). */
function withoutSurrogates(ranges: readonly (readonly [number, number])[]): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of ranges) {
    if (a < SURROGATES[0]) out.push([a, Math.min(b, SURROGATES[0] - 1)]);
    if (b > SURROGATES[1]) out.push([Math.max(a, SURROGATES[1] + 1), b]);
  }
  return out;
}

/** What RE2JS compiles a lone class to: one rune instruction, then the match. Not its public API. */
interface Program {
  readonly start: number;
  readonly inst: readonly { readonly op: number; readonly out: number; readonly runes?: ArrayLike<number> }[];
}
const OP = { MATCH: 6, RUNE: 8, RUNE1: 9, RUNE_ANY: 10 } as const;

/** The ranges read from the compiled program (instant), or null when it has another shape. */
function fromProgram(cls: string): [number, number][] | null {
  // The only cast of RE2JS: its types stop at the public API, and the compiled program is not in it.
  const prog = (RE2JS.compile(cls) as unknown as { re2Input?: { prog?: Program } }).re2Input?.prog;
  const inst = prog?.inst?.[prog.start];
  if (!inst || prog!.inst[inst.out]?.op !== OP.MATCH) return null;
  const runes = inst.runes ? Array.from(inst.runes) : [];
  if (inst.op === OP.RUNE_ANY) return [[0, 0x10ffff]];
  if (inst.op === OP.RUNE1 && runes.length === 1) return [[runes[0], runes[0]]];
  if (inst.op !== OP.RUNE || runes.length === 0 || runes.length % 2) return null;
  const out: [number, number][] = [];
  for (let i = 0; i < runes.length; i += 2) out.push([runes[i], runes[i + 1]]);
  return out;
}

/** The first and last ranges' ends match and the code points just outside them do not: the
 * program was read right (test/engine/text/regex-classes.test.ts compares whole tables with a run over
 * every code point; a search over a large class costs RE2JS ~60 µs per character, so not here). */
function agrees(cls: string, ranges: readonly (readonly [number, number])[]): boolean {
  const valid = (cp: number) => cp >= 0 && cp <= 0x10ffff && (cp < SURROGATES[0] || cp > SURROGATES[1]);
  const ends: number[] = [],
    outside: number[] = [];
  ranges.forEach(([a, b], i) => {
    ends.push(...[a, b].filter(valid));
    if (valid(a - 1) && !(i > 0 && ranges[i - 1][1] === a - 1)) outside.push(a - 1);
    if (valid(b + 1) && !(i + 1 < ranges.length && ranges[i + 1][0] === b + 1)) outside.push(b + 1);
  });
  const sample = (xs: number[]) => (xs.length > 4 ? [...xs.slice(0, 2), ...xs.slice(-2)] : xs);
  ends.splice(0, ends.length, ...sample(ends));
  outside.splice(0, outside.length, ...sample(outside));
  const inside =
    ends.length === 0 ||
    RE2JS.compile(`^(?:${cls})+$`)
      .matcher(String.fromCodePoint(...ends))
      .matches();
  const none =
    outside.length === 0 ||
    !RE2JS.compile(`(?:${cls})`)
      .matcher(String.fromCodePoint(...outside))
      .find();
  return inside && none;
}

/** The ranges by running the class over every code point (~0.1–0.4 s): the way that needs no internals. */
export function scannedRanges(cls: string): CodeRanges {
  const text = everyCodePoint();
  const m = RE2JS.compile(`(?:${cls})+`).matcher(text);
  const out: [number, number][] = [];
  // A match ends after its last code point's units: two of them above U+FFFF.
  while (m.find()) out.push([codePointAt(m.start()), codePointAt(m.end() - (m.end() > ASTRAL_AT ? 2 : 1))]);
  return withoutSurrogates(out); // a run over the text's gap at the surrogates is split there
}

/**
 * The ranges of one class, written as RE2 reads it alone: `\d`, `\PL`, `\p{^Greek}`, `[[:alpha:]]`.
 * The pattern it comes from was validated by the planner, so the class compiles. Read from the
 * program RE2JS compiles the class to, checked at each range's ends; should that shape ever change,
 * from a run over every code point (the same answer, slower). Kept per class (RE2 knows a few
 * hundred names).
 */
export function classRanges(cls: string): CodeRanges {
  const hit = known.get(cls);
  if (hit) return hit;
  const read = fromProgram(cls);
  const ranges = read && agrees(cls, read) ? withoutSurrogates(read) : scannedRanges(cls);
  known.set(cls, ranges);
  return ranges;
}
