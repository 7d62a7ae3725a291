// The `memory:/dir` journal loses nothing acknowledged: records carry a length and a checksum; a
// torn last record is dropped with a log line; a damaged middle record stops the start (file and
// offset named) until `npm run journal -- repair`; a full disk or a file-size limit answers 507 and
// leaves the journal as before; one process owns a directory; the previous format is still read.
import { expect } from 'chai';
import fc from 'fast-check';
import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryStorage } from '../../../storage/memory/memory-storage.js';
import { encodeHeader, encodeRecord, scanJournal, scanJournalFile } from '../../../storage/memory/journal-format.js';
import { readColumnSnapshot } from '../../../storage/memory/column-snapshot.js';
import { snapshotLines } from '../../../storage/memory/snapshot-format.js';
import { imageRows } from '../../../engine/memory/row-store.js';
import { StorageConfigProblem, type Row, type WriteOp } from '../../../storage/types.js';
import { MAIN, startProcess } from '../../support/process.js';
import { distPath } from '../../support/paths.js';

const CLI = distPath('storage/memory/journal-cli.js');
const KEY = 'journal-key-0123456789';
const now = '2026-01-01T00:00:00.000Z';
const tag = (i: number): Row => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  created: now,
  last_updated: now,
  name: `t${i}`,
  slug: `t${i}`,
  color: '9e9e9e',
  description: '',
  version: 1,
});
const create = (i: number): WriteOp[] => [{ op: 'create', resource: 'tag', row: tag(i) }];
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-journal-'));

/** A store in `dir` with n tags, each its own journal record (no compaction after them). */
async function storeWith(dir: string, n: number, from = 0): Promise<void> {
  const s = new MemoryStorage(dir, { log: () => {} });
  await s.open();
  for (let i = from; i < from + n; i++) await s.apply(create(i));
  await s.close();
}

async function tagNames(dir: string, log: string[] = []): Promise<string[]> {
  const s = new MemoryStorage(dir, { log: (m) => log.push(m) });
  await s.open();
  try {
    return [...s.table('tag').all()]
      .map((r) => r.name as string)
      .sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
  } finally {
    await s.close();
  }
}

/** The tag rows of `dir`'s snapshot file (each table's columns: column-snapshot.ts). */
function snapshotRows(dir: string): Row[] {
  const rows: Row[] = [];
  readColumnSnapshot(path.join(dir, 'snapshot.bin'), (resource, image) => {
    if (resource === 'tag') rows.push(...imageRows(image));
  });
  return rows;
}

