// The cached-list door (server/list-door.ts): a kept list page answered before Express routes the
// request gets what the app would have answered (status, headers but Date and X-Request-Id, body),
// is counted in /metrics under the list's route and echoes X-Request-Id; a token the app would
// refuse is refused as the app does (401, 403) even for a kept page; a write is seen at once; with
// READ_REPLICA the answer says X-Read-Source: replica. On memory and on a PostgreSQL replica.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/server-on.js';
import type { TestServer } from '../support/server.js';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { listDoor } from '../../server/list-door.js';

const ADMIN = 'admin-key-0123456789';
const SITES_ONLY = 'sites-only-key-0123456789';
const SITES_AND_TAGS = 'sites-and-tags-key-0123456789';
const PAGE = '/api/ipam/prefixes/?network__net_contained_or_equal=10.0.0.0/8&limit=2';

/** Kept pages sent again, at the door or by the app. */
async function cacheHits(srv: TestServer): Promise<number> {
  const m = /^netinv_page_cache_hits_total (\d+)$/m.exec(await (await fetch(`${srv.url}/metrics`)).text());
  expect(m, 'netinv_page_cache_hits_total in /metrics').to.not.equal(null);
  return Number(m![1]);
}

async function get(
  srv: TestServer,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string>; text: string }> {
  const res = await fetch(srv.url + path, { headers: { Authorization: `Token ${ADMIN}`, ...headers } });
  const out: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    out[k] = v;
  });
  return { status: res.status, headers: out, text: await res.text() };
}

const comparable = (h: Record<string, string>) =>
  Object.fromEntries(Object.entries(h).filter(([k]) => k !== 'date' && k !== 'x-request-id'));

async function requestsCounted(srv: TestServer): Promise<number> {
  const text = await (await fetch(`${srv.url}/metrics`)).text();
  const m = /netinv_http_requests_total\{method="GET",route="\/api\/ipam\/prefixes\/",status="200"\} (\d+)/.exec(text);
  return m ? Number(m[1]) : 0;
}

const cases = [
  { name: 'memory', backend: BACKENDS.find((b) => b.name === 'memory')!, over: {} },
  {
    name: 'postgres with READ_REPLICA=memory',
    backend: BACKENDS.find((b) => b.name === 'postgres')!,
    over: { readReplica: 'memory' },
  },
];

