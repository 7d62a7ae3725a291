// Issue #39 point 4: tokens of the old form keep working. A store written by the previous release
// holds tokens with a permission list and no user (its Tokens.create wrote exactly the rows made
// below: on SQL, migration 17 leaves such rows with user, expires and write_enabled NULL); at start
// each becomes a user `token-<id>` holding equivalent object permissions, a configured token's
// permissions a user `config-<n>`; a token created through the API with a list gets a user of its own.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createStorage } from '../../storage/open-storage.js';
import { hashKey } from '../../app/tokens.js';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { startServer } from '../support/server.js';
import type { Row } from '../../storage/types.js';

const OLD = [
  { key: 'old-admin-key-0123456789', permissions: ['*'] },
  { key: 'old-viewer-key-0123456789', permissions: ['dcim.view_site', 'dcim.view_device', 'ipam.add_prefix'] },
];
const CONFIGURED = 'configured-key-0123456789';

/** Writes tokens as the previous release did: no user, no expiry, no write_enabled. */
async function writeOldTokens(url: string): Promise<void> {
  const s = await createStorage(url);
  await s.open();
  try {
    const now = new Date().toISOString();
    const ids = await s.newIds('token', OLD.length);
    const rows: Row[] = OLD.map((t, i) => ({
      id: ids[i],
      created: now,
      last_updated: now,
      key_hash: hashKey(t.key),
      key_tail: t.key.slice(-4),
      permissions: t.permissions,
      description: `old ${i}`,
    }));
    await s.apply(rows.map((row) => ({ op: 'create', resource: 'token', row })));
  } finally {
    await s.close();
  }
}

for (const backend of BACKENDS)
  describe(`tokens of the previous release (${backend.name})`, function () {
    this.timeout(120_000);

    it('each keeps its rights through a user of its own; configured ones through config-<n>', async function () {
      const db =
        backend.name === 'memory'
          ? { url: `memory:${fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-legacy-'))}`, drop: async () => {} }
          : await backend.url();
      if (!db) return this.skip();
      try {
        await writeOldTokens(db.url);
        for (let start = 0; start < 2; start++) {
          // Twice: the second start finds everything done and changes nothing.
          const srv = await startServer({
            storage: db.url,
            tokens: [{ key: CONFIGURED, permissions: ['dcim.view_site', 'dcim.change_site'] }],
          });
          try {
            const [admin, viewer] = OLD.map((t) => t.key);
            expect((await srv.req('GET', '/api/dcim/sites/', undefined, admin)).status).to.equal(200);
            expect(
              (await srv.req('POST', '/api/dcim/regions/', { name: 'r', slug: `r${start}` }, admin)).status,
            ).to.equal(201);
            expect((await srv.req('GET', '/api/dcim/sites/', undefined, viewer)).status).to.equal(200);
            expect((await srv.req('GET', '/api/dcim/devices/', undefined, viewer)).status).to.equal(200);
            expect((await srv.req('GET', '/api/ipam/prefixes/', undefined, viewer)).status).to.equal(403);
            expect((await srv.req('POST', '/api/dcim/sites/', { name: 'x', slug: 'x' }, viewer)).status).to.equal(403);
            expect((await srv.req('GET', '/api/dcim/devices/', undefined, CONFIGURED)).status).to.equal(403);
            expect((await srv.req('GET', '/api/dcim/sites/', undefined, CONFIGURED)).status).to.equal(200);

            const users = (await srv.req('GET', '/api/users/users/?limit=0', undefined, admin)).body.results as {
              username: string;
              is_superuser: boolean;
              permissions: { object_types: string[]; actions: string[] }[];
            }[];
            const tokens = (await srv.req('GET', '/api/users/tokens/?limit=0', undefined, admin)).body.results as {
              id: unknown;
              description: string;
              user: { username: string } | null;
            }[];
            expect(tokens.every((t) => t.user !== null)).to.equal(true);
            const userOf = (d: string) =>
              users.find((u) => u.username === tokens.find((t) => t.description === d)!.user!.username)!;
            expect(userOf('old 0').is_superuser).to.equal(true);
            const v = userOf('old 1');
            expect(v.username).to.match(/^token-/);
            expect(v.is_superuser).to.equal(false);
            const granted = v.permissions.flatMap((p) =>
              p.object_types.flatMap((t) => p.actions.map((a) => `${a} ${t}`)),
            );
            expect(granted.sort()).to.deep.equal(['add ipam.prefix', 'view dcim.device', 'view dcim.site']);
            const config = userOf('from config');
            expect(config.username).to.equal('config-1');
            expect(
              users.filter((u) => u.username.startsWith('config-') || u.username.startsWith('token-')),
            ).to.have.length(3);
          } finally {
            await srv.close();
          }
        }
      } finally {
        await db.drop();
      }
    });
  });

describe('tokens created through the API with a permission list (the old form)', () => {
  it('get a user of their own holding the list, removed with the token', async () => {
    const srv = await startServer();
    try {
      const t = await srv.req('POST', '/api/users/tokens/', {
        permissions: ['dcim.view_site'],
        description: 'old form',
      });
      expect(t.status).to.equal(201);
      expect(t.body.user.username).to.equal(`token-${t.body.id}`);
      expect((await srv.req('GET', '/api/dcim/sites/', undefined, t.body.key)).status).to.equal(200);
      expect((await srv.req('GET', '/api/dcim/devices/', undefined, t.body.key)).status).to.equal(403);
      const own = await srv.req('GET', `/api/users/users/?username=token-${t.body.id}`);
      expect(own.body.results[0].permissions).to.have.length(1);
      expect((await srv.req('DELETE', `/api/users/tokens/${t.body.id}/`)).status).to.equal(204);
      expect((await srv.req('GET', `/api/users/users/?username=token-${t.body.id}`)).body.count).to.equal(0);
      expect((await srv.req('GET', '/api/users/permissions/?name=' + `token-${t.body.id}`)).body.count).to.equal(0);
    } finally {
      await srv.close();
    }
  });
});
