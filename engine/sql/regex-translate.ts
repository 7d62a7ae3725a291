// RE2 patterns (already validated by the planner) rewritten for the database regex engines where
// the spelling differs but the meaning is the same. What cannot be rewritten is listed in
// docs/storage.md ("Regular expressions").
import { classRanges, type CodeRanges } from '../text/regex-classes.js';
import { countedRepeatAt, scan } from '../text/regex-scan.js';

/**
 * How a database's regex engine is told a class RE2 knows: each class (`\d \D \s \S \w \W`,
 * `\pL`, `\p{Greek}`, `\P{…}`, `\p{^…}`, `[:alpha:]` and the other POSIX names, in a bracket
 * expression or not) is written out as the code point ranges RE2 gives it (engine/text/regex-classes.ts),
 * so every backend matches the characters the memory store matches; `\b` / `\B` become look-arounds
 * over RE2's (ASCII) word characters.
 */
interface ClassSpelling {
  /** One code point inside a bracket expression. */
  readonly codePoint: (cp: number) => string;
  /** The lowest code point a text of this database can hold (PostgreSQL's text has no NUL). */
  readonly lowest: number;
  /** A word character, as RE2's `\b` reads one: ASCII, never case-folded. */
  readonly wordChar: string;
  /** `\v` (a vertical tab in RE2), where the engine reads it otherwise. */
  readonly verticalTab: string | null;
}

/** ASCII letters, digits and `_` as they are; anything else by number. */
const plain = (cp: number): string | null =>
  /^[0-9A-Za-z_]$/.test(String.fromCodePoint(cp)) ? String.fromCodePoint(cp) : null;
const hex = (cp: number, width: number): string => cp.toString(16).toUpperCase().padStart(width, '0');

