// The literal fragments every match of an RE2 pattern must contain, as trigram queries, so that a
// trigram index can narrow the rows a regex runs on (as PostgreSQL's pg_trgm does for `~`). The
// answer only ever narrows to a superset: anything the reader below does not fully understand ends
// a fragment (a class, `.`, an escape, an anchor, a repeat) and the regex itself confirms each row.
import { countedRepeatAt } from '../text/regex-scan.js';
import { TrigramIndex } from './trigram-index.js';

/**
 * Rows must hold every trigram of one of the branches (an or of ands); null: no usable literal,
 * every row is a candidate.
 */
export type GramQuery = readonly (readonly string[])[] | null;

/** Beyond this many branches, an and keeps one side and an or gives up (both only widen the answer). */
const MAX_BRANCHES = 16;

type Item =
  | { readonly kind: 'char'; readonly c: string }
  | { readonly kind: 'other' }
  | { readonly kind: 'group'; readonly alt: Item[][] };
type Quantified = Item & { min?: number };

/**
 * A char stands for itself in the lower-cased trigram index only when it is ASCII (lower-casing is
 * then one to one and context-free) and, case-insensitively, when RE2 folds it to ASCII only: `s`
 * also matches `ſ` (U+017F) and `k` the Kelvin sign, whose lower case is `k` (so `k` is safe).
 */
function usable(c: string, ci: boolean): boolean {
  return c.charCodeAt(0) < 0x80 && !(ci && (c === 's' || c === 'S'));
}

