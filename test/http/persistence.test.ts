// memory:/dir keeps every acknowledged write across a restart.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from '../support/server.js';

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
});
