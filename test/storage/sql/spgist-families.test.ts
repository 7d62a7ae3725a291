// PostgreSQL 15.20 answered some IPv6 lookups with no row from one SP-GiST inet index holding both
// families (addresses inserted in address order); a sequential scan found them. The network
// indexes are one per family, and every lookup they serve names its family. This data and order
// reproduced the wrong answer with a single index.
import { expect } from 'chai';
import { testDatabaseOrSkip } from '../../../storage/test-db.js';
import { startServer, type TestServer } from '../../support/server.js';

/** 122 IPv4 and 120 IPv6 host addresses (mostly four per /24 or /64), in address order. */
function addresses(): string[] {
  const v4: string[] = ['10.0.0.1/25', '192.168.3.193/28'],
    v6: string[] = [];
  for (let site = 0; site < 30; site++)
    for (let h = 1; h <= 4; h++) {
      v4.push(`10.${site}.0.${h}/24`);
      v6.push(`2001:db8:${site.toString(16)}:1::${h}/64`);
    }
  // Address order: each part numerically, then the length.
  const key = (a: string) =>
    a
      .split(/[.:/]/)
      .map((x) => x.padStart(8, '0'))
      .join('');
  return [...v4.sort((a, b) => key(a).localeCompare(key(b))), ...v6.sort((a, b) => key(a).localeCompare(key(b)))];
}

describe('PostgreSQL network indexes per address family', function () {
  this.timeout(60000);
  let srv: TestServer | null = null;
  let drop: (() => Promise<void>) | null = null;

  before(async function () {
    const db = await testDatabaseOrSkip('postgres');
    if ('skip' in db) {
      this.skip();
      return;
    }
    drop = db.drop;
    srv = await startServer({ storage: db.url });
    const res = await srv.req(
      'POST',
      '/api/ipam/ip-addresses/',
      addresses().map((address) => ({ address })),
    );
    expect(res.status).to.equal(201);
  });
  after(async () => {
    await srv?.close();
    await drop?.();
  });

  it('finds every IPv6 and IPv4 address by equality and by containment', async () => {
    const s = srv!;
    const count = async (q: string) => (await s.req('GET', `/api/ipam/ip-addresses/?${q}`)).body.count as number;
    const misses: string[] = [];
    for (const a of addresses()) {
      if ((await count(`host=${encodeURIComponent(a)}`)) !== 1) misses.push(`host=${a}`);
      if ((await count(`host__net_equals=${encodeURIComponent(a)}`)) !== 1) misses.push(`host__net_equals=${a}`);
    }
    for (let site = 0; site < 30; site += 7) {
      const block = `2001:db8:${site.toString(16)}:1::/64`;
      if ((await count(`host__net_contained_or_equal=${encodeURIComponent(block)}`)) !== 4)
        misses.push(`contained_or_equal ${block}`);
      if ((await count(`host__net_contains_or_equals=${encodeURIComponent(block)}`)) !== 4)
        misses.push(`contains_or_equals ${block}`);
    }
    expect(misses).to.deep.equal([]);
  });
});