const cli = (...args: string[]) =>
  new Promise<{ code: number; out: string }>((resolve) => {
    execFile(process.execPath, [CLI, ...args], (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
    );
  });

describe('memory:/dir journal records', () => {
  it('reads good records, and tells a torn end from a damaged middle', () => {
    const recs = [0, 1, 2, 3].map((i) => encodeRecord(create(i)));
    const whole = Buffer.concat(recs);
    expect(scanJournal(whole).batches).to.have.length(4);
    const torn = scanJournal(whole.subarray(0, whole.length - 7));
    expect(torn.batches).to.have.length(3);
    expect(torn.damage).to.include({ atEnd: true, offset: recs[0].length + recs[1].length + recs[2].length });
    const bad = Buffer.from(whole);
    bad[recs[0].length + 40] ^= 1; // one bit in record 1's JSON
    const mid = scanJournal(bad);
    expect(mid.batches).to.have.length(1);
    expect(mid.damage).to.include({
      atEnd: false,
      offset: recs[0].length,
      reason: 'record whose checksum does not match',
    });
    const legacy = scanJournal(Buffer.from(`${JSON.stringify(create(7))}\n${JSON.stringify(create(8))}\n`));
    expect(legacy.batches).to.have.length(2);
    expect(legacy.legacy).to.equal(true);
  });

  it('gives back every batch as JSON would, runs of like creates written by columns (property)', () => {
    // Rows of a few key sets, values JSON keeps and values it drops from objects (undefined, a
    // function), a `__proto__` key as JSON.parse makes one, and ops of other kinds between them.
    const value = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.constant(undefined),
      fc.constant(-0),
      fc.array(fc.string(), { maxLength: 2 }),
      fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
      fc.constant(() => 1),
      fc.constant(new Date(0)),
    );
    const row = fc
      .tuple(
        fc.constantFrom(['id', 'name'], ['id', 'name', 'slug'], ['id', 'slug', 'name'], ['id', '__proto__']),
        fc.array(value, { minLength: 3, maxLength: 3 }),
      )
      .map(
        ([keys, vals]) =>
          JSON.parse(`{${keys.map((k, i) => `${JSON.stringify(k)}:${i === 0 ? '"x"' : '0'}`).join(',')}}`) as Row &
            Record<string, unknown>,
      )
      .chain((r) =>
        fc.array(value, { minLength: 3, maxLength: 3 }).map((vals) => {
          Object.keys(r)
            .slice(1)
            .forEach((k, i) => {
              Object.defineProperty(r, k, { value: vals[i], enumerable: true, writable: true, configurable: true });
            });
          return r;
        }),
      );
    const op: fc.Arbitrary<WriteOp> = fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .tuple(fc.constantFrom('tag', 'site'), row)
          .map(([resource, r]) => ({ op: 'create', resource, row: r }) as WriteOp),
      },
      {
        weight: 1,
        arbitrary: row.map((r) => ({ op: 'update', resource: 'tag', row: r, expectVersion: 1 }) as WriteOp),
      },
      { weight: 1, arbitrary: fc.string().map((id) => ({ op: 'delete', resource: 'tag', id }) as WriteOp) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 12 }), (batch) => {
        const scan = scanJournal(encodeRecord(batch));
        expect(scan.damage).to.equal(null);
        const back = scan.batches[0];
        expect(JSON.stringify(back)).to.equal(JSON.stringify(batch));
        expect(back.map((o) => (o.op === 'delete' ? o.id : Object.keys(o.row)))).to.deep.equal(
          JSON.parse(JSON.stringify(batch)).map((o: WriteOp) => (o.op === 'delete' ? o.id : Object.keys(o.row))),
        );
        for (const o of back) if (o.op !== 'delete') expect(Object.getPrototypeOf(o.row)).to.equal(Object.prototype);
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 300) },
    );
    // A bulk write's rows: one run, about half the bytes of the ops written one by one.
    const bulk = Array.from({ length: 100 }, (_, i): WriteOp => ({ op: 'create', resource: 'tag', row: tag(i) }));
    const rec = encodeRecord(bulk);
    expect(rec.toString()).to.include('"rows":"tag"');
    expect(rec.length).to.be.below(JSON.stringify(bulk).length * 0.6);
    expect(scanJournal(rec).batches[0]).to.deep.equal(bulk);
  });

  it('gives back text that is not ASCII exactly, in records of either format', async () => {
    const dir = tmp(),
      text = 'Zürich – 東京 𝄞 \u0000\u007f\u0080\u00ff';
    const rows = [0, 1].map((i) => ({ ...tag(i), description: `${text} ${i}` }));
    fs.writeFileSync(
      path.join(dir, 'journal.jsonl'),
      Buffer.concat([
        encodeRecord([{ op: 'create', resource: 'tag', row: rows[0] }]),
        Buffer.from(`${JSON.stringify([{ op: 'create', resource: 'tag', row: rows[1] }])}\n`),
      ]),
    );
    const s = new MemoryStorage(dir, { log: () => {} });
    await s.open();
    try {
      for (const r of rows) expect((await s.get('tag', r.id))?.description).to.equal(r.description);
    } finally {
      await s.close();
    }
  });

  it('read in chunks, a journal gives the same records and the same damage as read whole (property)', () => {
    const dir = tmp(),
      file = path.join(dir, 'journal.jsonl');
    // A generation header is good as the first record and damage anywhere else.
    const record = fc.oneof(
      fc.integer({ min: 0, max: 99 }).map((i) => encodeRecord(create(i))),
      fc.integer({ min: 0, max: 99 }).map((i) => Buffer.from(JSON.stringify(create(i)) + '\n')),
      fc.constant(Buffer.from('\n')),
      fc.integer({ min: 1, max: 5 }).map((g) => encodeHeader(g)),
    );
    const change = fc.oneof(
      fc.constant(null),
      fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })).map(([at, x]) => ({ flip: at, x })),
      fc.nat().map((cut) => ({ cut })),
    );
    fc.assert(
      fc.property(fc.array(record, { maxLength: 12 }), change, fc.integer({ min: 1, max: 300 }), (recs, ch, chunk) => {
        let buf = Buffer.concat(recs);
        if (ch && 'flip' in ch && buf.length) {
          buf = Buffer.from(buf);
          buf[ch.flip % buf.length] ^= ch.x;
        }
        if (ch && 'cut' in ch && buf.length) buf = buf.subarray(0, ch.cut % buf.length);
        fs.writeFileSync(file, buf);
        const whole = scanJournal(buf),
          batches: unknown[] = [];
        const streamed = scanJournalFile(file, (b) => batches.push(b), chunk);
        expect(batches).to.deep.equal(whole.batches);
        expect({ ...streamed, count: undefined }).to.deep.equal({
          goodEnd: whole.goodEnd,
          damage: whole.damage,
          legacy: whole.legacy,
          generation: whole.generation,
          count: undefined,
        });
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 300) },
    );
    expect(
      scanJournalFile(path.join(dir, 'none.jsonl'), () => {
        throw new Error('no record');
      }),
    ).to.deep.equal({ count: 0, goodEnd: 0, damage: null, legacy: false, generation: 0 });
  });

  it('a torn last record is dropped with a log line and kept aside; later writes go on', async () => {
    const dir = tmp();
    await storeWith(dir, 20);
    fs.appendFileSync(path.join(dir, 'journal.jsonl'), encodeRecord(create(99)).subarray(0, 30)); // a write cut short
    const log: string[] = [];
    expect(await tagNames(dir, log)).to.have.length(20);
    expect(log.join('\n')).to.contain('cut short');
    expect(fs.readdirSync(dir).some((f) => f.startsWith('journal.torn-'))).to.equal(true);
    await storeWith(dir, 3, 20);
    expect(await tagNames(dir)).to.have.length(23);
  });

  it('a damaged middle record stops the start, changes nothing, and repair keeps what precedes it', async () => {
    const dir = tmp();
    const s = new MemoryStorage(dir, { log: () => {} });
    await s.open(); // compacts: from here every record stays in the journal
    for (let i = 0; i < 20; i++) await s.apply(create(i));
    await s.close();
    const file = path.join(dir, 'journal.jsonl');
    const bytes = fs.readFileSync(file);
    const fifth = bytes.indexOf('"t4"');
    bytes[fifth + 1] = 0x58; // t4 -> X4: the checksum no longer matches
    fs.writeFileSync(file, bytes);
    const err = await tagNames(dir).then(
      () => null,
      (e: Error) => e,
    );
    expect(err).to.be.instanceOf(StorageConfigProblem);
    expect(err!.message)
      .to.contain(file)
      .and.to.match(/at byte \d+/)
      .and.to.contain('npm run journal -- repair');
    expect(fs.readFileSync(file).equals(bytes), 'nothing changed').to.equal(true);
    expect((await cli('check', dir)).code).to.equal(1);
    const fixed = await cli('repair', dir);
    expect(fixed.code, fixed.out).to.equal(0);
    expect(await tagNames(dir)).to.deep.equal(['t0', 't1', 't2', 't3']);
    const aside = fs.readdirSync(dir).find((f) => f.startsWith('journal.damaged-'))!;
    const moved = fs.readFileSync(path.join(dir, aside), 'utf8');
    expect(
      moved.startsWith('J1 ') && moved.includes('"X4"') && moved.includes('"t19"'),
      'the damaged record and the rest are kept aside',
    ).to.equal(true);
    expect((await cli('check', dir)).code).to.equal(0);
  });

  it('a snapshot of the first format (one JSON object) is read and replaced by the column one', async () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, 'snapshot.json'), JSON.stringify({ tag: [tag(0), tag(1)] }));
    expect(await tagNames(dir)).to.deep.equal(['t0', 't1']);
    expect(fs.existsSync(path.join(dir, 'snapshot.json'))).to.equal(false);
    expect(snapshotRows(dir).map((r) => r.name)).to.deep.equal(['t0', 't1']);
    await storeWith(dir, 1, 2);
    expect(await tagNames(dir)).to.deep.equal(['t0', 't1', 't2']);
    // A start with nothing to fold in reads the snapshot and writes nothing.
    const before = fs.statSync(path.join(dir, 'snapshot.bin')).mtimeMs;
    await tagNames(dir);
    expect(fs.statSync(path.join(dir, 'snapshot.bin')).mtimeMs).to.equal(before);
  });

  it(
    'a snapshot larger than a read chunk is read whole, ' + 'lines across chunk ends and blank lines included',
    async () => {
      const dir = tmp();
      const lines: string[] = [];
      for (let i = 0; i < 40_000; i++)
        lines.push(
          JSON.stringify(['tag', { ...tag(i), description: 'd'.repeat(200) }]) + (i % 9999 === 0 ? '\n\n' : '\n'),
        );
      fs.writeFileSync(path.join(dir, 'snapshot.jsonl'), lines.join(''));
      expect(fs.statSync(path.join(dir, 'snapshot.jsonl')).size).to.be.greaterThan(9 * 1024 * 1024);
      const names = await tagNames(dir);
      expect(names).to.have.length(40_000);
      expect(names[39_999]).to.equal('t39999');
    },
  );

  it(
    'a snapshot of the earlier line formats (["resource", row] per line; JSON columns) is read and rewritten ' +
      'as columns',
    async () => {
      for (const lines of [
        [0, 1, 2].map((i) => JSON.stringify(['tag', tag(i)])),
        [...snapshotLines([{ resource: 'tag', size: 3, rows: [0, 1, 2].map(tag) }])].map((l) => l.trim()),
      ]) {
        const dir = tmp();
        fs.writeFileSync(path.join(dir, 'snapshot.jsonl'), lines.map((l) => l + '\n').join(''));
        expect(await tagNames(dir)).to.deep.equal(['t0', 't1', 't2']);
        expect(fs.existsSync(path.join(dir, 'snapshot.jsonl')), 'the line snapshot is replaced').to.equal(false);
        expect(snapshotRows(dir)).to.deep.equal([0, 1, 2].map(tag));
        expect(await tagNames(dir)).to.deep.equal(['t0', 't1', 't2']);
      }
    },
  );

  it('a journal of the previous format is read and rewritten', async () => {
    const dir = tmp();
    fs.writeFileSync(
      path.join(dir, 'journal.jsonl'),
      [0, 1, 2].map((i) => JSON.stringify(create(i))).join('\n') + '\n',
    );
    expect(await tagNames(dir)).to.deep.equal(['t0', 't1', 't2']);
    await storeWith(dir, 1, 3);
    expect(scanJournal(fs.readFileSync(path.join(dir, 'journal.jsonl'))).legacy).to.equal(false);
    expect(await tagNames(dir)).to.deep.equal(['t0', 't1', 't2', 't3']);
  });
});

