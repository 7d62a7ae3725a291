// Request limits, each with a clear message; the server keeps serving the next request.
import type { RequestHandler } from 'express';

export const LIMITS = {
  urlBytes: 16 * 1024,      // longer URL -> 414
  queryParams: 256,         // more parameters -> 400
  bodyBytes: '1mb',         // larger JSON body -> 413 (enforced by the JSON parser)
  jsonDepth: 32,            // deeper nesting -> 400
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
  }
  next();
};

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
  next();
};
