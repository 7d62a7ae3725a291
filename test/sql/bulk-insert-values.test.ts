// A bulk create stores every value as sent, whatever characters it holds: PostgreSQL's multi-row
// INSERT binds each column as one text made by the store (an array literal, or a JSON array for
// JSON columns), so quotes, backslashes, commas, braces, the word NULL, an empty text and JSON
// values with all of these must come back as written, in the rows and in their change records.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { BACKENDS } from '../conformance/backends.js';
import { startServer, type TestServer } from '../support/server.js';

const AWKWARD = ['a"b', 'back\\slash', '\\"both\\"', 'comma, {brace}', 'NULL', 'null', '', ' lead and trail ', 'ünï\u00e7ødé ✓', 'new\nline\ttab', '{"json":"text"}', '\\\\'];

for (const backend of BACKENDS) {
  describe(`bulk create values on ${backend.name}`, function () {
    this.timeout(60000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    let srv: TestServer;
    before(async function () {
      db = await backend.url();
      if (!db) { this.skip(); return; }
      srv = await startServer({ storage: db.url });
    });
    after(async () => { await srv?.close(); await db?.drop(); });

    it('text and JSON with quotes, backslashes, braces and NULL come back as sent, in rows and change records', async () => {
      const cf = await srv.req('POST', '/api/extras/custom-fields/', { name: 'note', type: 'text', content_types: ['dcim.site', 'ipam.prefix'] });
      expect(cf.status, JSON.stringify(cf.body)).to.equal(201);
      for (const [path, body] of [
        ['/api/dcim/sites/', AWKWARD.map((t, i) => ({ name: `s${i}`, slug: `s${i}`, description: t, custom_fields: { note: t } }))],
        ['/api/ipam/prefixes/', AWKWARD.map((t, i) => ({ prefix: `10.9.${i}.0/24`, status: 'active', description: t, custom_fields: { note: t } }))],
      ] as const) {
        const made = await srv.req('POST', path, body);
        expect(made.status, JSON.stringify(made.body)).to.equal(201);
        const ids = (made.body as { id: string }[]).map((o) => o.id);
        for (let i = 0; i < ids.length; i++) {
          const got = (await srv.req('GET', `${path}${ids[i]}/`)).body;
          expect([got.description, got.custom_fields.note], `${path} ${JSON.stringify(AWKWARD[i])}`).to.deep.equal([AWKWARD[i], AWKWARD[i]]);
        }
        const changes = (await srv.req('GET', `/api/extras/object-changes/?limit=0&request_id=${encodeURIComponent((await srv.req('GET', `/api/extras/object-changes/?limit=1&changed_object_id=${ids[0]}`)).body.results[0].request_id)}`)).body.results as Record<string, any>[];
        expect(changes).to.have.length(AWKWARD.length);
        for (const c of changes) {
          const i = ids.indexOf(c.changed_object_id);
          expect(c.prechange_data, 'a create has no data before it').to.equal(null);
          expect([c.object_data.description, c.object_data.custom_fields.note]).to.deep.equal([AWKWARD[i], AWKWARD[i]]);
        }
      }
    });
  });
}
