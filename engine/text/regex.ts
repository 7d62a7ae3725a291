// Regular expressions on user input run on an RE2-semantics engine: linear time, no backtracking.
import { RE2JS } from 're2js';
import { countedRepeatAt, scan } from './regex-scan.js';

export interface CompiledRegex {
  test(s: string): boolean;
}

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

/** The first counted repetition over MAX_REPEAT (outside classes and \\Q…\\E), or null. */
function repeatOverLimit(pattern: string): string | null {
  let over: string | null = null;
  scan(pattern, (tok, i) => {
    if (tok === '\\Q') {
      const end = pattern.indexOf('\\E', i + 2);
      return { text: '', last: end < 0 ? pattern.length - 1 : end + 1 };
    }
    const rep = tok === '{' && over === null ? countedRepeatAt(pattern, i) : null;
    if (rep && Math.max(rep.min, rep.max ?? 0) > MAX_REPEAT) over = rep.text;
    return null;
  });
  return over;
}

/** The error message for an invalid pattern, or null when it compiles (and every backend runs it). */
export function regexError(pattern: string): string | null {
  const r = compileRegex(pattern, false);
  if (typeof r === 'string') return r;
  const over = repeatOverLimit(pattern);
  return over ? `repetition count ${over} is over ${MAX_REPEAT}, the most every storage backend runs` : null;
}
