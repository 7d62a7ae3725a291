// Limits answer with a clear message and the server keeps serving; health, readiness, request ids.
import { expect } from 'chai';
import { startServer, type TestServer } from '../support/server.js';
import { jsonDepth, LIMITS } from '../../server/limits.js';
import { MAX_GUARD_DEPTH } from '../../engine/lifecycle/machine-schema.js';

describe('limits and observability', () => {
  let srv: TestServer;
  before(async () => {
    srv = await startServer();
  });
  after(() => srv.close());
  const stillServing = async () => expect((await srv.req('GET', '/api/dcim/sites/')).status).to.equal(200);

  it('a URL longer than 16 KiB is a 414', async () => {
    const res = await srv.req('GET', `/api/dcim/sites/?name=${'a'.repeat(17 * 1024)}`);
    expect(res.status).to.equal(414);
    expect(res.body.detail).to.match(/URL too long/);
    await stillServing();
  });

  it('more than 256 query parameters is a 400', async () => {
    const q = Array.from({ length: 300 }, (_, i) => `name=${i}`).join('&');
    const res = await srv.req('GET', `/api/dcim/sites/?${q}`);
    expect(res.status).to.equal(400);
    expect(res.body.detail).to.match(/Too many query parameters/);
    await stillServing();
  });

  it('a JSON body over 1 MiB is a 413', async () => {
    const res = await srv.req('POST', '/api/dcim/sites/', {
      name: 'x',
      slug: 'x',
      description: 'd'.repeat(1100 * 1024),
    });
    expect(res.status).to.equal(413);
    await stillServing();
  });

  it('a raw body (a CSV import) is not walked byte by byte as if it were JSON', () => {
    const bytes = Buffer.alloc(1_000_000, 'a');
    const t0 = performance.now();
    expect(jsonDepth(bytes, LIMITS.jsonDepth)).to.equal(0);
    expect(jsonDepth({ rows: bytes }, LIMITS.jsonDepth)).to.equal(1);
    expect(performance.now() - t0).to.be.below(50); // walking a million bytes as entries took about a second
  });

  it(`JSON nested deeper than ${LIMITS.jsonDepth} levels is a 400`, async () => {
    let body: unknown = 1;
    for (let i = 0; i <= LIMITS.jsonDepth; i++) body = { a: body };
    const res = await srv.req('POST', '/api/dcim/sites/', body);
    expect(res.status).to.equal(400);
    expect(res.body.code).to.equal('json_too_deep');
    await stillServing();
  });

  it('the JSON depth limit leaves room for guards nested as deep as guards may be', async () => {
    let guard: unknown = { field: 'n', op: 'eq', value: 1 };
    for (let i = 1; i < MAX_GUARD_DEPTH; i++) guard = i % 2 ? { not: guard } : { all: [guard] };
    const def = {
      meta: { machine_name: 'deep_guards', version: '1.0.0' },
      states: [
        { name: 'a', type: 'initial' },
        { name: 'b', type: 'terminal' },
      ],
      transitions: [{ trigger: 'go', source: 'a', dest: 'b', guards: [guard] }],
    };
    const res = await srv.req('POST', '/api/v1/machines', def);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  });

  it('NUL characters in a body or a query value are a 400 on every backend', async () => {
    const body = await srv.req('POST', '/api/v1/entities/nul/create', {
      machine_name: 'order_flow',
      context: { note: 'a\u0000b' },
    });
    expect(body.status).to.equal(400);
    expect(body.body.code).to.equal('null_character');
    const q = await srv.req('GET', '/api/dcim/sites/?name__ic=a%00b');
    expect(q.status).to.equal(400);
    expect(q.body).to.have.keys(['name__ic']);
    await stillServing();
  });

  it('/health and /ready answer without a token; responses carry X-Request-Id (echoed when given)', async () => {
    const h = await srv.req('GET', '/health', undefined, null);
    expect(h.status).to.equal(200);
    const r = await srv.req('GET', '/ready', undefined, null);
    expect(r.body).to.include({ status: 'ready', storage: 'memory' });
    expect(h.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
    const e = await srv.req('GET', '/health', undefined, null, { 'X-Request-Id': 'trace-42' });
    expect(e.headers.get('x-request-id')).to.equal('trace-42');
  });
});
