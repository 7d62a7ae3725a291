// Request limits, each with a clear message; the server keeps serving the next request.
import type { RequestHandler } from 'express';
import { MAX_GUARD_DEPTH } from '../engine/lifecycle/validate-guard.js';

export const LIMITS = {
  urlBytes: 16 * 1024,      // longer URL -> 414
  queryParams: 256,         // more parameters -> 400
  bodyBytes: '1mb',         // larger JSON body -> 413 (enforced by the JSON parser)
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
  if (q >= 0) {
    let n = 1;
    for (let i = q + 1; i < req.originalUrl.length; i++) if (req.originalUrl.charCodeAt(i) === 38 /* & */) n++;
    if (n > LIMITS.queryParams) {
      res.status(400).json({ detail: `Too many query parameters (limit ${LIMITS.queryParams}).`, code: 'too_many_parameters' });
      return;
    }
    // NUL cannot be stored or compared by PostgreSQL: refused the same way on every backend.
    if (/%00/.test(req.originalUrl)) {
      const bad = [...new URLSearchParams(req.originalUrl.slice(q + 1))].filter(([k, v]) => k.includes('\0') || v.includes('\0')).map(([k]) => k);
      if (bad.length) { res.status(400).json(Object.fromEntries(bad.map((k) => [k, [NUL_MESSAGE]]))); return; }
    }
  }
  next();
};

export const NUL_MESSAGE = 'Null characters are not allowed.';

/** Does any string (key or value) in a parsed JSON value contain NUL? Iterative. */
function hasNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') { if (v.includes('\0')) return true; continue; }
    if (typeof v !== 'object' || v === null) continue;
    for (const [k, child] of Array.isArray(v) ? v.entries() : Object.entries(v)) {
      if (typeof k === 'string' && k.includes('\0')) return true;
      stack.push(child);
    }
  }
  return false;
}

/** Depth of a parsed JSON value, iteratively (a hostile body cannot overflow the stack). */
export function jsonDepth(value: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
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
  if (req.body !== undefined && hasNul(req.body)) {
    res.status(400).json({ detail: NUL_MESSAGE, code: 'null_character' });
    return;
  }
  next();
};