describe('memory:/dir under faults, through the server', function () {
  this.timeout(120000);
  const cfgFile = (dir: string) => {
    const f = path.join(dir, 'config.json');
    fs.writeFileSync(f, JSON.stringify({ tokens: [{ key: KEY, permissions: ['*'] }] }));
    return f;
  };
  const post = (url: string, i: number) =>
    fetch(`${url}/api/dcim/sites/`, {
      method: 'POST',
      headers: { Authorization: `Token ${KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `s${i}`, slug: `s${i}`, description: 'x'.repeat(200) }),
    }).then(async (r) => ({ status: r.status, body: await r.json().catch(() => null) }));

  it(
    'a journal over its file-size limit answers 507, and ' + 'every acknowledged write is there after a restart',
    async () => {
      const dir = tmp(),
        data = path.join(dir, 'data');
      const cfg = cfgFile(dir);
      // 256 KiB per file: the start fits, the sites do not.
      const child = spawn('bash', ['-c', `ulimit -f 256; exec "${process.execPath}" "${MAIN}"`], {
        env: {
          ...process.env,
          PORT: '0',
          STORAGE_URL: `memory:${data}`,
          DEMO_DATA: 'false',
          CONFIG_FILE: cfg,
          LOG_LEVEL: 'silent',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (d) => {
          out += d;
          const m = /listening on (\S+)/.exec(out);
          if (m) resolve(m[1]);
        });
        child.on('exit', (c) => reject(new Error(`exited ${c}`)));
      });
      const acked: string[] = [];
      let full: { status: number; body: { code?: string } } | null = null;
      for (let i = 0; i < 3000 && !full; i++) {
        const r = await post(url, i);
        if (r.status === 201) acked.push(`s${i}`);
        else full = r;
      }
      expect(full, 'the limit was reached').to.not.equal(null);
      expect(full!.status).to.equal(507);
      expect(full!.body.code).to.equal('insufficient_storage');
      expect((await post(url, 5000)).status, 'still full').to.equal(507);
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      const again = await startProcess(`memory:${data}`, cfg); // no limit now: room again
      try {
        const names: string[] = [];
        for (let off = 0; ; off += 1000) {
          const page = (await (
            await fetch(`${again.url}/api/dcim/sites/?limit=1000&offset=${off}`, {
              headers: { Authorization: `Token ${KEY}` },
            })
          ).json()) as { results: { name: string }[] };
          names.push(...page.results.map((s) => s.name));
          if (page.results.length < 1000) break;
        }
        expect(names.sort()).to.deep.equal([...acked].sort());
        expect((await post(again.url, 6000)).status).to.equal(201);
      } finally {
        again.child.kill('SIGTERM');
      }
    },
  );

  it(
    'a second process on the same directory is refused, ' + "naming the owner; a dead owner's lock is taken over",
    async () => {
      const dir = tmp(),
        data = path.join(dir, 'data');
      const cfg = cfgFile(dir);
      const first = await startProcess(`memory:${data}`, cfg);
      const second = await startProcess(`memory:${data}`, cfg).then(
        () => null,
        (e: Error) => e.message,
      );
      expect(second).to.contain(`in use by process ${first.child.pid}`);
      expect((await post(first.url, 1)).status).to.equal(201);
      first.child.kill('SIGKILL');
      await new Promise((r) => first.child.once('exit', r));
      const third = await startProcess(`memory:${data}`, cfg);
      try {
        const res = await fetch(`${third.url}/api/dcim/sites/?name=s1`, { headers: { Authorization: `Token ${KEY}` } });
        expect(((await res.json()) as { count: number }).count).to.equal(1);
      } finally {
        third.child.kill('SIGTERM');
      }
    },
  );
});
