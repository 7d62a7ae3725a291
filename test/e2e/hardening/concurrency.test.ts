// Concurrency on every backend: 50 events at once on one entity and 1000 at once on distinct
// entities are all serialized; each accepted event has exactly one history row; none is lost.
import { expect } from 'chai';
import { serverOn } from '../../support/server-on.js';
import { BACKENDS } from '../conformance/backends.js';

const COUNTER = {
  meta: { machine_name: 'counter', version: '1.0.0' },
  states: [
    { name: 'on', type: 'initial' },
    { name: 'off', type: 'terminal' },
  ],
  transitions: [
    { trigger: 'bump', source: 'on', dest: 'on' },
    { trigger: 'stop', source: 'on', dest: 'off' },
  ],
};

/** Runs fn over items with at most `width` in flight. */
async function pooled<T, R>(items: readonly T[], width: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

for (const backend of BACKENDS)
  describe(`concurrent events on ${backend.name}`, function () {
    this.timeout(180000);
    const srv = serverOn(backend, async (s) => {
      expect((await s.req('POST', '/api/v1/machines', COUNTER)).status).to.equal(201);
    });

    it('50 events at once on one entity: all accepted, one after another, 50 history rows', async () => {
      expect((await srv.req('POST', '/api/v1/entities/hot/create', { machine_name: 'counter' })).status).to.equal(201);
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          srv.req('POST', '/api/v1/entities/hot/events', { trigger: 'bump', context: { n: i, [`k${i}`]: i } }),
        ),
      );
      expect(results.map((r) => r.status)).to.deep.equal(Array(50).fill(200));
      // Serialized: each response saw a different version, 2..51.
      expect(results.map((r) => r.body.entity.version).sort((a, b) => a - b)).to.deep.equal(
        Array.from({ length: 50 }, (_, i) => i + 2),
      );
      const ent = await srv.req('GET', '/api/v1/entities/hot');
      expect(ent.body.version).to.equal(51);
      const hist = await srv.req('GET', '/api/v1/entities/hot/history?limit=1000');
      expect(hist.body.count).to.equal(51);
      expect(hist.body.results.filter((h: { trigger: string }) => h.trigger === 'bump')).to.have.length(50);
      // Rows store what each event changed: folded back, row k shows the context the event that made
      // version k + 1 answered with, whatever order the events took.
      const byVersion = new Map(results.map((r) => [r.body.entity.version as number, r.body.entity.context]));
      hist.body.results
        .slice(1)
        .forEach((h: { context: unknown }, k: number) =>
          expect(h.context, `row ${k + 1}`).to.deep.equal(byVersion.get(k + 2)),
        );
      expect(hist.body.results[50].context).to.deep.equal(ent.body.context);
    });

    it('1000 events at once on 1000 entities: every one accepted and recorded once', async () => {
      const ids = Array.from({ length: 1000 }, (_, i) => `e-${i}`);
      const created = await pooled(ids, 50, (id) =>
        srv.req('POST', `/api/v1/entities/${id}/create`, { machine_name: 'counter' }),
      );
      expect(created.filter((r) => r.status !== 201).map((r) => r.body)).to.deep.equal([]);
      const results = await Promise.all(
        ids.map((id) => srv.req('POST', `/api/v1/entities/${id}/events`, { trigger: 'stop' })),
      );
      expect(results.filter((r) => r.status !== 200).map((r) => [r.status, r.body])).to.deep.equal([]);
      const off = await srv.req('GET', '/api/v1/entities/?machine_name=counter&state=off&limit=1');
      expect(off.body.count).to.equal(1000);
      const histories = await pooled(ids, 50, (id) => srv.req('GET', `/api/v1/entities/${id}/history`));
      for (const h of histories) {
        expect(h.body.count).to.equal(2);
        expect(h.body.results.filter((r: { trigger: string }) => r.trigger === 'stop')).to.have.length(1);
      }
    });
  });
