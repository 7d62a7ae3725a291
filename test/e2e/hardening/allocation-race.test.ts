// Concurrent IP allocation hands out every block and address once (#17 item 3; NetBox #2519,
// #3475, #10282 and Nautobot #8297 give concurrent callers the same block). On SQL the callers talk
// to two server processes on one database, half to each; memory (one process owns it) takes them
// all on one. Waves of 50 requests at once; RACE_ROUNDS (`npm run test:long`: 1000) allocations in
// all (at least 50).
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { BACKENDS } from '../conformance/backends.js';
import { racingServers } from '../../support/two-servers.js';

const KEY = 'alloc-race-key-0123456789';
const WAVE = 50;
const ALLOCATIONS = Math.max(WAVE, Number(process.env.RACE_ROUNDS ?? WAVE));

interface Answer {
  status: number;
  body: any;
}

async function call(url: string, method: string, p: string, body?: unknown): Promise<Answer> {
  const res = await fetch(url + p, {
    method,
    headers: { Authorization: `Token ${KEY}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** `total` requests in waves of WAVE at once, alternating between the servers; every answer. */
async function inWaves(
  urls: readonly string[],
  total: number,
  request: (url: string, i: number) => Promise<Answer>,
): Promise<Answer[]> {
  const out: Answer[] = [];
  for (let start = 0; start < total; start += WAVE) {
    const n = Math.min(WAVE, total - start);
    out.push(
      ...(await Promise.all(Array.from({ length: n }, (_, k) => request(urls[(start + k) % urls.length], start + k)))),
    );
  }
  return out;
}

const duplicates = (xs: readonly string[]) => xs.length - new Set(xs).size;

for (const backend of BACKENDS) {
  describe(`concurrent IP allocation on ${backend.name}`, function () {
    this.timeout(600000);
    const servers = racingServers(backend, KEY);

    it(`${ALLOCATIONS} prefix allocations, ${WAVE} at once: all distinct`, async () => {
      const parent = await call(servers.urls[0], 'POST', '/api/ipam/prefixes/', { prefix: '10.0.0.0/8' });
      await call(servers.urls[0], 'POST', '/api/ipam/prefixes/', { prefix: '10.0.0.0/26' }); // taken already
      const got = await inWaves(servers.urls, ALLOCATIONS, (url, i) =>
        call(url, 'POST', `/api/ipam/prefixes/${parent.body.id}/available-prefixes/`, {
          prefix_length: 24,
          description: `r${i}`,
        }),
      );
      expect(
        got.filter((a) => a.status !== 201).map((a) => `${a.status} ${JSON.stringify(a.body)}`),
        'refused allocations',
      ).to.deep.equal([]);
      const blocks = got.map((a) => a.body.prefix as string);
      expect(duplicates(blocks), 'blocks handed out twice').to.equal(0);
      // First fits: exactly the first ALLOCATIONS free /24s (10.0.0.0/24 holds the /26).
      const expected = Array.from({ length: ALLOCATIONS }, (_, i) => `10.${(i + 1) >> 8}.${(i + 1) & 255}.0/24`);
      expect([...blocks].sort()).to.deep.equal([...expected].sort());
      const stored = await call(
        servers.urls[servers.urls.length - 1],
        'GET',
        '/api/ipam/prefixes/?within=10.0.0.0/8&mask_length=24&limit=1',
      );
      expect(stored.body.count, 'stored once each').to.equal(ALLOCATIONS);
    });

    it(`${ALLOCATIONS} address allocations, half in a parent and half in its child: all distinct`, async () => {
      const parent = await call(servers.urls[0], 'POST', '/api/ipam/prefixes/', { prefix: '172.16.0.0/12' });
      const child = await call(servers.urls[0], 'POST', '/api/ipam/prefixes/', { prefix: '172.16.0.0/20' });
      // Both offer 172.16.0.1 first: a lock per parent alone would let them take it twice.
      const got = await inWaves(servers.urls, ALLOCATIONS, (url, i) =>
        call(url, 'POST', `/api/ipam/prefixes/${(i % 4 < 2 ? parent : child).body.id}/available-ips/`, {
          description: `a${i}`,
        }),
      );
      expect(
        got.filter((a) => a.status !== 201).map((a) => `${a.status} ${JSON.stringify(a.body)}`),
        'refused allocations',
      ).to.deep.equal([]);
      const hosts = got.map((a) => a.body.host as string);
      expect(duplicates(hosts), 'addresses handed out twice').to.equal(0);
      const stored = await call(
        servers.urls[servers.urls.length - 1],
        'GET',
        '/api/ipam/ip-addresses/?parent=172.16.0.0/12&limit=1',
      );
      expect(stored.body.count).to.equal(ALLOCATIONS);
    });

    it(`${WAVE} list allocations of three /28s at once: all or none each, no block twice`, async () => {
      const parent = await call(servers.urls[0], 'POST', '/api/ipam/prefixes/', { prefix: '192.168.0.0/16' });
      const got = await inWaves(servers.urls, WAVE, (url) =>
        call(url, 'POST', `/api/ipam/prefixes/${parent.body.id}/available-prefixes/`, [
          { prefix_length: 28 },
          { prefix_length: 28 },
          { prefix_length: 28 },
        ]),
      );
      expect(got.map((a) => a.status).filter((s) => s !== 201)).to.deep.equal([]);
      const blocks = got.flatMap((a) => (a.body as { prefix: string }[]).map((p) => p.prefix));
      expect(blocks).to.have.length(3 * WAVE);
      expect(duplicates(blocks)).to.equal(0);
    });
  });
}
