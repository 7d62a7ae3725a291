// Storage.coveredSpans on every backend against a plain scan of the rows: the free space inside a
// block (what IP allocation hands out) is the same from the memory index's runs, from PostgreSQL's
// and MySQL's window-function statements, and from the scan, also when the answer is cut short
// after a few spans. Databases: TEST_POSTGRES_URL, TEST_MYSQL_URL (MariaDB), TEST_MYSQL9_URL.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { bigOf, gaps, hexOf, knownPart, spanOf, type Span } from '../../../../engine/allocation/free-space.js';
import { formatCidr, parseCidr, type Family } from '../../../../engine/net/ip.js';
import { mulberry32 } from '../../../../engine/random/mulberry32.js';
import { resource } from '../../../../engine/schema/registry.js';
import { createStorage } from '../../../../storage/open-storage.js';
import { Inventory } from '../../../../app/inventory.js';
import type { NetBlock, Storage } from '../../../../storage/types.js';
import { BACKENDS } from '../../../e2e/conformance/backends.js';

interface Net {
  family: Family;
  network: bigint;
  length: number;
}

const net = (text: string): Net => {
  const c = parseCidr(text)!;
  return { family: c.family, network: bigOf(c.network), length: c.length };
};
const text = (n: Net) => formatCidr(n.family, hexOf(n.family, n.network), n.length);
const width = (f: Family) => (f === 4 ? 32 : 128);

/** Prefixes: nested blocks, runs of touching ones, duplicates, blocks at the very end of each family. */
function prefixes(): string[] {
  const r = mulberry32(11);
  const out = [
    '10.0.0.0/8',
    '10.0.0.0/8',
    '0.0.0.0/0',
    '255.255.255.0/24',
    '255.255.255.255/32',
    '2001:db8::/32',
    'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00/120',
    '::/0',
  ];
  // a run
  for (let i = 0; i < 40; i++) out.push(text({ family: 4, network: bigOf('0a000000') + BigInt(i * 64), length: 26 }));
  for (let i = 0; i < 30; i++) out.push(text({ family: 4, network: bigOf('0a010000') + BigInt(i * 256), length: 24 }));
  for (let i = 0; i < 60; i++) {
    const len = 24 + Math.floor(r() * 9);
    const shift = BigInt(32 - len);
    out.push(
      text({
        family: 4,
        network: ((bigOf('0a010000') + BigInt(Math.floor(r() * 65536))) >> shift) << shift,
        length: len,
      }),
    );
  }
  // More children than a first MySQL batch: runs with a gap now and then, duplicates across batches.
  for (let i = 0; i < 1300; i++) {
    if (i % 97 === 13) continue;
    const b = text({ family: 4, network: bigOf('0a020000') + BigInt(i * 16), length: 28 });
    out.push(b);
    if (i % 50 === 0) out.push(b);
  }
  for (let i = 0; i < 20; i++)
    out.push(text({ family: 6, network: bigOf('20010db8000000000000000000000000') + (BigInt(i) << 80n), length: 48 }));
  for (let i = 0; i < 30; i++) {
    const len = 48 + Math.floor(r() * 80);
    const shift = BigInt(128 - len);
    out.push(
      text({
        family: 6,
        network:
          ((bigOf('20010db8000000000000000000000000') + (BigInt(Math.floor(r() * 1e6)) << 60n)) >> shift) << shift,
        length: len,
      }),
    );
  }
  return out;
}

/** Addresses: hosts in a few blocks, touching ones, the same host twice with other lengths. */
function addresses(): string[] {
  const r = mulberry32(12);
  const out = [
    '10.1.0.1/24',
    '10.1.0.1/16',
    '10.1.0.0/24',
    '10.1.0.255/24',
    '255.255.255.255/32',
    '2001:db8::/64',
    '2001:db8::1/64',
    'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128',
  ];
  for (let i = 2; i < 40; i++) out.push(`10.1.0.${i}/24`);
  for (let i = 0; i < 40; i++) out.push(`10.1.${Math.floor(r() * 4)}.${Math.floor(r() * 256)}/22`);
  for (let i = 0; i < 20; i++) out.push(`2001:db8::${Math.floor(r() * 64).toString(16)}/64`);
  return out;
}

