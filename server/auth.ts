// `Authorization: Token <key>`: 401 with WWW-Authenticate when missing or unknown, 403 without
// the permission. Permissions are `<app>.<action>_<model>` or `*`.
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

export function authenticate(tokens: Tokens): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.get('authorization') ?? '';
    const m = /^(?:Token|Bearer)\s+(\S+)\s*$/i.exec(header);
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
