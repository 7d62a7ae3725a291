// RE2 patterns for the `matches` guard op. RE2 guarantees linear-time
// matching, so user-supplied patterns cannot hang the process the way
// backtracking JS RegExp can on e.g. (a+)+$.
import { RE2JS } from 're2js';

export type Compiled = { ok: true; re: RE2JS } | { ok: false; error: string };

// Guards are plain data, so compiled patterns are cached here rather than
// stored on the MachineDef. Bounded: cleared when full.
const CACHE_LIMIT = 512;
const cache = new Map<string, Compiled>();

export function compilePattern(pattern: string): Compiled {
  const hit = cache.get(pattern);
  if (hit) return hit;
  let compiled: Compiled;
  try {
    compiled = { ok: true, re: RE2JS.compile(pattern) };
  } catch (err) {
    compiled = { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, compiled);
  return compiled;
}