const PUNCT = /^[!-/:-@[-`{-~]$/;

/** Index just past a `{…}` starting at i (an escape's braces), or the pattern's end. */
const pastBrace = (p: string, i: number) => {
  const end = p.indexOf('}', i);
  return end < 0 ? p.length : end + 1;
};

/** Index just past a bracket expression starting at `[` (RE2's rules: a leading `]`, `[:name:]`, escapes). */
function pastClass(p: string, i: number): number {
  i++;
  if (p[i] === '^') i++;
  let first = true;
  while (i < p.length && (p[i] !== ']' || first)) {
    first = false;
    if (p[i] === '[' && p[i + 1] === ':') {
      const end = p.indexOf(':]', i + 2);
      if (end >= 0) {
        i = end + 2;
        continue;
      }
    }
    if (p[i] === '\\') {
      const e = p[i + 1];
      i = (e === 'p' || e === 'P' || e === 'x') && p[i + 2] === '{' ? pastBrace(p, i + 2) : i + 2;
      continue;
    }
    i++;
  }
  return i + 1;
}

/** An escape at i: the item it is and the index past it. */
function escapeAt(p: string, i: number, ci: boolean): [Item, number] {
  const e = p[i + 1];
  if (e === undefined) return [{ kind: 'other' }, p.length];
  if (PUNCT.test(e)) return [usable(e, ci) ? { kind: 'char', c: e } : { kind: 'other' }, i + 2];
  let j = i + 2;
  if ((e === 'p' || e === 'P' || e === 'x') && p[j] === '{') j = pastBrace(p, j);
  else if (e === 'p' || e === 'P') j++;
  else if (e === 'x') while (j < p.length && /[0-9a-fA-F]/.test(p[j])) j++;
  else if (/[0-7]/.test(e)) while (j < p.length && /[0-9]/.test(p[j])) j++;
  return [{ kind: 'other' }, j];
}

/** Index past a group's opening: `(`, `(?:`, `(?P<name>`, `(?<name>`, `(?flags:`; -1 for `(?flags)`. */
function groupBody(p: string, i: number): number {
  if (p[i + 1] !== '?') return i + 1;
  if (p[i + 2] === 'P' || p[i + 2] === '<') {
    const end = p.indexOf('>', i);
    return end < 0 ? p.length : end + 1;
  }
  for (let j = i + 2; j < p.length; j++) {
    if (p[j] === ':') return j + 1;
    if (p[j] === ')') return -(j + 1);
  }
  return p.length;
}

/** A repeat at i: its least count and the index past it (and a lazy `?`), or null. */
function repeatAt(p: string, i: number): [number, number] | null {
  const c = p[i];
  let min: number, j: number;
  if (c === '*' || c === '?') [min, j] = [0, i + 1];
  else if (c === '+') [min, j] = [1, i + 1];
  else if (c === '{') {
    const r = countedRepeatAt(p, i);
    if (!r) return null;
    [min, j] = [r.min, i + r.text.length];
  } else return null;
  return [min, p[j] === '?' ? j + 1 : j];
}

/** Reads an alternation from i up to its closing `)` (or the end); the items and the index past it. */
function readAlt(p: string, i: number, ci: boolean): [Item[][], number] {
  const alt: Quantified[][] = [[]];
  while (i < p.length && p[i] !== ')') {
    const c = p[i];
    let item: Quantified;
    if (c === '|') {
      alt.push([]);
      i++;
      continue;
    } else if (c === '\\' && p[i + 1] === 'Q') {
      const end = p.indexOf('\\E', i + 2);
      const text = p.slice(i + 2, end < 0 ? p.length : end);
      const chars = [...text].map((ch): Quantified => (usable(ch, ci) ? { kind: 'char', c: ch } : { kind: 'other' }));
      alt[alt.length - 1].push(...chars);
      i = end < 0 ? p.length : end + 2;
      // A repeat after \E applies to the last char only: mark it like any item's.
      const rep = chars.length ? repeatAt(p, i) : null;
      if (rep) [chars[chars.length - 1].min, i] = rep;
      continue;
    } else if (c === '\\') [item, i] = escapeAt(p, i, ci);
    else if (c === '[') [item, i] = [{ kind: 'other' }, pastClass(p, i)];
    else if (c === '(') {
      const body = groupBody(p, i);
      if (body < 0) {
        i = -body; // a flag group: its flags apply to what follows, which the caller reads as case-insensitive
        continue;
      }
      const [inner, past] = readAlt(p, body, ci);
      [item, i] = [{ kind: 'group', alt: inner }, past + 1];
    } else if ('.^$*+?{}]'.includes(c) || !usable(c, ci)) [item, i] = [{ kind: 'other' }, i + 1];
    else [item, i] = [{ kind: 'char', c }, i + 1];
    const rep = repeatAt(p, i);
    if (rep) [item.min, i] = [rep[0], rep[1]];
    alt[alt.length - 1].push(item);
  }
  return [alt, i];
}

function and(a: GramQuery, b: GramQuery): GramQuery {
  if (!a) return b;
  if (!b) return a;
  if (a.length * b.length > MAX_BRANCHES) return a.length <= b.length ? a : b;
  const out: string[][] = [];
  for (const x of a) for (const y of b) out.push([...new Set([...x, ...y])]);
  return out;
}

function seqQuery(seq: readonly Quantified[]): GramQuery {
  let q: GramQuery = null,
    run = '';
  const flush = () => {
    if (run.length >= 3) q = and(q, [[...TrigramIndex.gramsOf(run)]]);
    run = '';
  };
  for (const item of seq) {
    const min = item.min ?? 1;
    if (item.kind === 'char' && min > 0) {
      run += item.c;
      if (item.min !== undefined) flush(); // repeated: what follows is not adjacent to this char
    } else {
      flush();
      if (item.kind === 'group' && min > 0) q = and(q, altQuery(item.alt));
    }
  }
  flush();
  return q;
}

function altQuery(alt: readonly (readonly Quantified[])[]): GramQuery {
  const out: (readonly string[])[] = [];
  for (const seq of alt) {
    const q = seqQuery(seq);
    if (!q) return null; // a branch without a literal: any row may match
    out.push(...q);
  }
  return out.length > MAX_BRANCHES ? null : out;
}

/**
 * The trigram query every text the pattern matches satisfies, or null when it has none. `ci`: the
 * search is case-insensitive (an inline flag group anywhere is read as making it so).
 */
export function regexGrams(pattern: string, ci: boolean): GramQuery {
  const fold = ci || pattern.includes('(?');
  const [alt, end] = readAlt(pattern, 0, fold);
  // A `)` with no group open (never in a pattern RE2 compiles): read nothing rather than misread.
  if (end < pattern.length) return null;
  return altQuery(alt);
}
