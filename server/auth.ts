// `Authorization: Token <key>`: 401 with WWW-Authenticate when missing or unknown, 403 without
// the permission. Permissions are `<app>.<action>_<model>` or `*`.
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ResourceDef } from '../engine/schema/types.js';
import { allows, type Principal, type Tokens } from '../storage/service/tokens.js';

export type Action = 'view' | 'add' | 'change' | 'delete';

export function permissionFor(r: Pick<ResourceDef, 'app' | 'name'>, action: Action): string {
  return `${r.app}.${action}_${r.name.replace(/_/g, '')}`;
}

declare module 'express-serve-static-core' {
  interface Request { principal?: Principal }
}

/** `Token <key>` / `Bearer <key>`: the key in [1], or null. */
export const tokenMatch = (header: string | undefined): RegExpExecArray | null => /^(?:Token|Bearer)\s+(\S+)\s*$/i.exec(header ?? '');

export function authenticate(tokens: Tokens): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.principal) { next(); return; } // checked before the body was read
    const m = tokenMatch(req.headers.authorization);
    const principal = m ? await tokens.authenticate(m[1]) : null;
    if (!principal) {
      res.set('WWW-Authenticate', 'Token').status(401).json({ detail: m ? 'Invalid token.' : 'Authentication credentials were not provided.' });
      return;
    }
    req.principal = principal;
    next();
  };
}

export function requirePermission(permission: string): RequestHandler {
  return (req, res, next) => {
    if (!req.principal || !allows(req.principal, permission)) {
      res.status(403).json({ detail: `You do not have permission to perform this action (${permission}).` });
      return;
    }
    next();
  };
}

/** Does the request carry a body (that the JSON or YAML parser would read)? */
export const hasBody = (req: Pick<IncomingMessage, 'headers'>): boolean => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * Before any body is read: a request with a body and without a valid token is answered 401 at
 * once and its connection closed, so unauthenticated clients cannot make the server buffer bodies.
 */
export function authenticateBeforeBody(tokens: Tokens): RequestHandler {
  const check = authenticate(tokens);
  return (req, res, next) => {
    if (!hasBody(req)) { next(); return; }
    res.set('Connection', 'close'); // set now; removed once the token passes
    Promise.resolve(check(req, res, () => { res.removeHeader('Connection'); next(); })).catch(next);
  };
}
