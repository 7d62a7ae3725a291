// CSV and YAML export and import over real sockets, on every backend: the round trip of every inventory
// resource into an empty store, a re-import with ids that changes nothing, errors by row and field with
// nothing written, and the character rules (RFC 4180 quoting, formula guard, BOM, ragged rows, encoding).
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/backend-server.js';
import { ADMIN_KEY, type TestServer } from '../support/server.js';
import { INVENTORY_RESOURCES } from '../../server/routes/inventory.js';
import { resourcePath } from '../../engine/schema/registry.js';
import type { ResourceDef } from '../../engine/schema/types.js';

const WRITABLE = INVENTORY_RESOURCES.filter((r) => r.writable !== false);
const AUTH = { Authorization: `Token ${ADMIN_KEY}` };

async function exported(srv: TestServer, path: string): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(srv.url + path, { headers: AUTH });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

async function imported(srv: TestServer, path: string, body: string | Buffer, type = 'text/csv') {
  const res = await fetch(srv.url + path, {
    method: 'POST',
    headers: { ...AUTH, 'Content-Type': type },
    body: new Uint8Array(Buffer.from(body)),
  });
  return { status: res.status, body: await res.json() };
}

/** Columns a first import into an empty store cannot carry: the id, and references to resources that come later
 * (a device's primary IP, an address on its own interface). */
const firstPass = (r: ResourceDef) =>
  ['id', ...r.fields.filter((f) => f.deferred && !f.readOnly).map((f) => f.name)].join(',');

const changeCount = async (srv: TestServer) =>
  (await srv.req('GET', '/api/extras/object-changes/?limit=1')).body.count as number;

