// RE2 patterns (already validated by the planner) rewritten for the database regex engines where
// the spelling differs but the meaning is the same. What cannot be rewritten is listed in
// docs/storage.md ("Regular expressions").
import { countedRepeatAt, scan } from '../text/regex-scan.js';

/** A flag set in the pattern, as in `(?s)` or `(?im:…)`: these change what `.` and `$` mean. */
const hasFlag = (pattern: string, flag: string): boolean => new RegExp(`\\(\\?[a-zA-Z]*${flag}`).test(pattern);

/**
 * RE2 -> PostgreSQL ARE: word boundaries are \y / \Y, end of text is \Z, `.` excludes newline
 * (as in RE2 without (?s)), named groups become plain groups, \Q…\E becomes escaped literals.
 */
export function re2ToPostgres(pattern: string): string {
  const dotAll = hasFlag(pattern, 's');
  return scan(pattern, (tok, i) => {
    switch (tok) {
      case '\\b': return { text: '\\y' };
      case '\\B': return { text: '\\Y' };
      case '\\z': return { text: '\\Z' };
      case '.': return dotAll ? null : { text: '[^\\n]' };
      case '\\Q': {
        const end = pattern.indexOf('\\E', i + 2);
        const lit = end < 0 ? pattern.slice(i + 2) : pattern.slice(i + 2, end);
        return { text: lit.replace(/[\\^$.|?*+()[\]{}]/g, (m) => '\\' + m), last: end < 0 ? pattern.length : end + 1 };
      }
      case '(': {
        const named = /^\(\?P?<[A-Za-z_][A-Za-z0-9_]*>/.exec(pattern.slice(i));
        return named ? { text: '(', last: i + named[0].length - 1 } : null;
      }
      default: return null;
    }
  });
}

/**
 * RE2 -> MySQL 8 (ICU) / MariaDB (PCRE2): the Python-style named group is respelled, `$`
 * (end of text in RE2 unless (?m)) becomes \z, since both engines also let `$` match before a
 * final newline, a one-letter Unicode class `\pL` / `\PL` gets the braces ICU requires, and a
 * brace that is no counted repetition (a literal in RE2) is escaped, as ICU refuses it bare.
 */
export function re2ToMysql(pattern: string): string {
  const multiLine = hasFlag(pattern, 'm');
  return scan(pattern, (tok, i) => {
    if (tok === '\\Q') { // quoted text is copied untouched (both engines read \Q…\E)
      const end = pattern.indexOf('\\E', i + 2);
      const last = end < 0 ? pattern.length - 1 : end + 1;
      return { text: pattern.slice(i, last + 1), last };
    }
    if (tok === '$') return multiLine ? null : { text: '\\z' };
    if (tok === '(' && pattern.startsWith('(?P<', i)) return { text: '(?<', last: i + 3 };
    if ((tok === '\\p' || tok === '\\P' || tok === '\\x') && pattern[i + 2] === '{') { // \p{Greek}, \x{e9}: copied whole
      const end = pattern.indexOf('}', i + 3);
      return end < 0 ? null : { text: pattern.slice(i, end + 1), last: end };
    }
    if ((tok === '\\p' || tok === '\\P') && /[A-Za-z]/.test(pattern[i + 2] ?? '')) return { text: `${tok}{${pattern[i + 2]}}`, last: i + 2 };
    // A brace that is no counted repetition is a literal in RE2; ICU refuses it bare.
    if (tok === '{') { const rep = countedRepeatAt(pattern, i); return rep ? { text: rep.text, last: i + rep.text.length - 1 } : { text: '\\{' }; }
    if (tok === '}') return { text: '\\}' };
    return null;
  });
}
