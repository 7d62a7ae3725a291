// A crash at any step of a memory:/dir compaction never stops the next start, and loses and
// doubles nothing (#16): for each step (the temporary snapshot partly written; written, not
// renamed; renamed, the journal not yet replaced; the new journal written, not renamed; renamed)
// the compaction is stopped there (in-process through the test hook, and by kill -9 of a server
// process paused there by MEMORY_COMPACTION_TEST_PAUSE), and the next start gives exactly the rows
// acknowledged before it; a later write and restart keep everything. States the product no longer
// makes but a hand or an earlier build can (a journal emptied in place before its header was
// written; a header cut short) start too; a journal newer than its snapshot stops the start;
// stores without generations (earlier releases) are read as before.
import { expect } from 'chai';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryStorage } from '../../../storage/memory/memory-storage.js';
import {
  COMPACTION_PAUSE_ENV,
  COMPACTION_STEPS,
  setCompactionHook,
  type CompactionStep,
} from '../../../storage/memory/journal.js';
import { encodeHeader, encodeRecord, journalGeneration, scanJournal } from '../../../storage/memory/journal-format.js';
import {
  readColumnSnapshot,
  writeColumnSnapshot,
  type SnapshotImage,
} from '../../../storage/memory/column-snapshot.js';
import { snapshotLines } from '../../../storage/memory/snapshot-format.js';
import { RESOURCES } from '../../../engine/schema/registry.js';
import { JournalWriteFailed, StorageConfigProblem, type Row, type WriteOp } from '../../../storage/types.js';
import { MAIN, startProcess } from '../../support/process.js';

const now = '2026-01-01T00:00:00.000Z';
const uuid = (kind: number, i: number) => `00000000-0000-4000-8${kind}00-${String(i).padStart(12, '0')}`;
const tag = (i: number): Row => ({
  id: uuid(0, i),
  created: now,
  last_updated: now,
  name: `t${i}`,
  slug: `t${i}`,
  color: '9e9e9e',
  description: '',
  version: 1,
});
const site = (i: number, tags: string[] = []): Row => ({
  id: uuid(1, i),
  created: now,
  last_updated: now,
  name: `s${i}`,
  slug: `s${i}`,
  status: 'active',
  tags,
  version: 1,
});
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-compaction-crash-'));
const files = (dir: string) => ({
  journal: path.join(dir, 'journal.jsonl'),
  snapshot: path.join(dir, 'snapshot.bin'),
  snapshotTmp: path.join(dir, 'snapshot.bin.tmp'),
  journalTmp: path.join(dir, 'journal.jsonl.tmp'),
});

/** Every row of every table, in id order: what a store holds. */
function dump(s: MemoryStorage): Record<string, Row[]> {
  const out: Record<string, Row[]> = {};
  for (const r of RESOURCES) {
    const rows = [...s.table(r.name).all()]
      .map((row) => JSON.parse(JSON.stringify(row)) as Row)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (rows.length) out[r.name] = rows;
  }
  return out;
}

/** Opens `dir`, runs `fn` on the store, closes it; gives what `fn` returns. */
async function withStore<T>(dir: string, fn: (s: MemoryStorage) => Promise<T> | T, log: string[] = []): Promise<T> {
  const s = new MemoryStorage(dir, { log: (m) => log.push(m) });
  await s.open();
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

/** Writes `round`'s batches (creates, an update, a delete; tags on sites) and gives the rows after them. */
async function write(s: MemoryStorage, round: number): Promise<Record<string, Row[]>> {
  const base = round * 100;
  for (let i = base; i < base + 6; i++)
    await s.apply([
      { op: 'create', resource: 'tag', row: tag(i) },
      { op: 'create', resource: 'site', row: site(i, [tag(i).id]) },
    ]);
  await s.apply([
    {
      op: 'update',
      resource: 'site',
      row: { ...site(base, [tag(base).id]), description: `changed in round ${round}`, version: 2 },
    },
  ]);
  await s.apply([{ op: 'delete', resource: 'site', id: site(base + 5).id }]);
  return dump(s);
}

class Crash extends Error {}

/** Opens `dir` with compaction stopped after `step` (as a crash there would stop it): the open fails. */
async function crashAt(dir: string, step: CompactionStep): Promise<void> {
  let reached = false;
  const was = setCompactionHook((at) => {
    if (at === step) {
      reached = true;
      throw new Crash(step);
    }
  });
  try {
    const s = new MemoryStorage(dir, { log: () => {} });
    const err = await s.open().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err, `the compaction was stopped at ${step}`).to.be.instanceOf(Crash);
    expect(reached).to.equal(true);
    // The process is gone: its lock file (this pid) stays, as a killed process's does; this process may take it again.
  } finally {
    setCompactionHook(was);
  }
}

