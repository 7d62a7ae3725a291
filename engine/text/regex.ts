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

/** The error message for an invalid pattern, or null when it compiles. */
export function regexError(pattern: string): string | null {
  const r = compileRegex(pattern, false);
  return typeof r === 'string' ? r : null;
}