for (const c of cases) {
  describe(`cached list pages at the door on ${c.name}`, function () {
    this.timeout(60000);
    const tokens = [
      { key: ADMIN, permissions: ['*'] },
      { key: SITES_ONLY, permissions: ['dcim.view_site'] },
      { key: SITES_AND_TAGS, permissions: ['extras.view_tag', 'dcim.view_site', 'dcim.add_site'] },
    ];
    const srv = serverOn(
      c.backend,
      async (s) => {
        for (let i = 0; i < 3; i++)
          expect((await s.req('POST', '/api/ipam/prefixes/', { prefix: `10.${i}.0.0/16` })).status).to.equal(201);
      },
      { tokens, ...c.over },
    );

    it('answers a kept page as the app answered it, counts it under the list route, echoes X-Request-Id', async () => {
      const first = await get(srv, PAGE); // read and kept by the app
      expect(first.status).to.equal(200);
      const before = await requestsCounted(srv);
      const again = await get(srv, PAGE, { 'X-Request-Id': 'door-check-1' });
      expect([again.status, again.text]).to.deep.equal([first.status, first.text]);
      expect(comparable(again.headers)).to.deep.equal(comparable(first.headers));
      expect(again.headers['x-request-id']).to.equal('door-check-1');
      if (c.over.readReplica) expect(again.headers['x-read-source']).to.equal('replica');
      expect(await requestsCounted(srv)).to.equal(before + 1);
    });

    it('answers a kept page without the app, and hands the app whatever it does not keep', async () => {
      const kept = await get(srv, PAGE);
      let appCalls = 0;
      const app = (_req: http.IncomingMessage, res: http.ServerResponse) => {
        appCalls++;
        res.statusCode = 599;
        res.end();
      };
      const door = http.createServer(listDoor(srv.running.ctx, app, () => undefined));
      await new Promise<void>((resolve) => door.listen(0, '127.0.0.1', resolve));
      // The page is kept under the real server's host: asked for under it.
      const ask = (path: string, headers: Record<string, string> = {}) =>
        new Promise<{ status: number; text: string }>((resolve, reject) => {
          http
            .get(
              {
                port: (door.address() as AddressInfo).port,
                host: '127.0.0.1',
                path,
                headers: { Host: new URL(srv.url).host, Authorization: `Token ${ADMIN}`, ...headers },
              },
              (res) => {
                let text = '';
                res.on('data', (d) => {
                  text += d;
                });
                res.on('end', () => resolve({ status: res.statusCode!, text }));
              },
            )
            .on('error', reject);
        });
      try {
        expect(await ask(PAGE)).to.deep.equal({ status: 200, text: kept.text });
        expect(appCalls, 'a kept page').to.equal(0);
        for (const [path, headers] of [
          [PAGE, { 'If-None-Match': '*' }],
          [PAGE, { 'X-Min-Change-Seq': '1' }],
          [`${PAGE}&offset=1`, {}],
          [PAGE, { Authorization: 'Token unknown-key-0123456789' }],
          [`${PAGE}&api_version=3.7`, {}],
        ] as const) {
          const before = appCalls;
          expect((await ask(path, headers)).status, `${path} ${JSON.stringify(headers)}`).to.equal(599);
          expect(appCalls).to.equal(before + 1);
        }
      } finally {
        door.close();
      }
    });

    it('refuses a token the app refuses, though the page is kept', async () => {
      await get(srv, PAGE);
      expect((await get(srv, PAGE, { Authorization: 'Token not-a-key-0123456789' })).status).to.equal(401);
      expect((await get(srv, PAGE, { Authorization: `Token ${SITES_ONLY}` })).status).to.equal(403);
      expect((await get(srv, PAGE, { Authorization: '' })).status).to.equal(401);
      expect((await get(srv, PAGE, { Accept: 'application/json; version=9.9' })).status).to.equal(406);
    });

    it('keeps a page for each view scope: another scope is not sent the page kept for the first', async () => {
      const sites = '/api/dcim/sites/?limit=3&ordering=name';
      const as = (key: string) => get(srv, sites, { Authorization: `Token ${key}` });
      const first = await as(ADMIN);
      expect(first.status).to.equal(200);
      let hits = await cacheHits(srv);
      expect((await as(ADMIN)).text, 'the same token: the kept page').to.equal(first.text);
      expect(await cacheHits(srv)).to.equal(hits + 1);
      hits++;
      // `*` and `dcim.view_site` both view sites, but not the same everywhere: a page of its own
      expect((await as(SITES_ONLY)).text).to.equal(first.text);
      expect(await cacheHits(srv), 'another scope: read again, not the kept page').to.equal(hits);
      expect((await as(SITES_ONLY)).text).to.equal(first.text);
      expect(await cacheHits(srv), 'that scope asking again: its own kept page').to.equal(hits + 1);
      hits++;
      expect((await as(SITES_AND_TAGS)).status).to.equal(200);
      expect(await cacheHits(srv), 'one more view permission: another scope').to.equal(hits);
      expect((await as(SITES_AND_TAGS)).status).to.equal(200);
      expect(await cacheHits(srv)).to.equal(hits + 1);
    });

    it('shows a write at once', async () => {
      const before = JSON.parse((await get(srv, PAGE)).text);
      const made = await srv.req('POST', '/api/ipam/prefixes/', { prefix: '10.0.0.0/8' });
      expect(made.status).to.equal(201);
      const after = JSON.parse((await get(srv, PAGE, { 'X-Min-Change-Seq': '0' })).text);
      expect(after.count).to.equal(before.count + 1);
      expect(JSON.parse((await get(srv, PAGE)).text)).to.deep.equal(after);
    });
  });
}
