// RE2 patterns (already validated by the planner) rewritten for the database regex engines where
// the spelling differs but the meaning is the same. What cannot be rewritten is listed in
// docs/storage.md ("Regular expressions").

/**
 * RE2 -> PostgreSQL ARE: word boundaries are \y / \Y, end of text is \Z, named groups become
 * plain groups, \Q...\E quoting becomes escaped literals. Bracket expressions are copied as is.
 */
export function re2ToPostgres(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) {
      const n = pattern[i + 1];
      if (!inClass && n === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        const lit = end < 0 ? pattern.slice(i + 2) : pattern.slice(i + 2, end);
        out += lit.replace(/[\\^$.|?*+()[\]{}]/g, (m) => '\\' + m);
        i = end < 0 ? pattern.length : end + 1;
        continue;
      }
      if (!inClass && (n === 'b' || n === 'B' || n === 'z')) {
        out += n === 'b' ? '\\y' : n === 'B' ? '\\Y' : '\\Z';
        i++;
        continue;
      }
      out += c + n;
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      // A leading ']' (or '^]') is a literal member, not the end of the class.
      if (pattern[i + 1] === '^') { out += '^'; i++; }
      if (pattern[i + 1] === ']') { out += ']'; i++; }
      continue;
    }
    if (c === '(' && pattern.startsWith('(?P<', i)) {
      const close = pattern.indexOf('>', i);
      if (close > 0) { out += '('; i = close; continue; }
    }
    if (c === '(' && pattern.startsWith('(?<', i) && pattern[i + 3] !== '=' && pattern[i + 3] !== '!') {
      const close = pattern.indexOf('>', i);
      if (close > 0) { out += '('; i = close; continue; }
    }
    out += c;
  }
  return out;
}

/** RE2 -> MySQL 8 (ICU) / MariaDB (PCRE2): only the Python-style named group needs respelling. */
export function re2ToMysql(pattern: string): string {
  return pattern.replace(/\(\?P</g, '(?<');
}
