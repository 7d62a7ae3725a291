// POST /api/users/tokens/provision/ (NetBox's): a username and password -> a new token of that user,
// its key shown once. No token needed. scrypt runs whether or not the user exists, so a wrong name,
// a wrong password and a right one take the same time; failed tries are slowed (app/login-throttle.ts).
import express, { type Request, type Response } from 'express';
import { checkPassword } from '../../app/passwords.js';
import { LoginThrottle } from '../../app/login-throttle.js';
import { versionOf, StorageConflict } from '../../storage/types.js';
import type { AppContext } from '../context.js';
import { authority } from '../../storage/replica/replicated-storage.js';
import { madeView, TOKEN_OPTIONS, tokenOptions, tokenView } from './token-view.js';
import { currentPepper } from '../../app/token-keys.js';
import { clientAddress } from '../../engine/net/client-address.js';
import { baseUrl } from './request-url.js';

export const PROVISION_PATH = '/api/users/tokens/provision/';
/** What a provision may give. */
export const PROVISION_FIELDS = ['username', 'password', ...TOKEN_OPTIONS];

export function provisionRoute(ctx: AppContext): express.RequestHandler[] {
  const throttle = new LoginThrottle();
  const handler = async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const errors: Record<string, string[]> = Object.create(null);
    if (typeof body !== 'object' || Array.isArray(body))
      return void res.status(400).json({ non_field_errors: ['Expected a dictionary.'] });
    for (const k of Object.keys(body)) if (!PROVISION_FIELDS.includes(k)) errors[k] = ['Unknown field.'];
    for (const k of ['username', 'password'])
      if (typeof body[k] !== 'string' || body[k] === '') errors[k] = ['This field is required.'];
    const opts = tokenOptions(body, errors, currentPepper(ctx.tokens.peppers) !== null);
    if (Object.keys(errors).length) return void res.status(400).json(errors);
    const username = body.username as string;
    // Slowed per client address: behind a trusted proxy, the client's, not the proxy's.
    const address = clientAddress(req.socket.remoteAddress ?? '', req.headers['x-forwarded-for'], ctx.tokens.trusted);
    const wait = throttle.wait(username, address);
    if (wait > 0) {
      res.set('Retry-After', String(Math.ceil(wait / 1000)));
      return void res.status(429).json({ detail: `Too many failed logins; try again in ${Math.ceil(wait / 1000)} s.` });
    }
    const [user] = await authority(ctx.storage).findBy('user', 'username', username);
    const ok = await checkPassword(String(body.password), user?.password as string | undefined);
    if (!ok || !user || user.is_active === false) {
      throttle.failed(username, address);
      return void res.status(403).json({ detail: 'Invalid username/password' });
    }
    throttle.succeeded(username, address);
    const made = await ctx.tokens.createForUser(user.id, opts);
    await noteLogin(ctx, user.id);
    res.status(201).json(madeView(await tokenView(ctx, baseUrl(req), made.row), made));
  };
  return [express.json({ limit: '16kb', strict: false }), handler];
}

/** last_login, as NetBox sets it: compare-and-swapped, tried again when another write came between. */
async function noteLogin(ctx: AppContext, userId: string): Promise<void> {
  for (let i = 0; i < 8; i++) {
    const user = await authority(ctx.storage).get('user', userId);
    if (!user) return;
    const row = { ...user, last_login: new Date().toISOString(), version: versionOf(user) + 1 };
    try {
      await authority(ctx.storage).apply([
        { op: 'update', resource: 'user', row, before: user, expectVersion: versionOf(user) },
      ]);
      return;
    } catch (e) {
      if (!(e instanceof StorageConflict && e.field === 'version')) throw e;
    }
  }
}
