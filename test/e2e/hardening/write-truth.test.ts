// 2xx if and only if committed, on every backend: each failure point after a write's commit is made
// to fail for real (the connection dropped with COMMIT in flight, the pool held by others, the answer
// failing to build), and every answer is checked against what the database holds; retries with the
// same Idempotency-Key never write twice.
import { expect } from 'chai';
import { armFault } from '../../../storage/fault-points.js';
import { writeContext } from '../../../storage/change-log/write-context.js';
import type { SqlDriver } from '../../../storage/sql/driver.js';
import { BACKENDS } from '../conformance/backends.js';
import { serverOn } from '../../support/backend-server.js';
import type { TestServer } from '../../support/server.js';

let n = 0;
/** `count` distinct prefixes no other case uses (prefixes may repeat, so a double write shows). */
const prefixes = (count: number) => {
  const block = ++n;
  return Array.from({ length: count }, (_, i) => ({ prefix: `10.${block}.${i}.0/24`, status: 'active' }));
};
const sites = (count: number) => {
  const block = ++n;
  return Array.from({ length: count }, (_, i) => ({ name: `wt-${block}-${i}`, slug: `wt-${block}-${i}` }));
};

/** How many objects the database holds under `query` (a list filter). */
async function held(srv: TestServer, path: string, query: string): Promise<number> {
  const r = await srv.req('GET', `${path}?${query}&limit=1`);
  expect(r.status, JSON.stringify(r.body)).to.equal(200);
  return r.body.count;
}

const heldPrefixes = (srv: TestServer, block: { prefix: string }[]) =>
  held(srv, '/api/ipam/prefixes/', `within_include=${block[0].prefix.replace(/\.\d+\.0\/24$/, '.0.0/16')}`);
const heldSites = (srv: TestServer, block: { name: string }[]) =>
  held(srv, '/api/dcim/sites/', `name__isw=${block[0].name.replace(/-\d+$/, '-')}`);

/**
 * Every request has an X-Request-Id of its own, and the faults armed here reach only the one sent by
 * `faulty`: background writes pass the same points, and so does the tail of an earlier request (its
 * Idempotency-Key answer is kept after it was sent, a commit in that request's context).
 */
let sent = 0;
let faulted = '';
const ours = { when: () => writeContext()?.requestId === faulted };
const once = { times: 1, ...ours };
const headers = (key?: string, id = `write-truth-${++sent}`): Record<string, string> => ({
  'X-Request-Id': id,
  ...(key ? { 'Idempotency-Key': key } : {}),
});
/** Headers of the request the armed faults are for. */
const faulty = (key?: string) => headers(key, (faulted = `write-truth-faulted-${++sent}`));
const post = (srv: TestServer, path: string, body: unknown, key?: string, h = headers(key)) =>
  srv.req('POST', path, body, undefined, h);
/** Status and code only: a failed expectation must not print a whole list. */
const brief = (r: { status: number; body: any }) =>
  `${r.status} ${JSON.stringify(r.body?.code ?? r.body?.detail ?? '').slice(0, 200)}`;

