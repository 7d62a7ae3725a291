// Cover marks (storage/sql/allocation/cover-mark-upkeep.ts) on PostgreSQL, MariaDB and MySQL 9: no block's mark ever
// passes a free address of the block, whatever creates, deletes and moves did, also when two
// connections write the children of one parent at once (checked against a plain computation from
// the rows); creates in address order (the allocation benchmark's load) and a gap filled later move
// the parent's mark to the end of the run; the free space read from the mark equals a plain scan's.
// Databases: TEST_POSTGRES_URL, TEST_MYSQL_URL (MariaDB), TEST_MYSQL9_URL.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import {
  blockKey,
  blockOfCidr,
  blocksInside,
  byAddress,
  keyBlock,
  markValue,
  sweep,
  type MarkBlock,
} from '../../../../engine/allocation/cover-mark-math.js';
import { bigOf, gaps, hexOf, knownPart, spanOf } from '../../../../engine/allocation/free-space.js';
import { formatCidr, formatV4, parseCidr } from '../../../../engine/net/ip.js';
import { mulberry32 } from '../../../../engine/random/mulberry32.js';
import { deriveNetFields } from '../../../../engine/schema/net-derive.js';
import { COVER_TABLE } from '../../../../engine/allocation/sql-cover-marks.js';
import { SqlStorage } from '../../../../storage/sql/sql-storage.js';
import type { SqlDriver } from '../../../../storage/sql/driver.js';
import type { NetBlock, Row, WriteOp } from '../../../../storage/types.js';
import { BACKENDS, sqlDriver } from '../../../e2e/conformance/backends.js';
import { prefixRow as newPrefixRow } from '../../../../bench/prefix-rows.js';

const NOW = new Date().toISOString();
const prefixRow = (prefix: string): Row => newPrefixRow(prefix, NOW);
const moved = (row: Row, prefix: string): Row => ({ ...row, prefix, ...deriveNetFields(prefix, 'network') });
const create = (prefix: string): WriteOp => ({ op: 'create', resource: 'prefix', row: prefixRow(prefix) });
const v4 = (base: number, i: number, length: number) => `${formatV4(base + i * 2 ** (32 - length))}/${length}`;
const netBlock = (text: string): NetBlock => {
  const c = parseCidr(text)!;
  return { family: c.family, network: c.network, broadcast: c.broadcast, length: c.length };
};
const A10 = 10 * 2 ** 24;

/** Every mark against the first free address of its block, computed from the prefix rows. */
async function checkMarks(driver: SqlDriver, quote: (s: string) => string, what: string): Promise<number> {
  const blocks = (await driver.query(`SELECT ${quote('prefix')} AS prefix FROM ${quote('prefix')}`)).rows.map((r) =>
    blockOfCidr(r.prefix)!,
  );
  const byFamily = {
    4: byAddress(blocks.filter((b) => b.family === 4)),
    6: byAddress(blocks.filter((b) => b.family === 6)),
  };
  const marks = (
    await driver.query(`SELECT ${quote('block')} AS block, ${quote('mark')} AS mark FROM ${quote(COVER_TABLE)}`)
  ).rows;
  let ahead = 0;
  for (const r of marks) {
    const a = keyBlock(String(r.block));
    const free = sweep(a.lo, blocksInside(byFamily[a.family], a));
    const mark = markValue(String(r.mark));
    expect(
      mark <= free,
      `${what}: mark of ${r.block} at ${mark.toString(16)} is past the free address ${free.toString(16)}`,
    ).to.equal(true);
    expect(mark >= a.lo, `${what}: mark of ${r.block} before its block`).to.equal(true);
    if (mark > a.lo) ahead++;
  }
  return ahead;
}

