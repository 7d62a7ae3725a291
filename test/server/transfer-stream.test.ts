// An export is streamed: read from the store a chunk at a time, written as the client takes it, stopped
// when the client goes away. And an import over IMPORT_MAX_ROWS is refused whole.
import { expect } from 'chai';
import http from 'node:http';
import { startServer, ADMIN_KEY, type TestServer } from '../support/server.js';
import { EXPORT_CHUNK } from '../../server/transfer/export.js';

const ROWS = 30_000;
const IMPORT_BATCH = 10_000;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('CSV export streaming (memory)', function () {
  this.timeout(120_000);
  let srv: TestServer;
  let finds = 0;
  before(async () => {
    srv = await startServer();
    const text = 'x'.repeat(200); // big rows: the export is larger than the sockets' buffers
    for (let from = 0; from < ROWS; from += IMPORT_BATCH) {
      const lines = ['prefix,description'];
      for (let i = from; i < from + IMPORT_BATCH; i++) lines.push(`10.${i >> 8}.${i & 255}.0/24,${text}`);
      const res = await fetch(`${srv.url}/api/ipam/prefixes/`, {
        method: 'POST',
        headers: { Authorization: `Token ${ADMIN_KEY}`, 'Content-Type': 'text/csv' },
        body: lines.join('\n'),
      });
      expect(res.status, await res.text()).to.equal(200);
    }
    const storage = srv.running.ctx.storage;
    const scan = storage.scan!.bind(storage);
    storage.scan = async function* (...args) {
      for await (const rows of scan(...args)) {
        if (args[0] === 'prefix') finds++;
        yield rows;
      }
    };
  });
  after(() => srv.close());

  it('reads the whole list a chunk at a time', async () => {
    finds = 0;
    const res = await fetch(`${srv.url}/api/ipam/prefixes/?format=csv&limit=5`, {
      headers: { Authorization: `Token ${ADMIN_KEY}` },
    });
    const lines = (await res.text()).split('\r\n').filter(Boolean);
    expect(lines.length).to.equal(ROWS + 1); // not a page: the whole list, header first
    expect(finds).to.be.at.least(ROWS / EXPORT_CHUNK);
  });

  it('holds a client that does not read by backpressure, and stops when it goes away', async () => {
    finds = 0;
    const req = http.get(`${srv.url}/api/ipam/prefixes/?format=csv`, {
      headers: { Authorization: `Token ${ADMIN_KEY}` },
    });
    const res = await new Promise<http.IncomingMessage>((resolve) => req.on('response', resolve));
    res.pause(); // reads nothing more
    await wait(1000);
    const held = finds;
    expect(held).to.be.greaterThan(0);
    expect(held).to.be.lessThan(ROWS / EXPORT_CHUNK);
    req.destroy();
    await wait(500);
    expect(finds).to.be.at.most(held + 1);
  });
});

describe('CSV import size bound', () => {
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ importMaxRows: 2 });
  });
  after(() => srv.close());

  it('refuses an import over IMPORT_MAX_ROWS with a 413 naming it, writing nothing', async () => {
    const res = await srv.req('POST', '/api/extras/tags/', 'name,slug\na,a\nb,b\nc,c\n', ADMIN_KEY, {
      'Content-Type': 'text/csv',
    });
    expect(res.status).to.equal(413);
    expect(res.body.detail).to.match(/IMPORT_MAX_ROWS/);
    expect((await srv.req('GET', '/api/extras/tags/')).body.count).to.equal(0);
  });
});
