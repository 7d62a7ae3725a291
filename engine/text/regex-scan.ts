// Walking an RE2 pattern token by token, outside bracket expressions: what the respelling for each
// database (engine/sql/regex-translate.ts) and the planner's own limits (regex.ts) both need.

/** Replacement text for a token, and optionally the index of the last pattern char it consumed. */
export type Rewrite = { readonly text: string; readonly last?: number } | null;

/**
 * Copies a pattern, letting `outside` rewrite tokens (an escape `\x` or one character) that are
 * not inside a bracket expression. Bracket expressions are copied as they are.
 */
export function scan(pattern: string, outside: (tok: string, i: number) => Rewrite): string {
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
      if (pattern[i + 1] === '^') {
        out += '^';
        i++;
      }
      if (pattern[i + 1] === ']') {
        out += ']';
        i++;
      }
      continue;
    }
    const r = outside(tok, i);
    out += r ? r.text : tok;
    i = r?.last ?? i + tok.length - 1;
  }
  return out;
}

/** A counted repetition `{n}`, `{n,}` or `{n,m}` starting at i, with its counts; null when the brace is a literal. */
const COUNTED_REPEAT = /\{(\d+)(?:(,)(\d*))?\}/y;

export function countedRepeatAt(pattern: string, i: number): { text: string; min: number; max: number | null } | null {
  COUNTED_REPEAT.lastIndex = i;
  const m = COUNTED_REPEAT.exec(pattern);
  if (!m) return null;
  return { text: m[0], min: Number(m[1]), max: m[2] === undefined ? Number(m[1]) : m[3] ? Number(m[3]) : null };
}
