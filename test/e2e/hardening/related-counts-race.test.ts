// Related counts under racing writers: 6 writers through two server processes on one database
// create prefixes in bulk (sites named in opposite orders by alternate writers, so two statements
// want the same counters in opposite orders), move them between sites, and delete them one at a
// time and in bulk, while devices come and go. No write may fail on the counters (a deadlock
// would answer 500), and at the end every site's `prefix_count` and `device_count` equal the
// lists filtered by the site: a count kept in the writing transaction loses no write.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { BACKENDS } from '../conformance/backends.js';
import { racingServers } from '../../support/two-servers.js';

const KEY = 'counts-race-key-0123456789';
const WRITERS = 6;
const ROUNDS = Math.max(8, Math.ceil(Number(process.env.RACE_ROUNDS ?? 0) / WRITERS));

async function call(url: string, method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(url + p, {
    method,
    headers: { Authorization: `Token ${KEY}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

for (const backend of BACKENDS) {
  describe(`related counts under ${WRITERS} racing writers on ${backend.name}`, function () {
    this.timeout(600000);
    const servers = racingServers(backend, KEY);

    it('every site counts exactly the prefixes and devices that name it', async () => {
      const sites: string[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await call(servers.urls[0], 'POST', '/api/dcim/sites/', { name: `cr-${i}`, slug: `cr-${i}` });
        expect(r.status, JSON.stringify(r.body)).to.equal(201);
        sites.push(r.body.id);
      }
      const ok = (r: { status: number; body: any }, status: number, what: string) =>
        expect(r.status, `${what}: ${JSON.stringify(r.body)}`).to.equal(status);
      const writer = async (w: number) => {
        const url = servers.urls[w % servers.urls.length];
        const order = w % 2 ? [...sites].reverse() : sites;
        for (let i = 0; i < ROUNDS; i++) {
          const net = (k: number) => `10.${w}.${i * 8 + k}.0/24`;
          const made = await call(
            url,
            'POST',
            '/api/ipam/prefixes/',
            order.map((site, k) => ({ prefix: net(k), site })),
          );
          ok(made, 201, 'bulk create');
          const ids = (made.body as { id: string }[]).map((p) => p.id);
          ok(
            await call(url, 'PATCH', `/api/ipam/prefixes/${ids[0]}/`, { site: order[(i + 1) % order.length] }),
            200,
            'move',
          );
          ok(
            await call(url, 'PATCH', '/api/ipam/prefixes/', [
              { id: ids[1], site: null },
              { id: ids[2], site: order[0] },
            ]),
            200,
            'bulk move',
          );
          ok(await call(url, 'DELETE', `/api/ipam/prefixes/${ids[3]}/`), 204, 'delete');
          if (i % 2)
            ok(await call(url, 'DELETE', '/api/ipam/prefixes/', [{ id: ids[0] }, { id: ids[2] }]), 204, 'bulk delete');
          const d = await call(url, 'POST', '/api/dcim/devices/', {
            name: `cr-${w}-${i}`,
            site: order[i % order.length],
          });
          ok(d, 201, 'device');
          if (i % 3 === 0) ok(await call(url, 'DELETE', `/api/dcim/devices/${d.body.id}/`), 204, 'device delete');
        }
      };
      await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
      for (const url of servers.urls) {
        const listed = (await call(url, 'GET', '/api/dcim/sites/?slug__isw=cr-&limit=100')).body.results as Record<
          string,
          any
        >[];
        expect(listed.length).to.equal(sites.length);
        for (const s of listed) {
          const prefixes = (await call(url, 'GET', `/api/ipam/prefixes/?site_id=${s.id}&limit=1`)).body.count;
          const devices = (await call(url, 'GET', `/api/dcim/devices/?site_id=${s.id}&limit=1`)).body.count;
          expect(prefixes, `${s.slug} prefixes`).to.be.greaterThan(0);
          expect([s.prefix_count, s.device_count], `${s.slug} counts`).to.deep.equal([prefixes, devices]);
        }
      }
    });
  });
}
