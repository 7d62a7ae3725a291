// A `memory:/dir` start on a journal (#34 item 5): runs of creates are stored from their columns
// with no object per row, and give the very rows the writes made; a server's start leaves the
// sorting of its indexes and the compaction until it listens: reads are answered while the
// snapshot is written, writes wait for it, and a stop at any point loses nothing acknowledged.
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MemoryStorage } from '../../../storage/memory/memory-storage.js';
import { setCompactionHook } from '../../../storage/memory/journal.js';
import { journalGeneration, scanJournal } from '../../../storage/memory/journal-format.js';
import { readColumnSnapshot } from '../../../storage/memory/column-snapshot.js';
import { RESOURCES } from '../../../engine/schema/registry.js';
import type { Row, WriteOp } from '../../../storage/types.js';

const now = '2026-01-01T00:00:00.000Z';
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-journal-start-'));
const id = (kind: number, i: number) => `00000000-0000-4000-8${kind}00-${String(i).padStart(12, '0')}`;
const tag = (i: number): Row => ({
  id: id(0, i),
  created: now,
  last_updated: now,
  name: `t${i}`,
  slug: `t${i}`,
  color: '9e9e9e',
  description: '',
  version: 1,
});

/** A prefix as a bulk write gives it; `odd` varies what the network column keeps apart. */
function prefix(i: number, odd = 0): Row {
  const v6 = i % 3 === 0;
  const text = v6 ? `2001:db8:${(i % 65536).toString(16)}::/48` : `10.${(i >> 8) & 255}.${i & 255}.0/24`;
  const row: Row = {
    id: id(7, i),
    created: now,
    last_updated: now,
    prefix: text,
    status: i % 2 ? 'active' : 'reserved',
    site: null,
    vlan: null,
    description: i % 5 ? '' : `p${i}`,
    tags: i % 4 ? [] : [tag(1).id],
    custom_fields: i % 7 ? {} : { owner: `team-${i % 3}` },
    network: text.slice(0, text.indexOf('/')),
    broadcast: v6
      ? `2001:db8:${(i % 65536).toString(16)}:ffff:ffff:ffff:ffff:ffff`
      : `10.${(i >> 8) & 255}.${i & 255}.255`,
    prefix_length: v6 ? 48 : 24,
    family: v6 ? 6 : 4,
    version: 1,
  };
  // A text with host bits set, derived fields that are not the column's own, a key the registry does not declare.
  if (odd === 1) {
    row.prefix = `10.9.${i & 255}.7/24`;
    row.network = '10.9.0.0';
  }
  if (odd === 2) row.broadcast = 'not-an-address';
  if (odd === 3) row.extra_key = { n: i };
  return row;
}

const creates = (rows: Row[]): WriteOp[] => rows.map((row) => ({ op: 'create', resource: 'prefix', row }));

/** Every table's rows as JSON, in slot order and key order: what a store holds, exactly. */
function image(s: MemoryStorage): string[] {
  return RESOURCES.map((r) => JSON.stringify([...s.table(r.name).all()]));
}

async function opened(dir: string, deferred = false, log: string[] = []): Promise<MemoryStorage> {
  const s = new MemoryStorage(dir, { log: (m) => log.push(m) });
  if (deferred) s.deferStartWork();
  await s.open();
  return s;
}

/** Writes runs of creates (each batch one record, by columns), deletes between them and an update. */
async function writeRuns(s: MemoryStorage): Promise<void> {
  await s.apply([
    { op: 'create', resource: 'tag', row: tag(1) },
    { op: 'create', resource: 'tag', row: tag(2) },
  ]);
  for (let odd = 0; odd < 4; odd++)
    await s.apply(creates(Array.from({ length: 40 }, (_, k) => prefix(odd * 100 + k, odd))));
  await s.apply([3, 17, 105, 230].map((i) => ({ op: 'delete', resource: 'prefix', id: id(7, i) }) as WriteOp));
  // Into the slots the deletes freed; then a run that mixes with other ops in one batch.
  await s.apply(creates(Array.from({ length: 10 }, (_, k) => prefix(500 + k))));
  await s.apply([
    { op: 'update', resource: 'prefix', row: { ...prefix(4), description: 'changed', version: 2 } },
    ...creates([prefix(600), prefix(601)]),
    { op: 'create', resource: 'tag', row: tag(3) },
  ]);
}