for (const backend of BACKENDS)
  describe(`CSV and YAML import and export (${backend.name})`, function () {
    this.timeout(300_000);
    const src = serverOn(backend, { demoData: true });
    const dst = serverOn(backend);

    it('exports every resource and imports it into an empty store, which exports it again identically', async () => {
      let rows = 0;
      for (const r of WRITABLE) {
        const path = `${resourcePath(r)}?format=csv&omit=${firstPass(r)}`;
        const a = await exported(src.srv, path);
        expect(a.status, r.name).to.equal(200);
        expect(a.headers.get('content-disposition')).to.equal(`attachment; filename="${r.plural}.csv"`);
        const got = await imported(dst.srv, resourcePath(r), a.text);
        expect(got.status, `${r.name}: ${JSON.stringify(got.body).slice(0, 500)}`).to.equal(200);
        const b = await exported(dst.srv, path);
        expect(b.text, r.name).to.equal(a.text);
        rows += got.body.created;
      }
      expect(rows).to.be.greaterThan(1000);
    });

    it('re-imports its own export with ids (CSV and YAML) without writing anything', async () => {
      const before = await changeCount(src.srv);
      for (const r of WRITABLE)
        for (const [format, type] of [
          ['csv', 'text/csv'],
          ['yaml', 'application/yaml'],
        ]) {
          const a = await exported(src.srv, `${resourcePath(r)}?format=${format}`);
          const got = await imported(src.srv, resourcePath(r), a.text, type);
          expect(got.status, `${r.name} ${format}: ${JSON.stringify(got.body).slice(0, 300)}`).to.equal(200);
          expect(got.body, r.name).to.include({ created: 0, updated: 0 });
        }
      expect(await changeCount(src.srv)).to.equal(before);
    });

    it('updates by id only the cells given, and reads YAML as the CSV', async () => {
      const site = (await src.srv.req('GET', '/api/dcim/sites/?limit=1')).body.results[0];
      const csv = `id,description\r\n${site.id},"changed, by ""CSV"""\r\n`;
      expect((await imported(src.srv, '/api/dcim/sites/', csv)).body).to.include({ updated: 1, created: 0 });
      const got = (await src.srv.req('GET', `/api/dcim/sites/${site.id}/`)).body;
      expect(got).to.include({ description: 'changed, by "CSV"', name: site.name, facility: site.facility });
      const yaml = `- id: ${site.id}\n  description: again\n`;
      expect((await imported(src.srv, '/api/dcim/sites/', yaml, 'application/yaml')).status).to.equal(200);
      expect((await src.srv.req('GET', `/api/dcim/sites/${site.id}/`)).body.description).to.equal('again');
    });

    it('names every bad row and field, and writes nothing', async () => {
      const before = (await dst.srv.req('GET', '/api/dcim/devices/?limit=1')).body.count;
      const changes = await changeCount(dst.srv);
      const csv = [
        'name,site,status',
        'ok-1,ams-core-01,active',
        'bad-site,no-such-site,active',
        'bad-status,ams-core-01,sideways',
        'ok-2,ams-core-01,planned',
      ].join('\n');
      const got = await imported(dst.srv, '/api/dcim/devices/', csv);
      expect(got.status).to.equal(400);
      expect(got.body.count).to.equal(2);
      expect(got.body.errors.map((e: { row: number; field: string }) => [e.row, e.field])).to.deep.equal([
        [2, 'site'],
        [3, 'status'],
      ]);
      expect(got.body.errors[0].detail).to.match(/no-such-site/);
      expect((await dst.srv.req('GET', '/api/dcim/devices/?limit=1')).body.count).to.equal(before);
      expect(await changeCount(dst.srv)).to.equal(changes);
    });

    it('refuses a row whose id names no object, an unknown column, and a clash inside the file', async () => {
      const missing = await imported(dst.srv, '/api/extras/tags/', 'id,name\n999999,x\n');
      expect(missing.body.errors[0]).to.include({ row: 1, field: 'id' });
      const unknown = await imported(dst.srv, '/api/extras/tags/', 'name,slug,colour\nx,x,red\n');
      expect(unknown.body.errors[0]).to.include({ row: 0, field: 'colour' });
      const twice = await imported(dst.srv, '/api/extras/tags/', 'name,slug\nTwin,twin\nTwin2,twin\n');
      expect(twice.status).to.equal(400);
      expect(twice.body.errors.some((e: { field: string }) => e.field === 'slug')).to.equal(true);
      expect((await dst.srv.req('GET', '/api/extras/tags/?slug=twin')).body.count).to.equal(0);
    });

    it('quotes per RFC 4180, guards formulas, takes a BOM, and names ragged rows and other encodings', async () => {
      const text = 'a, "quoted"\nline';
      const csv = `name,slug,description\r\n"=cmd()",guarded,"${text.replace(/"/g, '""')}"\r\n'@x,at,'-1\r\n`;
      const got = await imported(
        dst.srv,
        '/api/extras/tags/',
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(csv)]),
      );
      expect(got.status, JSON.stringify(got.body)).to.equal(200);
      const tag = (await dst.srv.req('GET', '/api/extras/tags/?slug=guarded')).body.results[0];
      expect(tag).to.include({ name: '=cmd()', description: text });
      expect((await dst.srv.req('GET', '/api/extras/tags/?slug=at')).body.results[0]).to.include({
        name: '@x',
        description: '-1',
      });
      const out = await exported(dst.srv, '/api/extras/tags/?format=csv&slug=guarded&slug=at&ordering=slug&omit=id');
      expect(out.text.charCodeAt(0)).to.not.equal(0xfeff);
      expect(out.text).to.equal(
        `name,slug,color,description\r\n'@x,at,9e9e9e,'-1\r\n'=cmd(),guarded,9e9e9e,"a, ""quoted""\nline"\r\n`,
      );
      const ragged = await imported(dst.srv, '/api/extras/tags/', 'name,slug\nr1,r1\nr2,r2,extra\n');
      expect(ragged.status).to.equal(400);
      expect(ragged.body.errors[0]).to.include({ row: 2 });
      const latin1 = Buffer.concat([Buffer.from('name,slug\nok,ok\ncaf'), Buffer.from([0xe9]), Buffer.from(',cafe\n')]);
      const enc = await imported(dst.srv, '/api/extras/tags/', latin1);
      expect(enc.status).to.equal(400);
      expect(enc.body.errors[0].row).to.equal(2);
      expect(enc.body.errors[0].detail).to.match(/UTF-8/);
      expect((await dst.srv.req('GET', '/api/extras/tags/?slug=r1')).body.count).to.equal(0);
    });

    it('exports by Accept header with the list filters, and fields= narrows the columns', async () => {
      const res = await fetch(`${src.srv.url}/api/dcim/sites/?status=active&fields=name,slug`, {
        headers: { ...AUTH, Accept: 'application/yaml' },
      });
      expect(res.headers.get('content-type')).to.match(/^application\/yaml/);
      const text = await res.text();
      const count = (await src.srv.req('GET', '/api/dcim/sites/?status=active&limit=1')).body.count;
      expect(text.match(/^- /gm)?.length).to.equal(count);
      expect(text.split('\n')[0]).to.match(/^- id: /);
      expect(text).to.not.match(/facility/);
    });
  });
