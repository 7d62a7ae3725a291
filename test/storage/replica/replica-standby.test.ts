// Memory replicas loaded from a real PostgreSQL hot standby (READ_REPLICA_LOAD_URL), following the
// change log on the primary: a primary and a standby of this test's own (initdb, pg_basebackup -R).
// Answers equal SQL push-down on the primary; the primary restarted under the replicas while
// writes and reads go on: no read answered from a replica misses a write acknowledged before it
// was sent, and all converge; a standby so far behind that the primary's log was pruned past its
// seq is refused with one line, and the replica loads from the primary.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startProcess } from '../../support/process.js';
import { startPgPair, type PgPair } from '../../support/pg-cluster.js';
import { call, KEY, RandomWorkload, seedReferences } from './random-workload.js';

const PLANS = Number(process.env.STANDBY_PLANS ?? 100);

describe('memory replicas loaded from a PostgreSQL hot standby', function () {
  this.timeout(300000);
  let pair: PgPair | null = null;
  let cfg = '';
  let reference = '';
  const procs: ChildProcess[] = [];
  const replicas: { url: string; output: () => string }[] = [];
  const startReplica = async (env: Record<string, string> = {}) => {
    const p = await startProcess(pair!.primaryUrl, cfg, {
      READ_REPLICA: 'memory',
      READ_REPLICA_LOAD_URL: pair!.standbyUrl,
      LOG_LEVEL: 'warn',
      ...env,
    });
    procs.push(p.child);
    return p;
  };
  const seqOf = async (url: string) =>
    Number((await pair!.query(url, 'SELECT coalesce(max(seq), 0) AS s FROM object_change')).rows[0].s);

  before(async function () {
    if (!process.env.TEST_POSTGRES_URL) {
      this.skip();
      return;
    }
    pair = await startPgPair();
    if (!pair) {
      if (process.env.CI) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
      this.skip();
      return;
    }
    cfg = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-standby-')), 'config.json');
    fs.writeFileSync(cfg, JSON.stringify({ tokens: [{ key: KEY, permissions: ['*'] }] }));
    const ref = await startProcess(pair.primaryUrl, cfg);
    procs.push(ref.child);
    reference = ref.url;
    await seedReferences(reference);
    await pair.caughtUp();
  });
  after(() => {
    for (const c of procs) c.kill('SIGKILL');
    pair?.stop();
  });

  it(
    'a standby a little behind: replicas load from it, follow the primary from its seq, and answer as ' + 'push-down',
    async () => {
      const r = await pair!.query(pair!.standbyUrl, 'SELECT pg_is_in_recovery() AS r');
      expect(r.rows[0].r).to.equal(true);
      // The standby stops replaying: the replicas' snapshot is older than the primary.
      await pair!.pauseReplay();
      const work = new RandomWorkload(7, [reference]);
      for (let i = 0; i < 15; i++) await work.write();
      const standbySeq = await seqOf(pair!.standbyUrl);
      expect(standbySeq).to.be.lessThan(work.last);
      for (let i = 0; i < 2; i++) replicas.push(await startReplica());
      for (const p of replicas)
        expect(p.output()).to.match(
          new RegExp(
            `replica: loaded [\\d,]+ rows from the standby \\(READ_REPLICA_LOAD_URL\\) at change seq ${standbySeq} `,
          ),
        );
      await pair!.resumeReplay();
      const mixed = new RandomWorkload(
        8,
        replicas.map((p) => p.url),
      );
      mixed.last = work.last;
      await mixed.compare(
        reference,
        replicas.map((p) => p.url),
        PLANS,
      );
    },
  );

  it('the primary restarted under them: no replica answer misses an acknowledged write, and all converge', async () => {
    const urls = replicas.map((p) => p.url);
    const acked: { slug: string; seq: number }[] = [];
    let last = 0,
      stop = false,
      n = 0,
      fromReplica = 0;
    const statuses = new Map<number, number>();
    const count = (s: number) => statuses.set(s, (statuses.get(s) ?? 0) + 1);
    const writer = async () => {
      while (!stop) {
        const slug = `restart-${String(n++).padStart(4, '0')}`;
        const res = await call(urls[n % urls.length], 'POST', '/api/dcim/sites/', { name: slug, slug }).catch(
          () => null,
        );
        if (!res) continue;
        count(res.status);
        expect(res.status, JSON.stringify(res.body)).to.be.oneOf([201, 503]);
        if (res.status === 201) {
          const seq = Number(res.headers.get('x-change-seq'));
          acked.push({ slug, seq });
          last = Math.max(last, seq);
        } else await new Promise((r) => setTimeout(r, 50));
      }
    };
    const reader = async () => {
      while (!stop) {
        for (const url of urls) {
          const known = acked.filter((a) => a.seq <= last).map((a) => a.slug),
            at = last;
          const res = await call(url, 'GET', '/api/dcim/sites/?slug__isw=restart-&limit=1000', undefined, {
            'X-Min-Change-Seq': String(at),
          }).catch(() => null);
          if (!res) continue;
          count(res.status);
          expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 503]);
          if (res.status !== 200) continue;
          if (res.headers.get('x-read-source') === 'replica') fromReplica++;
          const got = new Set(res.body.results.map((s: { slug: string }) => s.slug));
          const missing = known.filter((s) => !got.has(s));
          expect(missing, `read at seq ${at} from ${res.headers.get('x-read-source')}`).to.deep.equal([]);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const load = [writer(), writer(), reader()];
    await new Promise((r) => setTimeout(r, 700));
    const before = acked.length;
    await pair!.restartPrimary();
    await new Promise((r) => setTimeout(r, 1500));
    stop = true;
    await Promise.all(load);
    expect(before, 'writes before the restart').to.be.greaterThan(0);
    expect(acked.length, 'writes after the restart').to.be.greaterThan(before);
    expect(fromReplica).to.be.greaterThan(0);
    // Converged: every replica, from itself, holds what the primary holds.
    const want = await call(reference, 'GET', '/api/dcim/sites/?slug__isw=restart-&limit=1000&ordering=slug');
    expect(want.status).to.equal(200);
    for (const a of acked) expect(want.body.results.map((s: { slug: string }) => s.slug)).to.include(a.slug);
    for (const url of urls) {
      const got = await call(url, 'GET', '/api/dcim/sites/?slug__isw=restart-&limit=1000&ordering=slug', undefined, {
        'X-Min-Change-Seq': String(last),
      });
      expect(got.headers.get('x-read-source')).to.equal('replica');
      expect(got.body.results.map((s: { id: string }) => s.id)).to.deep.equal(
        want.body.results.map((s: { id: string }) => s.id),
      );
    }
    const work = new RandomWorkload(9, urls);
    work.last = last;
    await work.compare(reference, urls, 30);
  });

  it(
    "a standby whose seq the primary's log no longer holds is refused with one line; the replica loads from " +
      'the primary',
    async () => {
      await pair!.caughtUp();
      await pair!.pauseReplay();
      try {
        const standbySeq = await seqOf(pair!.standbyUrl);
        const work = new RandomWorkload(11, [reference]);
        for (let i = 0; i < 10; i++) {
          const made = await call(reference, 'POST', '/api/dcim/sites/', { name: `behind ${i}`, slug: `behind-${i}` });
          expect(made.status).to.equal(201);
          work.last = Number(made.headers.get('x-change-seq'));
        }
        // The webhook outbox pins what it has not planned yet: once it has passed these writes, a
        // process with a short retention prunes the log at start, past the standby's seq.
        for (
          let i = 0;
          Number((await pair!.query(pair!.primaryUrl, 'SELECT max(after_seq) AS s FROM webhook_cursor')).rows[0].s) <
          work.last;
          i++
        ) {
          if (i > 200) throw new Error('the webhook outbox did not pass the writes');
          await new Promise((r) => setTimeout(r, 100));
        }
        const pruner = await startProcess(pair!.primaryUrl, cfg, { CHANGELOG_MAX_ROWS: '3', LOG_LEVEL: 'warn' });
        procs.push(pruner.child);
        for (let i = 0; ; i++) {
          const min = Number(
            (await pair!.query(pair!.primaryUrl, 'SELECT min(seq) AS s FROM object_change')).rows[0].s,
          );
          if (min > standbySeq + 1) break;
          if (i > 100) {
            const state = (sql: string) => pair!.query(pair!.primaryUrl, sql).then((r) => JSON.stringify(r.rows));
            throw new Error(
              `the log was not pruned past ${standbySeq} (it begins at ${min}; cursor ` +
                `${await state('SELECT * FROM webhook_cursor')}, deliveries ` +
                `${await state('SELECT status, seq FROM webhook_delivery')}, last ${work.last}; the pruning ` +
                `process said: ${pruner.output()})`,
            );
          }
          await new Promise((r) => setTimeout(r, 100));
        }
        pruner.child.kill('SIGKILL');
        const late = await startReplica();
        expect(late.output()).to.match(
          new RegExp(
            `replica: the standby holds change seq ${standbySeq}, but the primary's change log begins at seq ` +
              `\\d+ .*its snapshot is refused; loading from the primary instead`,
          ),
        );
        expect(late.output()).to.match(/replica: loaded [\d,]+ rows from the database at change seq/);
        const others = new RandomWorkload(12, [late.url]);
        others.last = work.last;
        await others.compare(reference, [late.url], 30);
      } finally {
        await pair!.resumeReplay();
      }
    },
  );
});