/** A stored mark (null: no row). */
async function markOf(driver: SqlDriver, quote: (s: string) => string, prefix: string): Promise<bigint | null> {
  const key = blockKey(blockOfCidr(prefix)!);
  const r = (
    await driver.query(`SELECT ${quote('mark')} AS mark FROM ${quote(COVER_TABLE)} WHERE ${quote('block')} = '${key}'`)
  ).rows[0];
  return r ? markValue(String(r.mark)) : null;
}

/** coveredSpans of the block (from its mark) against a plain scan of the rows, whole and cut short. */
async function checkSpans(storage: SqlStorage, rows: readonly MarkBlock[], text: string): Promise<void> {
  const b = netBlock(text),
    a = blockOfCidr(text)!;
  const all = spanOf(b.family, { network: a.lo, length: a.length });
  const expected = byAddress(
    rows.filter((x) => x.family === a.family && x.length > a.length && x.lo >= a.lo && x.hi <= a.hi),
  ).map((x) => ({ lo: x.lo, hi: x.hi }));
  for (const max of [1, 3, 100000]) {
    const got = await storage.coveredSpans('prefix', b, max);
    const { within, used } = knownPart(all, got);
    expect([...gaps(within, used)], `${text}, at most ${max} spans`).to.deep.equal([...gaps(within, expected)]);
  }
}

