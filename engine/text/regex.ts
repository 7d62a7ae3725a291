// Regular expressions on user input run on an RE2-semantics engine: linear time, no backtracking.
import { RE2JS } from 're2js';

export interface CompiledRegex { test(s: string): boolean }

const cache = new Map<string, CompiledRegex>();
const CACHE_MAX = 1000;

/** Compile (cached) or return the syntax error message. Searches anywhere in the text. */
export function compileRegex(pattern: string, ci: boolean): CompiledRegex | string {
  const key = (ci ? 'i:' : 's:') + pattern;
  const hit = cache.get(key);
  if (hit) return hit;
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, ci ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (e) {
    return (e as Error).message;
  }
  const compiled: CompiledRegex = { test: (s) => re.matcher(s).find() };
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(key, compiled);
  return compiled;
}

/** PostgreSQL's limit on a counted repetition (`a{256}` is an error there); RE2 allows 1000. */
export const MAX_REPEAT = 255;

/** The first counted repetition over MAX_REPEAT outside escapes, classes and \Q…\E, or null. */
function repeatOverLimit(pattern: string): string | null {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      if (pattern[i + 1] === 'Q') { const end = pattern.indexOf('\\E', i + 2); if (end < 0) return null; i = end + 1; continue; }
      i++;
      continue;
    }
    if (inClass) { if (c === ']') inClass = false; continue; }
    if (c === '[') { inClass = true; if (pattern[i + 1] === '^') i++; if (pattern[i + 1] === ']') i++; continue; }
    if (c !== '{') continue;
    const m = /^\{(\d+)(?:,(\d*))?\}/.exec(pattern.slice(i));
    if (m && (Number(m[1]) > MAX_REPEAT || (m[2] !== undefined && m[2] !== '' && Number(m[2]) > MAX_REPEAT))) return m[0];
  }
  return null;
}

/** The error message for an invalid pattern, or null when it compiles (and every backend runs it). */
export function regexError(pattern: string): string | null {
  const r = compileRegex(pattern, false);
  if (typeof r === 'string') return r;
  const over = repeatOverLimit(pattern);
  return over ? `repetition count ${over} is over ${MAX_REPEAT}, the most every storage backend runs` : null;
}