const BLOCKS = [
  '0.0.0.0/0',
  '10.0.0.0/8',
  '10.2.0.0/16',
  '10.0.0.0/24',
  '10.0.0.0/26',
  '10.1.0.0/16',
  '10.1.0.0/24',
  '10.1.0.0/30',
  '10.1.0.1/32',
  '255.255.255.0/24',
  '255.255.255.255/32',
  '::/0',
  '2001:db8::/32',
  '2001:db8::/48',
  '2001:db8::/64',
  'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ff00/120',
  '192.0.2.0/24',
];

/** A plain scan: prefixes strictly inside, or hosts inside. */
function scanned(rows: readonly Net[], b: Net, hosts: boolean): Span[] {
  const w = spanOf(b.family, b);
  return rows
    .filter((x) => x.family === b.family && x.network >= w.lo && x.network <= w.hi && (hosts || x.length > b.length))
    .map((x) => (hosts ? { lo: x.network, hi: x.network } : spanOf(x.family, x)))
    .sort((x, y) => (x.lo < y.lo ? -1 : x.lo > y.lo ? 1 : 0));
}

for (const backend of BACKENDS) {
  describe(`Storage.coveredSpans on ${backend.name}`, function () {
    this.timeout(120000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    let storage: Storage;
    const prefixRows = prefixes().map(net);
    const hostRows = addresses().map((a) => {
      const c = parseCidr(a)!;
      return { family: c.family, network: bigOf(c.host), length: width(c.family) };
    });

    before(async function () {
      db = await backend.url();
      if (!db) {
        this.skip();
        return;
      }
      storage = await createStorage(db.url);
      await storage.open();
      const inv = new Inventory(storage);
      const made = await inv.create(
        resource('prefix'),
        prefixes().map((prefix) => ({ prefix })),
      );
      expect(made.ok, JSON.stringify(made)).to.equal(true);
      const ips = await inv.create(
        resource('ip_address'),
        addresses().map((address) => ({ address })),
      );
      expect(ips.ok, JSON.stringify(ips)).to.equal(true);
    });
    after(async () => {
      await storage?.close();
      await db?.drop();
    });

    for (const hosts of [false, true]) {
      it(
        `${hosts ? 'addresses' : 'prefixes'}: the free space of each block equals a plain scan's, whole and ` +
          `cut short`,
        async () => {
          for (const t of BLOCKS) {
            const b = net(t);
            const c = parseCidr(t)!;
            const block: NetBlock = { family: c.family, network: c.network, broadcast: c.broadcast, length: c.length };
            const all = spanOf(b.family, b);
            const expected = scanned(hosts ? hostRows : prefixRows, b, hosts);
            for (const max of [1, 2, 3, 7, 100000]) {
              const got = await storage.coveredSpans(hosts ? 'ip_address' : 'prefix', block, max);
              if (max === 100000) expect(got.complete, `${t}: complete`).to.equal(true);
              const { within, used } = knownPart(all, got);
              expect([...gaps(within, used)], `${t}, at most ${max} spans`).to.deep.equal([...gaps(within, expected)]);
            }
            // From an address on (where a hint says allocation continues): the children starting there or later.
            for (const k of [1n, 3n, 64n, 1000n, 4096n + 17n]) {
              const from = all.lo + k;
              if (from > all.hi) continue;
              const tail = { lo: from, hi: all.hi };
              const got = await storage.coveredSpans(
                hosts ? 'ip_address' : 'prefix',
                block,
                100000,
                hexOf(b.family, from),
              );
              expect([...gaps(tail, knownPart(tail, got).used)], `${t} from +${k}`).to.deep.equal([
                ...gaps(
                  tail,
                  expected.filter((x) => x.lo >= from),
                ),
              ]);
            }
          }
        },
      );
    }
  });
}
