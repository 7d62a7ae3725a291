// `Authorization: Token <key>` / `Bearer <key>` (a v2 key: `Bearer nbt_<key id>.<secret>`): 401 with
// WWW-Authenticate when missing, unknown, expired or disabled; 403 from an address outside the
// token's allowed_ips (the client address: engine/net/client-address.ts) or without the permission.
// Permissions are `<app>.<action>_<model>` or `*`. The token check and the permission check are one
// function each (`checkToken`, `refusal`), called by the app's middleware and by the cached-list door
// (list-door.ts) alike.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import type { ResourceDef } from '../engine/schema/types.js';
import { allows, type Principal, type Tokens } from '../app/tokens.js';
import { permissionFor as modelPermission } from '../engine/schema/model-permissions.js';
import { clientAddress, inNetworks } from '../engine/net/client-address.js';

export type Action = 'view' | 'add' | 'change' | 'delete';

export function permissionFor(r: Pick<ResourceDef, 'app' | 'name'>, action: Action): string {
  return modelPermission(r, action);
}

// On Node's request, so the door can hand the app a request whose token it already checked.
declare module 'http' {
  interface IncomingMessage {
    principal?: Principal;
  }
}

/** `Token <key>` / `Bearer <key>`: the key in [1], or null. */
export const tokenMatch = (header: string | undefined): RegExpExecArray | null =>
  /^(?:Token|Bearer)\s+(\S+)\s*$/i.exec(header ?? '');

/** Why a request is refused, as its answer: the status and the detail of the JSON body. */
export interface Refusal {
  readonly status: 401 | 403;
  readonly detail: string;
}

export type TokenChecked = { readonly ok: true; readonly principal: Principal } | ({ readonly ok: false } & Refusal);

/** What a token is checked against: the Authorization header, and where the request comes from. */
export type Asking = { readonly headers: IncomingHttpHeaders; readonly socket: { readonly remoteAddress?: string } };

/**
 * Who asks, from the request's Authorization header, or the 401 (no, unknown, expired or disabled
 * token) or 403 (from outside the token's allowed_ips) it is answered with. The token's principal is
 * cached (app/tokens.ts); the address check is per request.
 */
export async function checkToken(tokens: Tokens, req: Asking): Promise<TokenChecked> {
  const m = tokenMatch(req.headers.authorization);
  const principal = m ? await tokens.authenticate(m[1]) : null;
  if (!principal)
    return { ok: false, status: 401, detail: m ? 'Invalid token.' : 'Authentication credentials were not provided.' };
  if (principal.allowedIps.length) {
    const from = clientAddress(req.socket.remoteAddress ?? '', req.headers['x-forwarded-for'], tokens.trusted);
    if (!inNetworks(principal.allowedIps, from))
      return { ok: false, status: 403, detail: `Source IP ${from} is not permitted to authenticate using this token.` };
  }
  return { ok: true, principal };
}

/** The 403 a principal gets for an action it may not take, or null when it may. */
export function refusal(principal: Principal | undefined, permission: string): Refusal | null {
  if (principal && allows(principal, permission)) return null;
  return { status: 403, detail: `You do not have permission to perform this action (${permission}).` };
}

export function authenticate(tokens: Tokens): RequestHandler {
  return async (req, res, next) => {
    if (req.principal) {
      next();
      return;
    } // checked before the body was read, or at the door
    const who = await checkToken(tokens, req);
    if (!who.ok) {
      if (who.status === 401) res.set('WWW-Authenticate', 'Token');
      res.status(who.status).json({ detail: who.detail });
      return;
    }
    req.principal = who.principal;
    next();
  };
}

export function requirePermission(permission: string): RequestHandler {
  return (req, res, next) => {
    const no = refusal(req.principal, permission);
    if (no) {
      res.status(no.status).json({ detail: no.detail });
      return;
    }
    next();
  };
}

/** Does the request carry a body (that the JSON or YAML parser would read)? */
export const hasBody = (req: Pick<IncomingMessage, 'headers'>): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * Before any body is read: a request with a body and without a valid token is answered 401 at
 * once and its connection closed, so unauthenticated clients cannot make the server buffer bodies.
 */
export function authenticateBeforeBody(tokens: Tokens): RequestHandler {
  const check = authenticate(tokens);
  return (req, res, next) => {
    if (!hasBody(req)) {
      next();
      return;
    }
    res.set('Connection', 'close'); // set now; removed once the token passes
    Promise.resolve(
      check(req, res, () => {
        res.removeHeader('Connection');
        next();
      }),
    ).catch(next);
  };
}

/** Whose view a kept page is: the token's view permissions and their constraints, sorted (once per principal). */
const scopes = new WeakMap<Principal, string>();

/**
 * The part of a kept list page's key that says who may be sent it. Today the list's own view
 * permission decides access and every viewer sees the same rows, but a page also shows objects of
 * other resources (a prefix's site, VRF, tenant), so the scope is every view permission the token
 * holds, not only the list's: two tokens share a kept page only when they see the same everywhere.
 */
export function viewScope(p: Principal): string {
  let s = scopes.get(p);
  if (s === undefined) {
    // A constrained view sees its constraints' objects (`$user`: the user's): they are part of the scope.
    s = p.permissions
      .filter((x) => x === '*' || /^[^.]+\.view_/.test(x))
      .sort()
      .map((x) => (p.constraints[x] ? `${x}=${JSON.stringify(p.constraints[x])}` : x))
      .join(' ');
    if (s.includes('"$user"')) s += ` $user=${p.userId}`;
    scopes.set(p, s);
  }
  return s;
}