const POSTGRES_CLASSES: ClassSpelling = {
  codePoint: (cp) => plain(cp) ?? (cp <= 0xffff ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`),
  lowest: 1,
  // Under ~* each character of a bracket expression is joined by its upper and lower case: ASCII here.
  wordChar: '[0-9A-Z_a-z]',
  verticalTab: null,
};
const MYSQL_CLASSES: ClassSpelling = {
  codePoint: (cp) => plain(cp) ?? `\\x{${hex(cp, 1)}}`,
  lowest: 0,
  // (?-i:…): RE2's \b never folds case; PCRE2 and ICU would let the Kelvin sign in for k under (?i).
  wordChar: '(?-i:[0-9A-Z_a-z])',
  verticalTab: '\\x{B}', // PCRE2 and ICU read \v as any vertical space
};

/**
 * A class escape (`\d`, `\pL`, `\P{Greek}`, …) starting at i, and the index of its last character;
 * null for another escape.
 */
function classEscapeAt(pattern: string, i: number): { cls: string; last: number } | null {
  const kind = pattern[i + 1];
  if ('dDsSwW'.includes(kind)) return { cls: pattern.slice(i, i + 2), last: i + 1 };
  if (kind !== 'p' && kind !== 'P') return null;
  if (pattern[i + 2] !== '{') return { cls: pattern.slice(i, i + 3), last: i + 2 };
  const end = pattern.indexOf('}', i + 3);
  return { cls: pattern.slice(i, end + 1), last: end };
}

/**
 * A class escape as its positive class and whether it is negated: `\\W` is not `\\w`, `\\P{^Greek}`
 * is `\\p{Greek}`.
 */
function polarity(cls: string): { positive: string; negated: boolean } {
  const kind = cls[1];
  if ('DSW'.includes(kind)) return { positive: `\\${kind.toLowerCase()}`, negated: true };
  if ('dsw'.includes(kind)) return { positive: cls, negated: false };
  const name = cls[2] === '{' ? cls.slice(3, -1) : cls.slice(2);
  const negated = (kind === 'P') !== name.startsWith('^');
  return { positive: `\\p{${name.replace(/^\^/, '')}}`, negated };
}

/** Ranges as the items of a bracket expression; none from below the database's lowest code point. */
function spellRanges(ranges: CodeRanges, d: ClassSpelling): string {
  let out = '';
  for (const [from, to] of ranges) {
    const a = Math.max(from, d.lowest);
    if (a > to) continue;
    out +=
      a === to
        ? d.codePoint(a)
        : to === a + 1
          ? d.codePoint(a) + d.codePoint(to)
          : `${d.codePoint(a)}-${d.codePoint(to)}`;
  }
  return out;
}

/** A bracket expression of these items: one that matches nothing (or anything) when there are none. */
function bracket(items: string, negated: boolean, d: ClassSpelling): string {
  if (items) return `[${negated ? '^' : ''}${items}]`;
  const every = spellRanges([[0, 0x10ffff]], d);
  return negated ? `[${every}]` : `[^${every}]`;
}

/** The bracket expression starting at i (RE2 syntax) with its classes written out, and the index of its `]`. */
function bracketAt(pattern: string, i: number, d: ClassSpelling): { text: string; last: number } {
  let j = i + 1;
  const negated = pattern[j] === '^';
  if (negated) j++;
  let items = '';
  let afterClass = false; // a '-' right after a written-out class is a literal, as in RE2
  for (let first = true; j < pattern.length; j++, first = false) {
    const c = pattern[j];
    if (c === ']' && !first) break;
    if (c === '[' && pattern[j + 1] === ':') {
      const end = pattern.indexOf(':]', j + 2);
      items += spellRanges(classRanges(`[${pattern.slice(j, end + 2)}]`), d);
      j = end + 1;
      afterClass = true;
      continue;
    }
    const cls = c === '\\' ? classEscapeAt(pattern, j) : null;
    if (cls) {
      items += spellRanges(classRanges(cls.cls), d);
      j = cls.last;
      afterClass = true;
      continue;
    }
    if (c === '\\') {
      items += pattern[j + 1] === 'v' && d.verticalTab ? d.verticalTab : pattern.slice(j, j + 2);
      j++;
    } else items += c === '-' && afterClass ? '\\-' : c;
    afterClass = false;
  }
  return { text: bracket(items, negated, d), last: j };
}

/** Classes, `\b`, `\B` (and `\v` where needed) written out for one database; everything else as it was. */
function respellClasses(pattern: string, d: ClassSpelling): string {
  const w = d.wordChar;
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '[') {
      const b = bracketAt(pattern, i, d);
      out += b.text;
      i = b.last;
      continue;
    }
    if (c !== '\\' || i + 1 >= pattern.length) {
      out += c;
      continue;
    }
    const next = pattern[i + 1];
    if (next === 'Q') {
      // quoted text is copied as it is, for the later passes
      const end = pattern.indexOf('\\E', i + 2);
      const last = end < 0 ? pattern.length - 1 : end + 1;
      out += pattern.slice(i, last + 1);
      i = last;
      continue;
    }
    const cls = classEscapeAt(pattern, i);
    if (cls) {
      // A negated class as a negated bracket expression: under case-insensitive matching the engine
      // then folds the class and takes what is left, as RE2 does (ranges of what is left would be
      // folded themselves, and let case partners of the class's letters in).
      const { positive, negated } = polarity(cls.cls);
      out += bracket(spellRanges(classRanges(positive), d), negated, d);
      i = cls.last;
      continue;
    }
    if (next === 'b') out += `(?:(?<=${w})(?!${w})|(?<!${w})(?=${w}))`;
    else if (next === 'B') out += `(?:(?<=${w})(?=${w})|(?<!${w})(?!${w}))`;
    else if (next === 'v' && d.verticalTab) out += d.verticalTab;
    else out += c + next;
    i++;
  }
  return out;
}

/** A flag set in the pattern, as in `(?s)` or `(?im:…)`: these change what `.` and `$` mean. */
const hasFlag = (pattern: string, flag: string): boolean => new RegExp(`\\(\\?[a-zA-Z]*${flag}`).test(pattern);

/**
 * RE2 -> PostgreSQL ARE: classes written out (respellClasses), end of text is \Z, `.` excludes
 * newline (as in RE2 without (?s)), named groups become plain groups, \Q…\E becomes escaped literals.
 */
export function re2ToPostgres(given: string): string {
  const pattern = respellClasses(given, POSTGRES_CLASSES);
  const dotAll = hasFlag(pattern, 's');
  return scan(pattern, (tok, i) => {
    switch (tok) {
      case '\\z':
        return { text: '\\Z' };
      case '.':
        return dotAll ? null : { text: '[^\\n]' };
      case '\\Q': {
        const end = pattern.indexOf('\\E', i + 2);
        const lit = end < 0 ? pattern.slice(i + 2) : pattern.slice(i + 2, end);
        return { text: lit.replace(/[\\^$.|?*+()[\]{}]/g, (m) => '\\' + m), last: end < 0 ? pattern.length : end + 1 };
      }
      case '(': {
        const named = /^\(\?P?<[A-Za-z_][A-Za-z0-9_]*>/.exec(pattern.slice(i));
        return named ? { text: '(', last: i + named[0].length - 1 } : null;
      }
      default:
        return null;
    }
  });
}

/**
 * RE2 -> MySQL 8 (ICU) / MariaDB (PCRE2): classes written out (respellClasses), the Python-style
 * named group is respelled, `$` (end of text in RE2 unless (?m)) becomes \z, since both engines
 * also let `$` match before a final newline, and a brace that is no counted repetition (a literal
 * in RE2) is escaped, as ICU refuses it bare.
 */
export function re2ToMysql(given: string): string {
  const pattern = respellClasses(given, MYSQL_CLASSES);
  const multiLine = hasFlag(pattern, 'm');
  return scan(pattern, (tok, i) => {
    if (tok === '\\Q') {
      // quoted text is copied untouched (both engines read \Q…\E)
      const end = pattern.indexOf('\\E', i + 2);
      const last = end < 0 ? pattern.length - 1 : end + 1;
      return { text: pattern.slice(i, last + 1), last };
    }
    if (tok === '$') return multiLine ? null : { text: '\\z' };
    if (tok === '(' && pattern.startsWith('(?P<', i)) return { text: '(?<', last: i + 3 };
    if (tok === '\\x' && pattern[i + 2] === '{') {
      // \x{e9}: copied whole
      const end = pattern.indexOf('}', i + 3);
      return end < 0 ? null : { text: pattern.slice(i, end + 1), last: end };
    }
    // A brace that is no counted repetition is a literal in RE2; ICU refuses it bare.
    if (tok === '{') {
      const rep = countedRepeatAt(pattern, i);
      return rep ? { text: rep.text, last: i + rep.text.length - 1 } : { text: '\\{' };
    }
    if (tok === '}') return { text: '\\}' };
    return null;
  });
}
