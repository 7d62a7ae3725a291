// History rows store what each event changed (a merge patch of the context's top-level keys), so
// storage grows with the changes, not with the square of the events; reading history still gives
// each row's whole context. A context over MAX_CONTEXT_BYTES is a 413 and changes nothing.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { startServer } from '../support/server.js';

const NOTE = {
  meta: { machine_name: 'notes', version: '1.0.0' },
  states: [
    { name: 'open', type: 'initial' },
    { name: 'done', type: 'terminal' },
  ],
  transitions: [
    { trigger: 'note', source: 'open', dest: 'open' },
    { trigger: 'close', source: 'open', dest: 'done' },
  ],
};

for (const backend of [
  ...BACKENDS,
  {
    name: 'memory:/dir',
    driver: 'memory' as const,
    url: async () => ({
      url: `memory:${fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-hist-'))}`,
      drop: async () => {},
    }),
  },
]) {
  describe(`history contexts on ${backend.name}`, function () {
    this.timeout(60000);
    it(
      'each row reads back with its whole context; rows ' + 'store only the change; 413 over MAX_CONTEXT_BYTES',
      async function () {
        const db = await backend.url();
        if (!db) {
          this.skip();
          return;
        }
        const srv = await startServer({ storage: db.url, maxContextBytes: 400_000 });
        try {
          expect((await srv.req('POST', '/api/v1/machines', NOTE)).status).to.equal(201);
          const big = 'x'.repeat(300_000);
          expect(
            (await srv.req('POST', '/api/v1/entities/n1/create', { machine_name: 'notes', context: { big, n: 0 } }))
              .status,
          ).to.equal(201);
          const want: Record<string, unknown>[] = [{ big, n: 0 }];
          for (let i = 1; i <= 30; i++) {
            const ctx = i === 7 ? { n: i, gone: null } : i % 5 === 0 ? { n: i, [`k${i}`]: [i, { deep: i }] } : { n: i };
            const r = await srv.req('POST', '/api/v1/entities/n1/events', { trigger: 'note', context: ctx });
            expect(r.status, JSON.stringify(r.body).slice(0, 200)).to.equal(200);
            want.push({ ...want[want.length - 1], ...ctx });
          }
          const all = await srv.req('GET', '/api/v1/entities/n1/history?limit=100');
          expect(all.body.count).to.equal(31);
          expect(all.body.results.map((h: { context: unknown }) => h.context)).to.deep.equal(want);
          const page = await srv.req('GET', '/api/v1/entities/n1/history?limit=3&offset=20');
          expect(page.body.results.map((h: { context: unknown }) => h.context)).to.deep.equal(want.slice(20, 23));
          // Over the limit: refused, the entity and its history unchanged.
          const over = await srv.req('POST', '/api/v1/entities/n1/events', {
            trigger: 'note',
            context: { more: 'y'.repeat(150_000) },
          });
          expect(over.status).to.equal(413);
          expect(over.body.code).to.equal('context_too_large');
          expect((await srv.req('GET', '/api/v1/entities/n1')).body.context).to.deep.equal(want[30]);
          expect(
            (
              await srv.req('POST', '/api/v1/entities/n2/create', {
                machine_name: 'notes',
                context: { a: 'z'.repeat(450_000) },
              })
            ).status,
          ).to.equal(413);
          if (backend.name === 'memory:/dir') {
            // After a restart (which compacts the journal): 31 history rows and one 300 KB value take
            // about 300 KB, not 31 x 300 KB.
            await srv.close();
            const dir = db.url.slice('memory:'.length);
            const again = await startServer({ storage: db.url });
            try {
              expect(
                (await again.req('GET', '/api/v1/entities/n1/history?limit=100')).body.results.map(
                  (h: { context: unknown }) => h.context,
                ),
              ).to.deep.equal(want);
            } finally {
              await again.close();
            }
            const bytes =
              fs.statSync(path.join(dir, 'journal.jsonl')).size + fs.statSync(path.join(dir, 'snapshot.bin')).size;
            // Five copies of the 300 KB context: the entity, the first history row and the create's change
            // record, and the event at i = 7 (a merge patch cannot say "remove gone") in its history row
            // and its change record; the other 29 events keep only their change. 31 whole copies: 9.3 MB.
            expect(bytes).to.be.lessThan(1_800_000);
          }
        } finally {
          await srv.close().catch(() => undefined);
          await db.drop();
        }
      },
    );
  });
}
