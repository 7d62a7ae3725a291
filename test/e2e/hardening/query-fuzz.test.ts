// Random and malformed query strings against every list endpoint: never a 5xx, and every 400 names
// parameters that were sent (or a limit). FUZZ_RUNS=100000 for the long run.
import { expect } from 'chai';
import fc from 'fast-check';
import { startServer, type TestServer } from '../../support/server.js';

const LISTS = [
  '/api/dcim/sites/',
  '/api/dcim/devices/',
  '/api/dcim/interfaces/',
  '/api/dcim/regions/',
  '/api/ipam/prefixes/',
  '/api/ipam/ip-addresses/',
  '/api/ipam/vlans/',
  '/api/extras/tags/',
  '/api/extras/custom-fields/',
  '/api/v1/entities/',
];
const NAMES = [
  'name',
  'slug',
  'status',
  'region',
  'site',
  'tag',
  'asn',
  'network',
  'host',
  'cf_rack_count',
  'cf_contact',
  'q',
  'id',
  'created',
  'vid',
  'mtu',
  'mac_address',
  'prefix',
  'within',
  'parent',
  'family',
  'state',
  'limit',
  'offset',
  'ordering',
];
const LOOKUPS = [
  '',
  '__n',
  '__ic',
  '__re',
  '__ire',
  '__gte',
  '__lt',
  '__net_contained',
  '__net_host',
  '__net_in',
  '__family',
  '__startswith',
  '____',
  '__bogus',
  '__ie__x',
];
const VALUES = fc.oneof(
  fc.constantFrom(
    '',
    'null',
    'active',
    '10.0.0.0/8',
    '::/0',
    '999.1.1.1',
    'fd78::/200',
    '(a+)+$',
    '[',
    '65000',
    '-1',
    '1e9',
    '2024-13-45',
    'eu',
    '%',
    '%%',
    '%zz',
    '\u0000',
    '😀',
    "' OR 1=1 --",
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ maxLength: 3000 }),
);
const param = fc.oneof(
  fc
    .tuple(fc.constantFrom(...NAMES), fc.constantFrom(...LOOKUPS), VALUES)
    .map(([n, l, v]) => `${encodeURIComponent(n + l)}=${encodeURIComponent(v)}`),
  fc.tuple(fc.string({ maxLength: 20 }), VALUES).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`),
  fc.string({ maxLength: 40 }).map((raw) => raw.replace(/[#\s]/g, '')), // raw, possibly broken percent-encoding
);

describe('query fuzzing', function () {
  this.timeout(600000);
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ demoData: true });
  });
  after(() => srv.close());

  it('never answers 5xx; a 400 names only parameters that were sent', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...LISTS), fc.array(param, { maxLength: 8 }), async (path, params) => {
        const qs = params.join('&');
        const res = await srv.req('GET', `${path}?${qs}`);
        expect(res.status, `${path}?${qs}`).to.be.below(500);
        if (res.status === 400 && !res.body.code) {
          const sent = new Set([...new URLSearchParams(qs).keys()]);
          for (const k of Object.keys(res.body)) expect(sent.has(k), `${k} in ${qs}`).to.equal(true);
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 1500) },
    );
  });
});
