// memory:/dir keeps every acknowledged write across a restart.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../support/server.js';
import { encodeRecord } from '../../storage/memory/journal-format.js';

describe('memory:/dir persistence', () => {
  it('objects, updates, deletes and tokens survive a restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-'));
    let srv = await startServer({ storage: `memory:${dir}` });
    const a = await srv.req('POST', '/api/dcim/sites/', { name: 'a', slug: 'a' });
    const b = await srv.req('POST', '/api/dcim/sites/', { name: 'b', slug: 'b' });
    await srv.req('PATCH', `/api/dcim/sites/${a.body.id}/`, { asn: 64512 });
    await srv.req('DELETE', `/api/dcim/sites/${b.body.id}/`);
    const tok = await srv.req('POST', '/api/users/tokens/', { permissions: ['dcim.view_site'] });
    await srv.close();

    srv = await startServer({ storage: `memory:${dir}`, tokens: [] });
    const list = await srv.req('GET', '/api/dcim/sites/', undefined, tok.body.key);
    expect(list.status).to.equal(200);
    expect(list.body.results.map((s: { name: string; asn: number }) => [s.name, s.asn])).to.deep.equal([['a', 64512]]);
    // A second restart reads the compacted snapshot.
    await srv.close();
    srv = await startServer({ storage: `memory:${dir}`, tokens: [] });
    expect((await srv.req('GET', '/api/dcim/sites/?asn=64512', undefined, tok.body.key)).body.count).to.equal(1);
    await srv.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a torn last journal line (crash mid-write) is ignored', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-'));
    let srv = await startServer({ storage: `memory:${dir}` });
    await srv.req('POST', '/api/dcim/sites/', { name: 'kept', slug: 'kept' });
    await srv.close();
    fs.appendFileSync(path.join(dir, 'journal.jsonl'), '[{"op":"create","resource":"site","row":{"id":');
    srv = await startServer({ storage: `memory:${dir}` });
    expect((await srv.req('GET', '/api/dcim/sites/')).body.count).to.equal(1);
    await srv.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'devices journaled before they had device_type, role ' + 'and platform load, read back null and take them',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-'));
      let srv = await startServer({ storage: `memory:${dir}` });
      const site = await srv.req('POST', '/api/dcim/sites/', { name: 'old', slug: 'old' });
      await srv.close();
      // A device as the previous release wrote it: none of the three keys.
      const now = '2026-01-01T00:00:00.000Z';
      const id = '00000000-0000-4000-8000-0000000000e1';
      fs.appendFileSync(
        path.join(dir, 'journal.jsonl'),
        encodeRecord([
          {
            op: 'create',
            resource: 'device',
            row: {
              id,
              created: now,
              last_updated: now,
              version: 1,
              name: 'old-rtr',
              site: site.body.id,
              status: 'active',
              serial: '',
              asset_tag: null,
              comments: '',
              tags: [],
              custom_fields: {},
            },
          },
        ]),
      );
      for (let start = 0; start < 2; start++) {
        // the journal, then the snapshot compacted from it
        srv = await startServer({ storage: `memory:${dir}` });
        const dev = await srv.req('GET', `/api/dcim/devices/${id}/`);
        expect(dev.status).to.equal(200);
        expect([dev.body.device_type, dev.body.role, dev.body.platform]).to.deep.equal([null, null, null]);
        expect(
          (await srv.req('GET', '/api/dcim/devices/?role=null&device_type__isnull=true&platform_id=null')).body.count,
        ).to.equal(1);
        await srv.close();
      }
      srv = await startServer({ storage: `memory:${dir}` });
      const mf = await srv.req('POST', '/api/dcim/manufacturers/', { name: 'Cisco', slug: 'cisco' });
      const dt = await srv.req('POST', '/api/dcim/device-types/', {
        manufacturer: mf.body.id,
        model: 'ASR 1001-X',
        slug: 'asr1001x',
      });
      const role = await srv.req('POST', '/api/dcim/device-roles/', { name: 'Edge router', slug: 'edge-router' });
      const patched = await srv.req('PATCH', `/api/dcim/devices/${id}/`, {
        device_type: dt.body.id,
        role: role.body.id,
      });
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      expect([patched.body.device_type.model, patched.body.role.slug]).to.deep.equal(['ASR 1001-X', 'edge-router']);
      await srv.close();
      srv = await startServer({ storage: `memory:${dir}` });
      expect(
        (await srv.req('GET', '/api/dcim/devices/?manufacturer=cisco')).body.results.map((d: { id: string }) => d.id),
      ).to.deep.equal([id]);
      await srv.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  );
});
