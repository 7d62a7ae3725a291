// Input that one backend cannot store or compare gets the same 4xx on every backend, checked up
// front: NUL in a path, a lone UTF-16 surrogate in a body, year 0 in a date filter, machine and
// state names and versions longer than their columns.
import { expect } from 'chai';
import { BACKENDS } from '../conformance/backends.js';
import { startServer } from '../../support/server.js';

const machine = (name: string, version: string, state = 'a') => ({
  meta: { machine_name: name, version },
  states: [
    { name: state, type: 'initial' },
    { name: 'b', type: 'terminal' },
  ],
  transitions: [{ trigger: 't', source: state, dest: 'b' }],
});

/** [what, method, path, body, status, code or body key] */
const CASES: [string, string, string, unknown, number, string][] = [
  ['year 0 in a date filter', 'GET', '/api/dcim/sites/?created__lte=0000-01-01', undefined, 400, 'created__lte'],
  ['NUL in an entity id', 'GET', '/api/v1/entities/a%00b', undefined, 400, 'null_character'],
  ['NUL in an object id', 'DELETE', '/api/dcim/sites/a%00b/', undefined, 400, 'null_character'],
  [
    'a lone surrogate in a field',
    'POST',
    '/api/dcim/sites/',
    '{"name": "a\\ud800b", "slug": "sur"}',
    400,
    'invalid_unicode',
  ],
  [
    'a lone surrogate in a key',
    'POST',
    '/api/v1/entities/sur/create',
    '{"machine_name": "order_flow", "context": {"\\udc00": 1}}',
    400,
    'invalid_unicode',
  ],
  [
    'a machine name over 100 characters',
    'POST',
    '/api/v1/machines',
    machine('m'.repeat(101), '1.0.0'),
    400,
    'invalid_machine',
  ],
  [
    'a version over 50 characters',
    'POST',
    '/api/v1/machines',
    machine('x', `1.0.0-${'a'.repeat(50)}`),
    400,
    'invalid_machine',
  ],
  [
    'a state name over 100 characters',
    'POST',
    '/api/v1/machines',
    machine('y', '1.0.0', 's'.repeat(101)),
    400,
    'invalid_machine',
  ],
];

for (const backend of BACKENDS)
  describe(`the same refusals on ${backend.name}`, function () {
    this.timeout(60000);
    it('every case is the same 4xx, and the longest allowed values are stored', async function () {
      const db = await backend.url();
      if (!db) {
        this.skip();
        return;
      }
      const srv = await startServer({ storage: db.url });
      try {
        for (const [what, method, p, body, status, code] of CASES) {
          const res = await srv.req(method, p, body);
          expect(res.status, `${what}: ${JSON.stringify(res.body)}`).to.equal(status);
          expect(res.body.code ?? Object.keys(res.body)[0], what).to.equal(code);
        }
        // At the limits: stored and read back on every backend.
        const name = 'm'.repeat(100),
          state = 's'.repeat(100);
        expect(
          (await srv.req('POST', '/api/v1/machines', machine(name, `1.0.0-${'a'.repeat(44)}`, state))).status,
        ).to.equal(201);
        const e = await srv.req('POST', '/api/v1/entities/at-limit/create', { machine_name: name });
        expect(e.status, JSON.stringify(e.body)).to.equal(201);
        expect(e.body.state).to.equal(state);
        expect((await srv.req('GET', '/api/dcim/sites/?created__lte=0001-01-01')).status).to.equal(200);
        expect(
          (await srv.req('POST', '/api/dcim/sites/', { name: 'emoji 😀', slug: 'emoji' })).status,
          'a surrogate pair is fine',
        ).to.equal(201);
      } finally {
        await srv.close();
        await db.drop();
      }
    });
  });