/** A store directory whose journal holds writeRuns' batches, and the image of the rows they made. */
async function journalOfRuns(): Promise<{ dir: string; want: ReturnType<typeof image> }> {
  const dir = tmp();
  const writer = await opened(dir);
  await writeRuns(writer);
  const want = image(writer);
  await writer.close();
  return { dir, want };
}

describe('memory:/dir start on a journal', function () {
  this.timeout(60000);

  it(
    'runs of creates replay to the very rows the writes made (slot and key order, network fields kept apart, ' +
      'undeclared keys)',
    async () => {
      const { dir, want } = await journalOfRuns();
      const records = scanJournal(fs.readFileSync(path.join(dir, 'journal.jsonl'))).batches.length;
      expect(fs.readFileSync(path.join(dir, 'journal.jsonl'), 'latin1')).to.contain('{"rows":"prefix"');
      for (const from of ['journal', 'snapshot']) {
        const s = await opened(dir);
        try {
          expect(image(s), `read from the ${from}`).to.deep.equal(want);
        } finally {
          await s.close();
        }
      }
      expect(records).to.equal(8);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  );

  it(
    'a deferred start serves from the journal; afterListening() answers reads while it writes the snapshot, ' +
      'and writes wait for it',
    async () => {
      const { dir, want } = await journalOfRuns();
      const journalBytes = fs.statSync(path.join(dir, 'journal.jsonl')).size;

      const s = await opened(dir, true);
      let finished = false,
        wroteAfter: boolean | null = null,
        readWhileWriting: Row | null = null;
      let partial: () => void = () => {};
      const writing = new Promise<void>((resolve) => {
        partial = resolve;
      });
      const was = setCompactionHook((step) => {
        if (step === 'snapshot-partial') partial();
      });
      try {
        // Open, nothing compacted yet: the journal as it was, no snapshot.
        expect(image(s)).to.deep.equal(want);
        expect(fs.existsSync(path.join(dir, 'snapshot.bin'))).to.equal(false);
        expect(fs.statSync(path.join(dir, 'journal.jsonl')).size).to.equal(journalBytes);
        const done = s.afterListening().then(() => {
          finished = true;
        });
        await writing; // the snapshot's first bytes are written, the rest not yet
        readWhileWriting = await s.get('prefix', id(7, 4));
        expect(finished, 'a read is answered while the snapshot is written').to.equal(false);
        const write = s.apply([{ op: 'create', resource: 'tag', row: tag(9) }]).then(() => {
          wroteAfter = finished;
        });
        await Promise.all([done, write]);
      } finally {
        setCompactionHook(was);
      }
      expect(readWhileWriting!.description).to.equal('changed');
      expect(wroteAfter, 'the write was made after the compaction').to.equal(true);
      // The write is in the journal that follows the new snapshot.
      const journal = path.join(dir, 'journal.jsonl');
      expect(journalGeneration(journal)).to.equal(readColumnSnapshot(path.join(dir, 'snapshot.bin'), () => {}).journal);
      expect(scanJournal(fs.readFileSync(journal)).batches).to.have.length(1);
      const after = image(s);
      // Stopped without closing (as kill -9 would): the next start has everything.
      const again = await opened(dir);
      try {
        expect(image(again)).to.deep.equal(after);
      } finally {
        await again.close();
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  );

  it(
    "a write made before afterListening() (a start's own, " + 'as its admin token) is in the snapshot it writes',
    async () => {
      const dir = tmp();
      const writer = await opened(dir);
      await writeRuns(writer);
      await writer.close();
      const s = await opened(dir, true);
      await s.apply([{ op: 'create', resource: 'tag', row: tag(8) }]);
      await s.afterListening();
      const after = image(s);
      await s.close();
      expect(scanJournal(fs.readFileSync(path.join(dir, 'journal.jsonl'))).batches).to.have.length(0);
      const again = await opened(dir);
      try {
        expect(image(again)).to.deep.equal(after);
      } finally {
        await again.close();
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  );
});
