// GET /api/authentication-check/ (NetBox's): the token's user, as /api/users/users/{id}/ answers it;
// 401 without a valid token (403 from outside its allowed_ips). No permission needed: a token may
// always learn whose it is.
import type { Express } from 'express';
import { authenticate } from '../auth.js';
import type { AppContext } from '../context.js';
import { authority } from '../../storage/replica/replicated-storage.js';
import { views } from './users-views.js';
import { baseUrl } from './request-url.js';

export const AUTHENTICATION_CHECK_PATH = '/api/authentication-check/';

export function authenticationCheckRoute(app: Express, ctx: AppContext): void {
  app.get(AUTHENTICATION_CHECK_PATH, authenticate(ctx.tokens), async (req, res) => {
    const userId = req.principal!.userId;
    const user = userId === null ? null : await authority(ctx.storage).get('user', userId);
    // A token of an earlier release not yet given a user (start gives every one a user) has none to show.
    if (!user) return void res.status(401).json({ detail: 'This token has no user.' });
    res.json((await views(authority(ctx.storage), baseUrl(req), 'user', [user]))[0]);
  });
}
