// RE2 patterns (already validated by the planner) rewritten for the database regex engines where
// the spelling differs but the meaning is the same. What cannot be rewritten is listed in
// docs/storage.md ("Regular expressions").

/** Replacement text for a token, and optionally the index of the last pattern char it consumed. */
type Rewrite = { readonly text: string; readonly last?: number } | null;

/**
 * Copies a pattern, letting `outside` rewrite tokens (an escape `\x` or one character) that are
 * not inside a bracket expression. Bracket expressions are copied as they are.
 */
function scan(pattern: string, outside: (tok: string, i: number) => Rewrite): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    const tok = c === '\\' && i + 1 < pattern.length ? c + pattern[i + 1] : c;
    if (inClass) {
      if (tok === ']') inClass = false;
      out += tok;
      i += tok.length - 1;
      continue;
    }
    if (tok === '[') {
      inClass = true;
      out += '[';
      // A leading ']' (or '^]') is a literal member, not the end of the class.
      if (pattern[i + 1] === '^') { out += '^'; i++; }
      if (pattern[i + 1] === ']') { out += ']'; i++; }
      continue;
    }
    const r = outside(tok, i);
    out += r ? r.text : tok;
    i = r?.last ?? i + tok.length - 1;
  }
  return out;
}

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
    if (tok === '{') { const rep = /^\{\d+(?:,\d*)?\}/.exec(pattern.slice(i)); return rep ? { text: rep[0], last: i + rep[0].length - 1 } : { text: '\\{' }; }
    if (tok === '}') return { text: '\\}' };
    return null;
  });
}