for (const backend of BACKENDS.filter((b) => b.name !== 'memory')) {
  describe(`cover marks on ${backend.name}`, function () {
    this.timeout(300000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    let storage: SqlStorage;
    let raw: SqlDriver;
    let quote: (s: string) => string;
    const driverFor = (url: string) => sqlDriver(backend, url);

    before(async function () {
      db = await backend.url();
      if (!db) {
        this.skip();
        return;
      }
      storage = new SqlStorage(driverFor(db.url));
      await storage.open();
      raw = driverFor(db.url);
      quote = (await raw.connect()).quote;
    });
    beforeEach(async () => {
      await storage?.truncateAll();
    });
    after(async () => {
      await storage?.close();
      await raw?.close();
      await db?.drop();
    });

    const rowsNow = async () =>
      (await raw.query(`SELECT ${quote('prefix')} AS prefix FROM ${quote('prefix')}`)).rows.map((r) =>
        blockOfCidr(r.prefix)!,
      );

    it(
      'creates in address order move the parent mark along; ' + 'a gap filled later carries it past what follows',
      async () => {
        await storage.apply([create('10.0.0.0/8')]);
        expect(await markOf(raw, quote, '10.0.0.0/8')).to.equal(BigInt(A10));
        const batch: WriteOp[] = [];
        for (let i = 0; i < 2000; i++) batch.push(create(v4(A10, i, 26)));
        await storage.apply(batch);
        expect(await markOf(raw, quote, '10.0.0.0/8')).to.equal(BigInt(A10 + 2000 * 64));
        for (let i = 2000; i < 2010; i++) await storage.apply([create(v4(A10, i, 26))]);
        expect(await markOf(raw, quote, '10.0.0.0/8')).to.equal(BigInt(A10 + 2010 * 64));
        // Children past a gap, then the gap filled from its end backwards: the last fill walks on.
        await storage.apply([create(v4(A10, 2100, 26)), create(v4(A10, 2101, 26))]);
        for (let i = 2099; i >= 2011; i--) await storage.apply([create(v4(A10, i, 26))]);
        expect(await markOf(raw, quote, '10.0.0.0/8')).to.equal(BigInt(A10 + 2010 * 64));
        await storage.apply([create(v4(A10, 2010, 26))]);
        expect(await markOf(raw, quote, '10.0.0.0/8')).to.equal(BigInt(A10 + 2102 * 64));
        // A /24 over the run's end and a duplicate of the parent: both inside or equal, marks stay true.
        await storage.apply([create('10.0.0.0/8'), create(v4(A10, 2102 / 4 + 1, 24))]);
        expect(await checkMarks(raw, quote, 'in order')).to.be.greaterThan(0);
        await checkSpans(storage, await rowsNow(), '10.0.0.0/8');
        const hint = await storage.allocationHint('prefix', netBlock('10.0.0.0/8'), 24);
        expect(hint.nextAt).to.equal(hexOf(4, BigInt(A10 + 2102 * 64)));
      },
    );

    it(
      'a prefix made over existing children starts at its start; the first read of its free space raises the ' + 'mark',
      async () => {
        const batch: WriteOp[] = [];
        for (let i = 0; i < 300; i++) batch.push(create(v4(A10, i, 28)));
        await storage.apply(batch);
        await storage.apply([create('10.0.0.0/16')]);
        expect(await markOf(raw, quote, '10.0.0.0/16')).to.equal(BigInt(A10));
        await checkSpans(storage, await rowsNow(), '10.0.0.0/16');
        expect(await markOf(raw, quote, '10.0.0.0/16')).to.equal(BigInt(A10 + 300 * 16));
        // A block with no row at all (a database from before the marks): the read makes one.
        await raw.query(`DELETE FROM ${quote(COVER_TABLE)}`);
        await checkSpans(storage, await rowsNow(), '10.0.0.0/16');
        expect(await markOf(raw, quote, '10.0.0.0/16')).to.equal(BigInt(A10 + 300 * 16));
        await checkMarks(raw, quote, 'raised by reads');
      },
    );

    it(
      'random creates, deletes and moves (single and in batches) never leave a mark past a free address; ' +
        'reads from the marks equal a plain scan',
      async () => {
        const r = mulberry32(17);
        const base = A10 + 5 * 2 ** 16;
        const parents = ['10.5.0.0/16', '10.5.0.0/20', '10.5.16.0/20', '10.5.0.0/22'];
        const live = new Map<string, Row>();
        const some = () => [...live.values()][Math.floor(r() * live.size)];
        const place = () => {
          const len = [22, 24, 24, 26, 26, 26, 28][Math.floor(r() * 7)];
          return v4(base, Math.floor(r() * 2 ** (len - 18)), len);
        };
        await storage.apply(parents.map(create));
        for (let step = 0; step < 400; step++) {
          const k = r();
          const ops: WriteOp[] = [];
          if (k < 0.45 || live.size < 5) {
            for (let n = 1 + (r() < 0.2 ? Math.floor(r() * 6) : 0); n > 0; n--) {
              const op = create(place()) as Extract<WriteOp, { op: 'create' }>;
              ops.push(op);
            }
          } else if (k < 0.75) {
            const row = some();
            ops.push({ op: 'delete', resource: 'prefix', id: row.id });
          } else {
            const row = some();
            ops.push({ op: 'update', resource: 'prefix', row: moved(row, place()) });
          }
          await storage.apply(ops);
          for (const op of ops) {
            if (op.op === 'delete') live.delete(op.id);
            else live.set(op.row.id, op.row);
          }
          await checkMarks(raw, quote, `step ${step}`);
          if (step % 20 === 0) {
            const rows = await rowsNow();
            for (const p of parents) await checkSpans(storage, rows, p);
            await checkMarks(raw, quote, `step ${step}, after reads`);
          }
        }
      },
    );

    it(
      'two connections creating, deleting and moving children of one parent at once never leave a mark past a ' +
        'free address',
      async () => {
        const other = new SqlStorage(driverFor(db!.url));
        await other.open();
        const base = A10 + 7 * 2 ** 16;
        const parent = '10.7.0.0/16';
        try {
          await storage.apply([create(parent), create('10.7.0.0/18')]);
          const slots = 192; // /26s over the first three /20s: dense, so writes meet at the mark
          const worker = async (s: SqlStorage, seed: number, live: Map<string, Row>, errors: string[]) => {
            const r = mulberry32(seed);
            for (let n = 0; n < 60; n++) {
              const k = r();
              const place = () =>
                r() < 0.1 ? v4(base, Math.floor(r() * (slots / 4)), 24) : v4(base, Math.floor(r() * slots), 26);
              const ops: WriteOp[] = [];
              const own = [...live.values()];
              if (k < 0.5 || own.length < 3) for (let m = r() < 0.3 ? 3 : 1; m > 0; m--) ops.push(create(place()));
              else if (k < 0.8)
                ops.push({ op: 'delete', resource: 'prefix', id: own[Math.floor(r() * own.length)].id });
              else
                ops.push({ op: 'update', resource: 'prefix', row: moved(own[Math.floor(r() * own.length)], place()) });
              try {
                await s.apply(ops);
                for (const op of ops) {
                  if (op.op === 'delete') live.delete(op.id);
                  else live.set(op.row.id, op.row);
                }
              } catch (e) {
                errors.push(String((e as Error).message));
              }
              if (r() < 0.1) await s.coveredSpans('prefix', netBlock(parent), 64); // a read that may raise the mark
            }
          };
          const lives = [new Map<string, Row>(), new Map<string, Row>()];
          let advanced = 0;
          for (let round = 0; round < 8; round++) {
            const errors: string[] = [];
            await Promise.all([
              worker(storage, 100 + round, lives[0], errors),
              worker(other, 200 + round, lives[1], errors),
            ]);
            expect(errors, `round ${round}`).to.deep.equal([]);
            advanced += await checkMarks(raw, quote, `round ${round}`);
          }
          expect(advanced, 'marks that moved at all').to.be.greaterThan(0);
        } finally {
          await other.close();
        }
      },
    );

    it(
      'a create that walks the mark over the children while another connection deletes or moves one of them: ' +
        'the mark stops before it',
      async () => {
        const other = new SqlStorage(driverFor(db!.url));
        await other.open();
        const base = A10 + 9 * 2 ** 16,
          parent = '10.9.0.0/16',
          n = 300;
        const r = mulberry32(23);
        const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));
        try {
          const kids: Row[] = [];
          for (let i = 1; i <= n; i++) kids.push(prefixRow(v4(base, i, 26)));
          await storage.apply([
            create(parent),
            ...kids.map((row): WriteOp => ({ op: 'create', resource: 'prefix', row })),
          ]);
          let walkedPast = 0;
          for (let round = 0; round < 40; round++) {
            // The mark sits at slot 0 (empty); a create there walks on over the n children.
            const first = prefixRow(v4(base, 0, 26));
            const k = 1 + Math.floor(r() * n);
            const victim = kids[k - 1];
            const move = r() < 0.3;
            const delay = r() * 4;
            await Promise.all([
              storage.apply([{ op: 'create', resource: 'prefix', row: first }]),
              sleep(delay).then(() =>
                other.apply([
                  move
                    ? { op: 'update', resource: 'prefix', row: moved(victim, v4(base, 4000 + round, 26)) }
                    : { op: 'delete', resource: 'prefix', id: victim.id },
                ]),
              ),
            ]);
            await checkMarks(raw, quote, `round ${round}`);
            const mark = (await markOf(raw, quote, parent))!;
            if (mark > BigInt(base + 64)) walkedPast++;
            // Back as it was: the child again at slot k, slot 0 empty.
            const back = prefixRow(v4(base, k, 26));
            kids[k - 1] = back;
            await storage.apply([
              move
                ? { op: 'delete', resource: 'prefix', id: victim.id }
                : { op: 'create', resource: 'prefix', row: back },
              ...(move ? [{ op: 'create', resource: 'prefix', row: back } as WriteOp] : []),
              { op: 'delete', resource: 'prefix', id: first.id },
            ]);
            expect(await markOf(raw, quote, parent), `round ${round}: reset`).to.equal(BigInt(base));
          }
          expect(walkedPast, 'rounds whose create walked on').to.be.greaterThan(0);
        } finally {
          await other.close();
        }
      },
    );
  });
}
