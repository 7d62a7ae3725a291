// The change log under concurrent writers (#18 "done means"): 8 writers through two server processes
// on one database (memory: one process owns its store) create, change and delete sites at once while
// a follower reads `seq__gt=LAST&ordering=seq` in a loop, alternating between the processes. Every
// read must continue exactly where the last ended (a record numbered later is never visible before
// an earlier one: commit order, no gap), and at the end every acknowledged write's X-Change-Seq
// names a record of its object, seen exactly once. RACE_ROUNDS (`npm run test:long`: 1000) writes
// per writer in all (at least 25).
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { BACKENDS } from '../conformance/backends.js';
import { racingServers } from '../../support/two-servers.js';

const KEY = 'changelog-race-key-0123456789';
const WRITERS = 8;
const PER_WRITER = Math.max(25, Math.ceil(Number(process.env.RACE_ROUNDS ?? 0) / WRITERS));

async function call(
  url: string,
  method: string,
  p: string,
  body?: unknown,
): Promise<{ status: number; body: any; seq: number }> {
  const res = await fetch(url + p, {
    method,
    headers: { Authorization: `Token ${KEY}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, seq: Number(res.headers.get('x-change-seq')) };
}

for (const backend of BACKENDS) {
  describe(`change log under ${WRITERS} racing writers on ${backend.name}`, function () {
    this.timeout(600000);
    const servers = racingServers(backend, KEY);

    it('a follower sees every acknowledged change once, in seq order, never past a gap', async () => {
      const start = (
        await call(servers.urls[0], 'POST', '/api/extras/tags/', { name: 'race-start', slug: 'race-start' })
      ).seq;
      const acked: { seq: number; id: string; action: string }[] = [];
      let writing = true;
      const writer = async (w: number) => {
        const url = servers.urls[w % servers.urls.length];
        let mine: string | null = null;
        for (let i = 0; i < PER_WRITER; i++) {
          if (!mine || i % 3 === 0) {
            const r = await call(url, 'POST', '/api/dcim/sites/', { name: `w${w}-${i}`, slug: `w${w}-${i}` });
            expect(r.status, JSON.stringify(r.body)).to.equal(201);
            acked.push({ seq: r.seq, id: r.body.id, action: 'create' });
            mine = r.body.id;
          } else if (i % 3 === 1) {
            const r = await call(url, 'PATCH', `/api/dcim/sites/${mine}/`, { description: `d${i}` });
            expect(r.status, JSON.stringify(r.body)).to.equal(200);
            acked.push({ seq: r.seq, id: mine, action: 'update' });
          } else {
            const r = await call(url, 'DELETE', `/api/dcim/sites/${mine}/`);
            expect(r.status).to.equal(204);
            acked.push({ seq: r.seq, id: mine, action: 'delete' });
            mine = null;
          }
        }
      };
      const seen: any[] = [];
      const follower = async () => {
        let last = start,
          turn = 0;
        for (;;) {
          const done = !writing; // one more read after the writers finished
          const r = await call(
            servers.urls[turn++ % servers.urls.length],
            'GET',
            `/api/extras/object-changes/?seq__gt=${last}&ordering=seq&limit=500`,
          );
          expect(r.status).to.equal(200);
          for (const c of r.body.results) {
            // Each read continues exactly where the last one ended.
            expect(c.seq, `after ${last}`).to.equal(last + 1);
            last = c.seq;
            seen.push(c);
          }
          if (done && r.body.results.length === 0) return;
          if (!r.body.results.length) await new Promise((res) => setTimeout(res, 2));
        }
      };
      const following = follower();
      await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
      writing = false;
      await following;

      expect(acked.length).to.equal(WRITERS * PER_WRITER);
      const bySeq = new Map(seen.map((c) => [c.seq, c]));
      expect(bySeq.size).to.equal(seen.length); // each once
      for (const a of acked) {
        const c = bySeq.get(a.seq);
        expect(c, `record ${a.seq}`).to.not.equal(undefined);
        expect([c.changed_object_id, c.action.value]).to.deep.equal([a.id, a.action]);
      }
      // Nothing but the acknowledged writes was logged meanwhile.
      expect(seen.length).to.equal(acked.length);
      // A record's time is when it was numbered, in its write's transaction: later numbers are never
      // earlier times (the writers' requests began in another order; both processes share one clock).
      for (let i = 1; i < seen.length; i++)
        expect(
          Date.parse(seen[i].time),
          `time of ${seen[i].seq} after ${seen[i - 1].seq}'s ${seen[i - 1].time}`,
        ).to.be.at.least(Date.parse(seen[i - 1].time));
    });
  });
}