for (const backend of BACKENDS) {
  describe(`a write's answer is the truth (${backend.name})`, function () {
    this.timeout(60_000);
    const h = serverOn(backend, { changelogRetentionDays: 0 });
    const sql = backend.driver !== 'memory';

    // Both write paths: creates of sites commit by one statement, prefixes in a transaction.
    for (const [what, path, make, count] of [
      ['sites', '/api/dcim/sites/', sites, heldSites],
      ['prefixes', '/api/ipam/prefixes/', prefixes, heldPrefixes],
    ] as const) {
      it(
        `a bulk create of ${what} whose connection drops right after COMMIT was sent answers 201 exactly when ` +
          `it committed, and a retry writes it once`,
        async function () {
          if (!sql) this.skip();
          const body = make(50) as never[];
          const disarm = armFault('commit-sent', ({ drop }) => drop!(), once);
          let first;
          try {
            first = await post(h.srv, path, body, undefined, faulty(`drop-after-${n}`));
          } finally {
            disarm();
          }
          // Whether the COMMIT left this process before its socket closed (and the database ran it
          // before it saw the client gone) varies: the answer must say which it was.
          expect([201, 503], brief(first)).to.include(first.status);
          expect(await count(h.srv, body)).to.equal(first.status === 201 ? 50 : 0);
          if (first.status === 201) expect(first.body).to.have.length(50);
          else expect(first.body.code).to.equal('storage_unavailable');
          const again = await post(h.srv, path, body, `drop-after-${n}`);
          expect(again.status).to.equal(201);
          expect(again.headers.get('idempotent-replayed')).to.equal(first.status === 201 ? 'true' : null);
          if (first.status === 201)
            expect(again.body.map((o: { id: string }) => o.id)).to.deep.equal(
              first.body.map((o: { id: string }) => o.id),
            );
          expect(await count(h.srv, body)).to.equal(50);
        },
      );

      it(
        `a bulk create of ${what} whose COMMIT never reaches the database answers 503 with nothing written; ` +
          `the retry writes it once`,
        async function () {
          if (!sql) this.skip();
          const body = make(50) as never[];
          const disarms = [
            armFault('commit-sending', ({ hold }) => hold!(), once),
            armFault('commit-sent', ({ drop }) => drop!(), once),
          ];
          try {
            const first = await post(h.srv, path, body, undefined, faulty(`drop-before-${n}`));
            expect(first.status, brief(first)).to.equal(503);
            expect(first.body.code).to.equal('storage_unavailable');
            expect(await count(h.srv, body)).to.equal(0);
          } finally {
            for (const d of disarms) d();
          }
          const again = await post(h.srv, path, body, `drop-before-${n}`);
          expect(again.status).to.equal(201);
          expect(again.headers.get('idempotent-replayed')).to.equal(null);
          expect(await count(h.srv, body)).to.equal(50);
        },
      );
    }

    it(
      'a single update whose connection drops after COMMIT ' + 'answers 200 exactly when the change was made',
      async function () {
        if (!sql) this.skip();
        const [site] = sites(1);
        const made = await post(h.srv, '/api/dcim/sites/', site);
        expect(made.status).to.equal(201);
        const disarm = armFault('commit-sent', ({ drop }) => drop!(), once);
        let changed;
        try {
          changed = await h.srv.req(
            'PATCH',
            `/api/dcim/sites/${made.body.id}/`,
            { description: 'after the drop' },
            undefined,
            faulty(),
          );
        } finally {
          disarm();
        }
        // The database commits what reached it; a COMMIT still in this process's socket when it closed never does.
        expect([200, 503], brief(changed)).to.include(changed.status);
        const stored = (await h.srv.req('GET', `/api/dcim/sites/${made.body.id}/`)).body.description;
        expect(stored).to.equal(changed.status === 200 ? 'after the drop' : '');
        if (changed.status === 200) expect(changed.body.description).to.equal('after the drop');
      },
    );

    it(
      'an answer that fails to build after the commit is still a 201, built as the write holds it, and a ' +
        'retry gets it again',
      async () => {
        const region = await post(h.srv, '/api/dcim/regions/', { name: `wt-r-${++n}`, slug: `wt-r-${n}` });
        const body = sites(3).map((s) => ({ ...s, region: region.body.id }));
        const disarm = armFault(
          'answer',
          () => {
            throw new Error('serializer broke');
          },
          once,
        );
        try {
          const first = await post(h.srv, '/api/dcim/sites/', body, undefined, faulty(`answer-${n}`));
          expect(first.status, brief(first)).to.equal(201);
          expect(first.headers.get('x-answer-partial')).to.equal('true');
          expect(first.body.map((s: { name: string }) => s.name)).to.deep.equal(body.map((s) => s.name));
          expect(first.body[0].region).to.deep.equal({
            id: region.body.id,
            url: `${h.srv.url}/api/dcim/regions/${region.body.id}/`,
          });
          expect(await heldSites(h.srv, body)).to.equal(3);
          const again = await post(h.srv, '/api/dcim/sites/', body, `answer-${n}`);
          expect(again.status).to.equal(201);
          expect(again.body).to.deep.equal(first.body);
        } finally {
          disarm();
        }
      },
    );

    it('a pool held by others after the commit still answers 201, and the objects are there', async function () {
      if (!sql) this.skip();
      this.timeout(30_000);
      const driver = (h.srv.running.ctx.storage as unknown as { driver: SqlDriver }).driver;
      let release!: () => void;
      const released = new Promise<void>((r) => {
        release = r;
      });
      const holders: Promise<unknown>[] = [];
      const disarm = armFault(
        'after-commit',
        () => {
          // Every connection of the pool taken (20) while the answer is to be built; given back after 6 s.
          for (let i = 0; i < 20; i++) holders.push(driver.transaction(() => released).catch(() => undefined));
          setTimeout(release, 6000);
        },
        once,
      );
      const body = prefixes(20);
      try {
        const first = await post(
          h.srv,
          '/api/ipam/prefixes/?fields=id,prefix,children',
          body,
          undefined,
          faulty(`pool-${n}`),
        );
        expect(first.status, brief(first)).to.equal(201);
        expect(first.body).to.have.length(20);
      } finally {
        disarm();
        release();
        await Promise.all(holders);
      }
      expect(await heldPrefixes(h.srv, body)).to.equal(20);
    });

    it('two requests with one key at once write once and both answer the same', async () => {
      const body = prefixes(30);
      const [a, b] = await Promise.all([
        post(h.srv, '/api/ipam/prefixes/', body, `race-${n}`),
        post(h.srv, '/api/ipam/prefixes/', body, `race-${n}`),
      ]);
      expect([a.status, b.status]).to.deep.equal([201, 201]);
      expect(a.body.map((o: { id: string }) => o.id)).to.deep.equal(b.body.map((o: { id: string }) => o.id));
      expect(await heldPrefixes(h.srv, body)).to.equal(30);
    });

    it(
      'a key is scoped to method and path, refused with ' + 'another body (422), and each write method takes one',
      async () => {
        const body = prefixes(2);
        const made = await post(h.srv, '/api/ipam/prefixes/', body, `scope-${n}`);
        expect(made.status).to.equal(201);
        const other = await post(h.srv, '/api/ipam/prefixes/', prefixes(2), `scope-${n - 1}`);
        expect(other.status).to.equal(422);
        expect(other.body.code).to.equal('idempotency_key_reused');
        const [site] = sites(1);
        expect((await post(h.srv, '/api/dcim/sites/', site, `scope-${n - 1}`)).status).to.equal(201);
        const ids = made.body.map((p: { id: string }) => ({ id: p.id, description: 'bulk' }));
        const patch = (key: string) => h.srv.req('PATCH', '/api/ipam/prefixes/', ids, undefined, headers(key));
        const p1 = await patch('scope-patch');
        const p2 = await patch('scope-patch');
        expect([p1.status, p2.status, p2.headers.get('idempotent-replayed')]).to.deep.equal([200, 200, 'true']);
        const del = () =>
          h.srv.req('DELETE', `/api/ipam/prefixes/${made.body[0].id}/`, undefined, undefined, headers('scope-delete'));
        expect((await del()).status).to.equal(204);
        const d2 = await del();
        expect([d2.status, d2.headers.get('idempotent-replayed')]).to.deep.equal([204, 'true']);
        const long = await post(h.srv, '/api/ipam/prefixes/', prefixes(1), 'x'.repeat(129));
        expect(long.status).to.equal(400);
        expect(long.body.code).to.equal('invalid_idempotency_key');
      },
    );
  });
}

describe('Idempotency-Key time to live (IDEMPOTENCY_TTL_S)', function () {
  this.timeout(20_000);
  const h = serverOn(BACKENDS[0], { idempotencyTtlS: 1 });

  it('a key past its time to live writes again, and the pass deletes expired keys', async () => {
    const body = prefixes(2);
    expect((await post(h.srv, '/api/ipam/prefixes/', body, 'ttl')).status).to.equal(201);
    expect((await post(h.srv, '/api/ipam/prefixes/', body, 'ttl')).headers.get('idempotent-replayed')).to.equal('true');
    await new Promise((r) => setTimeout(r, 1100));
    const again = await post(h.srv, '/api/ipam/prefixes/', body, 'ttl');
    expect([again.status, again.headers.get('idempotent-replayed')]).to.deep.equal([201, null]);
    expect(await heldPrefixes(h.srv, body)).to.equal(4);
    await new Promise((r) => setTimeout(r, 1100));
    expect(await h.srv.running.ctx.inventory.keys.prune()).to.equal(1);
  });
});
