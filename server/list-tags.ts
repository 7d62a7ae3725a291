// Entity tags of list pages. Only a client that sends If-None-Match gets one (no other answer pays
// for it), and it is made from the state the page is read from, never by hashing the body: the
// memory store's generation, or the change seq of the database's log read before the page is. A
// page read after the tag's state holds at least that state, so a 304 never keeps a client on an
// answer older than the tag says. Any write moves the tag (a nested site's new name shows on a
// prefix page, which row versions alone would miss).
import type { Request, Response } from 'express';
import type { MemoryReadState, Storage } from '../storage/types.js';

/** The tag of a list answer read now from `state` (memory), else at the database's change seq. */
export async function listTag(storage: Storage, state: MemoryReadState | null, res: Response): Promise<string> {
  const at = state ? state.tag : `s${await storage.changeSeq()}`;
  return `W/"${at}-${String(res.getHeader('API-Version') ?? '')}"`;
}

/** Whether If-None-Match names `tag` (weak comparison, RFC 9110 13.1.2) or is `*`. */
export function noneMatch(req: Request, tag: string): boolean {
  const h = req.get('if-none-match');
  if (h === undefined) return false;
  if (h.trim() === '*') return true;
  const opaque = tag.replace(/^W\//, '');
  return h.split(',').some((t) => t.trim().replace(/^W\//, '') === opaque);
}