/** The generation a snapshot file names (null: none). */
const snapshotGeneration = (file: string) => readColumnSnapshot(file, () => {}).journal;

/**
 * The next start gives `want` exactly, leaves no temporary file and a journal of the snapshot's
 * generation; a write and two restarts (the first compacts it) keep everything.
 */
async function startsWith(dir: string, want: Record<string, Row[]>, round: number, what: string): Promise<string[]> {
  const log: string[] = [];
  const after = await withStore(
    dir,
    async (s) => {
      expect(dump(s), `${what}: the rows after the crash`).to.deep.equal(want);
      return write(s, round);
    },
    log,
  );
  const f = files(dir);
  expect(fs.existsSync(f.snapshotTmp) || fs.existsSync(f.journalTmp), `${what}: temporary files removed`).to.equal(
    false,
  );
  for (const restart of ['journal', 'snapshot'])
    expect(await withStore(dir, dump), `${what}: a write after it, restart from the ${restart}`).to.deep.equal(after);
  expect(journalGeneration(f.journal), `${what}: the journal follows the snapshot`).to.equal(
    snapshotGeneration(f.snapshot),
  );
  return log;
}

describe('a crash during memory:/dir compaction', function () {
  this.timeout(60000);

  for (const history of ['a new store (first compaction)', 'a compacted store (a later compaction)'] as const) {
    for (const step of COMPACTION_STEPS) {
      it(
        `${history}: stopped at ${step}, the next start gives the acknowledged rows once, and later writes ` + `stay`,
        async () => {
          const dir = tmp();
          let want = await withStore(dir, (s) => write(s, 1));
          if (history !== 'a new store (first compaction)') {
            await withStore(dir, () => {}); // compacts round 1
            want = await withStore(dir, (s) => write(s, 2));
          }
          const f = files(dir);
          const from = journalGeneration(f.journal)!;
          const records = scanJournal(fs.readFileSync(f.journal)).batches.length;
          expect(records).to.be.greaterThan(0);
          await crashAt(dir, step);
          // What the step left on disk.
          const renamed = step !== 'snapshot-partial' && step !== 'snapshot-written';
          expect(fs.existsSync(f.snapshotTmp), 'the temporary snapshot').to.equal(!renamed);
          if (renamed)
            expect(snapshotGeneration(f.snapshot), 'the new snapshot names the next journal').to.equal(from + 1);
          if (step === 'snapshot-renamed' || step === 'journal-written') {
            expect(journalGeneration(f.journal), 'the old journal is still there').to.equal(from);
            expect(scanJournal(fs.readFileSync(f.journal)).batches).to.have.length(records);
          }
          if (step === 'journal-written') expect(journalGeneration(f.journalTmp)).to.equal(from + 1);
          if (step === 'journal-renamed') expect(journalGeneration(f.journal)).to.equal(from + 1);
          const log = await startsWith(dir, want, 3, step);
          if (step === 'snapshot-renamed' || step === 'journal-written')
            expect(log.join('\n')).to.contain('already in the snapshot');
        },
      );
    }
  }

  it(
    'a store of an earlier release (line snapshot, journal without generation) stopped after the rename ' +
      'starts with its rows',
    async () => {
      for (const step of COMPACTION_STEPS) {
        const dir = tmp();
        const f = files(dir);
        fs.writeFileSync(
          path.join(dir, 'snapshot.jsonl'),
          [...snapshotLines([{ resource: 'tag', size: 2, rows: [tag(900), tag(901)] }])].join(''),
        );
        fs.writeFileSync(
          f.journal,
          Buffer.concat([0, 1, 2].map((i) => encodeRecord([{ op: 'create', resource: 'tag', row: tag(i) }]))),
        );
        const want = { tag: [0, 1, 2, 900, 901].map(tag) };
        await crashAt(dir, step);
        await startsWith(dir, want, 1, `earlier release, ${step}`);
        expect(fs.existsSync(path.join(dir, 'snapshot.jsonl')), 'the line snapshot is gone').to.equal(false);
      }
    },
  );

  it(
    'a journal emptied in place before its header was written (or its header cut short) starts with the ' +
      'snapshot, and later writes stay',
    async () => {
      for (const journal of [Buffer.alloc(0), null, encodeHeader(2).subarray(0, 11)]) {
        const dir = tmp();
        const want = await withStore(dir, (s) => write(s, 1));
        await crashAt(dir, 'snapshot-renamed');
        const f = files(dir);
        if (journal) fs.writeFileSync(f.journal, journal);
        else fs.rmSync(f.journal);
        const log = await startsWith(dir, want, 2, journal ? `a journal of ${journal.length} bytes` : 'no journal');
        if (journal?.length) expect(log.join('\n')).to.contain('cut short');
      }
    },
  );

  it(
    'a journal newer than its snapshot (the snapshot lost, or restored alone from an older backup) stops the ' +
      'start and changes nothing',
    async () => {
      const dir = tmp();
      const f = files(dir);
      await withStore(dir, (s) => write(s, 1));
      await withStore(dir, () => {}); // compacts: snapshot and journal of generation 1
      const older = fs.readFileSync(f.snapshot);
      await withStore(dir, (s) => write(s, 2));
      await withStore(dir, () => {}); // generation 2
      await withStore(dir, (s) => write(s, 3));
      for (const snapshot of [older, null]) {
        const before = fs.readFileSync(f.journal);
        if (snapshot) fs.writeFileSync(f.snapshot, snapshot);
        else fs.rmSync(f.snapshot);
        const err = await withStore(dir, () => null).then(
          () => null,
          (e: Error) => e,
        );
        expect(err).to.be.instanceOf(StorageConfigProblem);
        expect(err!.message)
          .to.contain(f.journal)
          .and.to.contain('generation 2')
          .and.to.contain(snapshot ? 'generation 1' : 'there is no snapshot')
          .and.to.contain('backup');
        expect(fs.readFileSync(f.journal).equals(before), 'the journal is as it was').to.equal(true);
        expect(fs.existsSync(path.join(dir, 'lock')), 'the lock is let go').to.equal(false);
      }
    },
  );

  it(
    'a snapshot and journal without generations (written before them) are read as before, and get them at the ' +
      'next compaction',
    async () => {
      const dir = tmp();
      const f = files(dir);
      const want = await withStore(dir, (s) => write(s, 1));
      await withStore(dir, () => {}); // compacts
      // The snapshot as the previous build wrote it (no generation), and a journal of records without a header after
      // it.
      const tables: SnapshotImage[] = [];
      readColumnSnapshot(f.snapshot, (resource, image) => tables.push({ resource, image }));
      const parts: Buffer[] = [];
      writeColumnSnapshot(tables, tables.length, (b) => parts.push(Buffer.from(b)));
      fs.writeFileSync(f.snapshot, Buffer.concat(parts));
      expect(snapshotGeneration(f.snapshot)).to.equal(null);
      const later: WriteOp[][] = [7, 8].map((i) => [{ op: 'create', resource: 'tag', row: tag(700 + i) }]);
      fs.writeFileSync(f.journal, Buffer.concat(later.map((b) => encodeRecord(b))));
      expect(journalGeneration(f.journal)).to.equal(0);
      const expected = { ...want, tag: [...want.tag, tag(707), tag(708)].sort((a, b) => (a.id < b.id ? -1 : 1)) };
      expect(await withStore(dir, dump), 'replayed on the snapshot, as before').to.deep.equal(expected);
      expect(snapshotGeneration(f.snapshot)).to.equal(1);
      expect(journalGeneration(f.journal)).to.equal(1);
      await startsWith(dir, expected, 2, 'after the first compaction with generations');
    },
  );

  describe('kill -9 of a server paused inside its compaction', function () {
    const KEY = 'compaction-crash-key-0123456789';
    const req = async (url: string, method: string, p: string, body?: unknown) => {
      const res = await fetch(url + p, {
        method,
        headers: { Authorization: `Token ${KEY}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as Record<string, unknown>) };
    };
    const siteNames = async (url: string) =>
      ((await req(url, 'GET', '/api/dcim/sites/?limit=1000')).body!.results as { name: string }[])
        .map((s) => s.name)
        .sort();
    const killed = (child: ReturnType<typeof spawn>) =>
      new Promise<void>((r) => {
        if (child.exitCode !== null || child.signalCode !== null) r();
        else {
          child.once('exit', () => r());
          child.kill('SIGKILL');
        }
      });

    /**
     * Starts the server with the compaction pausing at `step`; resolves when it is there (it listens first: the
     * snapshot is written after).
     */
    function pausedAt(storage: string, cfg: string, step: CompactionStep): Promise<ReturnType<typeof spawn>> {
      return new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [MAIN], {
          env: {
            ...process.env,
            PORT: '0',
            STORAGE_URL: storage,
            DEMO_DATA: 'false',
            CONFIG_FILE: cfg,
            LOG_LEVEL: 'silent',
            [COMPACTION_PAUSE_ENV]: step,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let err = '',
          out = '';
        child.stdout!.on('data', (d) => {
          out += d;
        });
        child.stderr!.on('data', (d) => {
          err += d;
          if (!err.includes(`compaction paused at ${step}`)) return;
          if (/listening on/.test(out)) resolve(child);
          else {
            child.kill('SIGKILL');
            reject(new Error(`compacted before listening (${step})`));
          }
        });
        child.on('exit', (code) => reject(new Error(`exited ${code} before ${step}: ${err}`)));
      });
    }

    for (const step of COMPACTION_STEPS) {
      it(
        `killed at ${step}: the restart has every acknowledged site once, and a later write survives a kill ` + `too`,
        async () => {
          const dir = tmp();
          const cfg = path.join(dir, 'config.json');
          fs.writeFileSync(cfg, JSON.stringify({ tokens: [{ key: KEY, permissions: ['*'] }] }));
          const storage = `memory:${path.join(dir, 'data')}`;
          let srv = await startProcess(storage, cfg);
          const acked: string[] = [];
          try {
            await req(srv.url, 'POST', '/api/extras/tags/', { name: 'T', slug: 't' });
            for (let i = 0; i < 12; i++) {
              const r = await req(srv.url, 'POST', '/api/dcim/sites/', { name: `a${i}`, slug: `a${i}`, tags: ['t'] });
              expect(r.status).to.equal(201);
              acked.push(`a${i}`);
            }
            const first = (
              (await req(srv.url, 'GET', '/api/dcim/sites/?name=a0')).body!.results as { id: string }[]
            )[0];
            expect(
              (await req(srv.url, 'PATCH', `/api/dcim/sites/${first.id}/`, { description: 'patched' })).status,
            ).to.equal(200);
          } finally {
            await killed(srv.child);
          }
          const paused = await pausedAt(storage, cfg, step);
          await killed(paused);
          srv = await startProcess(storage, cfg);
          try {
            expect(await siteNames(srv.url)).to.deep.equal([...acked].sort());
            expect((await req(srv.url, 'GET', '/api/dcim/sites/?description=patched')).body!.count).to.equal(1);
            expect(
              (await req(srv.url, 'POST', '/api/dcim/sites/', { name: 'later', slug: 'later', tags: ['t'] })).status,
            ).to.equal(201);
          } finally {
            await killed(srv.child);
          }
          for (let restart = 0; restart < 2; restart++) {
            srv = await startProcess(storage, cfg);
            try {
              expect(await siteNames(srv.url)).to.deep.equal([...acked, 'later'].sort());
              const tagged = (await req(srv.url, 'GET', '/api/dcim/sites/?tag=t&limit=1000')).body!.count;
              expect(tagged).to.equal(acked.length + 1);
            } finally {
              await killed(srv.child);
            }
          }
          fs.rmSync(dir, { recursive: true, force: true });
        },
      );
    }
  });
});

// A full disk never prevents a start (#34 item 5, finding 7): on a real full filesystem (a 1 MiB
// tmpfs, mounted for the test; skipped where mounting is not allowed) a start whose compaction
// cannot write the snapshot serves from the journal as it is, says so, and leaves no temporary
// file; writes answer "no room" as before; once there is room, a start compacts.
describe('memory:/dir on a full disk', function () {
  this.timeout(60000);
  let mnt: string | null = null;
  before(function () {
    mnt = fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-full-disk-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mnt], { stdio: 'ignore' });
    } catch {
      fs.rmSync(mnt, { recursive: true, force: true });
      mnt = null;
      this.skip();
    }
  });
  after(() => {
    if (!mnt) return;
    execFileSync('umount', ['-l', mnt]);
    fs.rmSync(mnt, { recursive: true, force: true });
  });

  it(
    'a start that cannot write its snapshot serves the journal as it is, logs why, and removes the temporary ' + 'file',
    async () => {
      const dir = path.join(mnt!, 'store');
      // A store with records in its journal (a start compacts them), then the disk fills while it runs.
      const first = new MemoryStorage(dir, { log: () => {} });
      await first.open();
      let rows: Record<string, Row[]> = {};
      for (let r = 0; r < 3; r++) rows = await write(first, r);
      const filler = path.join(mnt!, 'filler');
      const fd = fs.openSync(filler, 'w');
      try {
        for (const block = Buffer.alloc(4096); ;) fs.writeSync(fd, block);
      } catch (e) {
        expect((e as NodeJS.ErrnoException).code).to.equal('ENOSPC');
      } finally {
        fs.closeSync(fd);
      }
      // Writes go on while the journal's last page has room, then each is refused whole (a clean 507).
      let refused: unknown = null;
      for (let i = 0; i < 200 && !refused; i++) {
        try {
          await first.apply([{ op: 'create', resource: 'tag', row: tag(900 + i) }]);
          rows = dump(first);
        } catch (e) {
          refused = e;
        }
      }
      expect(refused).to.be.instanceOf(JournalWriteFailed);
      expect(dump(first)).to.deep.equal(rows);
      // It stops without closing (as kill -9 would: the lock file stays, naming this process).
      const journalBytes = fs.statSync(files(dir).journal).size;

      const log: string[] = [];
      const second = new MemoryStorage(dir, { log: (m) => log.push(m) });
      await second.open();
      try {
        expect(dump(second)).to.deep.equal(rows);
        expect(log.join('\n'))
          .to.match(/snapshot/)
          .and.to.match(/ENOSPC/)
          .and.to.match(/journal as it is/);
        expect(fs.readdirSync(dir).sort()).to.deep.equal(['id-style', 'journal.jsonl', 'lock']);
        expect(fs.statSync(files(dir).journal).size).to.equal(journalBytes);
        let again: unknown = null;
        try {
          await second.apply([{ op: 'create', resource: 'tag', row: tag(998) }]);
        } catch (e) {
          again = e;
        }
        expect(again).to.be.instanceOf(JournalWriteFailed);
      } finally {
        await second.close();
      }
      // A server's start compacts once it listens (deferStartWork): the same, said then.
      const log2: string[] = [];
      const served = new MemoryStorage(dir, { log: (m) => log2.push(m) });
      served.deferStartWork();
      await served.open();
      try {
        expect(dump(served)).to.deep.equal(rows);
        expect(log2.join('\n')).to.not.match(/snapshot/);
        await served.afterListening();
        expect(log2.join('\n'))
          .to.match(/snapshot/)
          .and.to.match(/ENOSPC/)
          .and.to.match(/journal as it is/);
        expect(fs.readdirSync(dir).sort()).to.deep.equal(['id-style', 'journal.jsonl', 'lock']);
        expect(fs.statSync(files(dir).journal).size).to.equal(journalBytes);
        expect(dump(served)).to.deep.equal(rows);
      } finally {
        await served.close();
      }
      await first.close();

      // With room again, the next start compacts the journal into a snapshot, rows unchanged.
      fs.rmSync(filler);
      const log3: string[] = [];
      expect(await withStore(dir, (s) => dump(s), log3)).to.deep.equal(rows);
      expect(fs.existsSync(files(dir).snapshot)).to.equal(true);
      expect(fs.existsSync(files(dir).snapshotTmp)).to.equal(false);
      expect(await withStore(dir, (s) => dump(s))).to.deep.equal(rows);
    },
  );
});
