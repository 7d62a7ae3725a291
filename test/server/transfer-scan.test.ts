// An export reads the store through Storage.scan on every backend: the whole list in the list's order, more
// chunks than one, the same rows as the JSON pages; a client that goes away mid-export stops it and frees what it
// held (the next exports run); and exports count under MAX_HEAVY_QUERIES.
import { expect } from 'chai';
import http from 'node:http';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/backend-server.js';
import { ADMIN_KEY, type TestServer } from '../support/server.js';
import { EXPORT_CHUNK } from '../../server/transfer/export.js';
import { parse } from 'csv-parse/sync';

const ROWS = Math.round(EXPORT_CHUNK * 2.5);
const AUTH = { Authorization: `Token ${ADMIN_KEY}` };
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function load(srv: TestServer): Promise<void> {
  const lines = ['prefix,description'];
  // Descriptions repeat (an ordering on them ties: the id decides) and run against the prefixes' order.
  for (let i = 0; i < ROWS; i++)
    lines.push(`10.${i >> 8}.${i & 255}.0/24,d${String((ROWS - i) % 97).padStart(3, '0')}`);
  const res = await fetch(`${srv.url}/api/ipam/prefixes/`, {
    method: 'POST',
    headers: { ...AUTH, 'Content-Type': 'text/csv' },
    body: lines.join('\n'),
  });
  expect(res.status, await res.text()).to.equal(200);
}

/** The ids of the JSON list in its order, page by page. */
async function jsonIds(srv: TestServer, query: string): Promise<string[]> {
  const out: string[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await srv.req('GET', `/api/ipam/prefixes/?${query}&limit=1000&offset=${offset}`, undefined, ADMIN_KEY);
    out.push(...page.body.results.map((o: { id: unknown }) => String(o.id)));
    if (!page.body.next) return out;
  }
}

/** Starts an export and leaves it unread (backpressure holds it); `stop()` goes away. */
async function heldExport(srv: TestServer, query = '') {
  const req = http.get(`${srv.url}/api/ipam/prefixes/?format=csv${query}`, { headers: AUTH });
  const res = await new Promise<http.IncomingMessage>((resolve) => req.on('response', resolve));
  res.pause();
  return { status: res.statusCode, stop: () => req.destroy() };
}

for (const backend of BACKENDS)
  describe(`CSV export through Storage.scan (${backend.name})`, function () {
    this.timeout(300_000);
    const h = serverOn(backend, { maxHeavyQueries: 1 });
    let chunks = 0;
    before(async function () {
      if (!h.srv) return;
      await load(h.srv);
      const storage = h.srv.running.ctx.storage;
      const scan = storage.scan!.bind(storage);
      storage.scan = async function* (...args) {
        for await (const rows of scan(...args)) {
          chunks++;
          yield rows;
        }
      };
    });

    for (const ordering of ['', 'description', '-description', '-prefix'])
      it(`exports every row in the list's order (ordering=${ordering || 'default'}), a chunk at a time`, async () => {
        chunks = 0;
        const q = ordering ? `ordering=${ordering}` : '';
        const res = await fetch(`${h.srv.url}/api/ipam/prefixes/?format=csv&${q}`, { headers: AUTH });
        expect(res.status).to.equal(200);
        const rows = parse(await res.text(), { columns: true }) as { id: string }[];
        expect(rows.map((r) => r.id)).to.deep.equal(await jsonIds(h.srv, q));
        expect(chunks).to.equal(Math.ceil(ROWS / EXPORT_CHUNK));
      });

    it('stops reading when the client goes away, and later exports still run', async () => {
      // Wide rows (a long text custom field): the export outgrows the sockets' buffers within its first chunks.
      const cf = { name: 'notes', type: 'text', content_types: ['ipam.prefix'] };
      expect((await h.srv.req('POST', '/api/extras/custom-fields/', cf, ADMIN_KEY)).status).to.equal(201);
      const all = await wideRows(h.srv, 'x'.repeat(8000));
      for (let i = 0; i < all.length; i += 100) {
        const wide = await h.srv.req('PATCH', '/api/ipam/prefixes/', all.slice(i, i + 100), ADMIN_KEY);
        expect(wide.status, JSON.stringify(wide.body).slice(0, 300)).to.equal(200);
      }
      chunks = 0;
      const held = await heldExport(h.srv);
      await wait(1000);
      const seen = chunks;
      expect(seen)
        .to.be.greaterThan(0)
        .and.lessThan(Math.ceil(ROWS / EXPORT_CHUNK));
      held.stop();
      await wait(500);
      expect(chunks).to.be.at.most(seen + 1);
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${h.srv.url}/api/ipam/prefixes/?format=csv&fields=id,prefix`, { headers: AUTH });
        expect(res.status).to.equal(200);
        expect((await res.text()).trim().split('\r\n')).to.have.length(ROWS + 1);
      }
    });

    it('counts an export under MAX_HEAVY_QUERIES: one past the cap is a 429 until the first ends', async () => {
      const first = await heldExport(h.srv);
      expect(first.status).to.equal(200);
      const second = await fetch(`${h.srv.url}/api/ipam/prefixes/?format=yaml`, { headers: AUTH });
      expect(second.status).to.equal(429);
      expect(second.headers.get('retry-after')).to.equal('1');
      expect(((await second.json()) as { code: string }).code).to.equal('too_many_heavy_queries');
      // A light page is not held by the cap.
      expect((await h.srv.req('GET', '/api/ipam/prefixes/?limit=5', undefined, ADMIN_KEY)).status).to.equal(200);
      first.stop();
      await wait(500);
      const third = await fetch(`${h.srv.url}/api/ipam/prefixes/?format=csv&limit=1`, { headers: AUTH });
      expect(third.status).to.equal(200);
      await third.text();
    });
  });

/** A bulk PATCH giving every prefix a long `notes`. */
async function wideRows(srv: TestServer, text: string) {
  const out: { id: unknown; custom_fields: { notes: string } }[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await srv.req(
      'GET',
      `/api/ipam/prefixes/?limit=1000&offset=${offset}&fields=id`,
      undefined,
      ADMIN_KEY,
    );
    out.push(...page.body.results.map((o: { id: unknown }) => ({ id: o.id, custom_fields: { notes: text } })));
    if (!page.body.next) return out;
  }
}
