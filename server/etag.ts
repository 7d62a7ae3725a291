// Strong ETags of single inventory objects, made from the row's version, and the If-Match header
// that makes a client's own read-modify-write safe: a stale version is a 412, never a lost update.
import type { Request, Response } from 'express';
import type { Precondition } from '../app/inventory.js';
import { versionOf, type Row } from '../storage/types.js';

export function setEtag(res: Response, row: Row): void {
  res.setHeader('ETag', `"${versionOf(row)}"`);
}

/**
 * The versions an If-Match header accepts: null when absent or `*` (any current version). Weak tags
 * (`W/"3"`) never match, as RFC 9110 compares If-Match strongly; a header naming no version of ours
 * accepts none.
 */
export function ifMatchOf(req: Request): Precondition {
  const h = req.get('if-match');
  if (h === undefined || h.trim() === '*') return null;
  const out: number[] = [];
  for (const m of h.matchAll(/(W\/)?"([^"]*)"/g)) if (!m[1] && /^\d{1,15}$/.test(m[2])) out.push(Number(m[2]));
  return out;
}
