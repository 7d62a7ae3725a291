// Request limits, each with a clear message; the server keeps serving the next request.
import type { RequestHandler } from 'express';
import { MAX_GUARD_DEPTH } from '../engine/lifecycle/machine-schema.js';

export const LIMITS = {
  urlBytes: 16 * 1024, // longer URL -> 414
  queryParams: 256, // more parameters -> 400
  bodyBytes: '1mb', // larger JSON body -> 413 (enforced by the JSON parser)
  // Deeper nesting -> 400. Room for guards nested as deep as their own limit allows (an `all` or
  // `any` level is two JSON levels, a list and an object) inside a definition's own levels.
  jsonDepth: 2 * MAX_GUARD_DEPTH + 8,
} as const;

export const urlLimits: RequestHandler = (req, res, next) => {
  if (Buffer.byteLength(req.originalUrl) > LIMITS.urlBytes) {
    res.status(414).json({ detail: `URL too long (limit ${LIMITS.urlBytes} bytes).`, code: 'uri_too_long' });
    return;
  }
  const q = req.originalUrl.indexOf('?');
  // NUL in a path segment (an entity id, an object id): the same 400 on every backend.
  if (/%00/.test(q < 0 ? req.originalUrl : req.originalUrl.slice(0, q))) {
    res.status(400).json({ detail: NUL_MESSAGE, code: 'null_character' });
    return;
  }
  if (q >= 0) {
    let n = 1;
    for (let i = q + 1; i < req.originalUrl.length; i++) if (req.originalUrl.charCodeAt(i) === 38 /* & */) n++;
    if (n > LIMITS.queryParams) {
      res
        .status(400)
        .json({ detail: `Too many query parameters (limit ${LIMITS.queryParams}).`, code: 'too_many_parameters' });
      return;
    }
    // NUL cannot be stored or compared by PostgreSQL: refused the same way on every backend.
    if (/%00/.test(req.originalUrl)) {
      const bad = [...new URLSearchParams(req.originalUrl.slice(q + 1))]
        .filter(([k, v]) => k.includes('\0') || v.includes('\0'))
        .map(([k]) => k);
      if (bad.length) {
        res.status(400).json(Object.fromEntries(bad.map((k) => [k, [NUL_MESSAGE]])));
        return;
      }
    }
  }
  next();
};

export const NUL_MESSAGE = 'Null characters are not allowed.';

export const SURROGATE_MESSAGE =
  'Text must be valid Unicode: a lone UTF-16 surrogate (\\ud800-\\udfff without its pair) cannot be stored.';

/**
 * The first text (key or value) in a parsed JSON value that no backend stores as written: NUL
 * (PostgreSQL refuses it) or a lone surrogate (PostgreSQL and MariaDB store U+FFFD instead, so it
 * would read back, and compare for uniqueness, differently than memory holds it). Iterative.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function unstorableText(value: unknown): 'null_character' | 'invalid_unicode' | null {
  const stack: unknown[] = [value];
  const check = (s: string) =>
    s.includes('\0') ? 'null_character' : LONE_SURROGATE.test(s) ? 'invalid_unicode' : null;
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') {
      const bad = check(v);
      if (bad) return bad;
      continue;
    }
    if (typeof v !== 'object' || v === null || ArrayBuffer.isView(v)) continue;
    for (const [k, child] of Array.isArray(v) ? v.entries() : Object.entries(v)) {
      if (typeof k === 'string') {
        const bad = check(k);
        if (bad) return bad;
      }
      stack.push(child);
    }
  }
  return null;
}

/** Depth of a parsed JSON value, iteratively (a hostile body cannot overflow the stack). */
export function jsonDepth(value: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (ArrayBuffer.isView(v)) continue; // a raw body (a CSV import's bytes) has no depth: not walked byte by byte
    if (d > max) max = d;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

export const bodyDepthLimit: RequestHandler = (req, res, next) => {
  if (req.body !== undefined && jsonDepth(req.body, LIMITS.jsonDepth) > LIMITS.jsonDepth) {
    res.status(400).json({ detail: `JSON nested deeper than ${LIMITS.jsonDepth} levels.`, code: 'json_too_deep' });
    return;
  }
  const bad = req.body === undefined ? null : unstorableText(req.body);
  if (bad) {
    res.status(400).json({ detail: bad === 'null_character' ? NUL_MESSAGE : SURROGATE_MESSAGE, code: bad });
    return;
  }
  next();
};
