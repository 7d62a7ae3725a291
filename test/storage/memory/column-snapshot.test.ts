// The column snapshot (snapshot.bin) gives back what was written: the same rows (keys in the same
// order, every column kind, IPv4 and IPv6, nulls, custom fields, tags, keys the registry does not
// declare, values kept apart from the packed form) and the same query answers, whether the store
// was just written, reopened from its journal, or reopened from the snapshot compaction wrote. A
// snapshot with any byte changed or cut short is refused, naming the file; nothing is loaded.
import { expect } from 'chai';
import fc from 'fast-check';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as N from '../../../engine/plan/nodes.js';
import type { Plan } from '../../../engine/plan/nodes.js';
import { IndexedTable } from '../../../engine/memory/indexed-table.js';
import { imageRows } from '../../../engine/memory/row-store.js';
import { resource } from '../../../engine/schema/registry.js';
import { broadcastOf, formatCidr, networkOf, parseCidr } from '../../../engine/net/ip.js';
import { deriveNetFields } from '../../../engine/schema/net-derive.js';
import { MemoryStorage } from '../../../storage/memory/memory-storage.js';
import { readColumnSnapshot, SnapshotDamage, writeColumnSnapshot } from '../../../storage/memory/column-snapshot.js';
import { scanJournal } from '../../../storage/memory/journal-format.js';
import { StorageConfigProblem, type Row, type WriteOp } from '../../../storage/types.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 150);
const STORE_RUNS = Math.max(10, Math.round(RUNS / 6));
const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-colsnap-'));
const now = '2026-01-01T00:00:00.000Z';

// --- table level: wild values, through the file format ---
const hex = (n: number) =>
  fc.array(fc.constantFrom(...'0123456789abcdef'), { minLength: n, maxLength: n }).map((a) => a.join(''));
const canonicalId = fc.tuple(hex(8), hex(4), hex(4), hex(4), hex(12)).map((p) => p.join('-'));
const idArb = fc.oneof(
  fc.constantFrom('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'),
  canonicalId,
  fc.constantFrom('00000000-0000-4000-8000-00000000000A', 'not-a-uuid', ''),
);
const v4 = fc
  .tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 32 }))
  .map(([n, len]) => `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}/${len}`);
const v6 = fc
  .tuple(
    fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 }),
    fc.integer({ min: 0, max: 128 }),
  )
  .map(([w, len]) => `${w.map((x) => x.toString(16)).join(':')}/${len}`);
const netText = fc.oneof(
  v4,
  v6,
  v4.map((t) => t.split('/')[0]),
  v6.map((t) => t.toUpperCase()),
  fc.constantFrom('010.0.0.0/8', 'x', '10.0.0.0/33', '::ffff:1.2.3.4/128'),
);
const scalar = fc.oneof(
  fc.integer(),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 3 }), scalar, { maxKeys: 3 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.array(scalar, { maxLength: 2 }), { maxKeys: 2 }),
);
const dateArb = fc.oneof(
  fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom('2026-01-01', 'later'),
  fc.constant(null),
);

/** A row as a client might have had it stored: derived fields right, wrong or missing. */
const rowArb = fc
  .record({
    id: idArb,
    prefix: fc.option(netText, { nil: undefined }),
    derived: fc.integer({ min: 0, max: 2 }),
    created: fc.option(dateArb, { nil: undefined }),
    status: fc.option(fc.constantFrom('active', 'reserved', null), { nil: undefined }),
    site: fc.option(fc.oneof(canonicalId, fc.constant(null)), { nil: undefined }),
    description: fc.option(fc.string(), { nil: undefined }),
    tags: fc.option(fc.array(canonicalId, { maxLength: 3 }), { nil: undefined }),
    custom_fields: fc.option(fc.dictionary(fc.constantFrom('n', 'owner', 'list'), anyValue, { maxKeys: 3 }), {
      nil: undefined,
    }),
    extra: fc.option(anyValue, { nil: undefined }),
  })
  .map(({ derived, ...r }) => {
    const row: Record<string, unknown> = { ...r };
    const c = typeof r.prefix === 'string' ? parseCidr(r.prefix) : null;
    if (c && derived)
      Object.assign(row, { network: derived === 2 ? 'nope' : c.network, prefix_length: c.length, family: c.family });
    for (const k of Object.keys(row)) if (row[k] === undefined) delete row[k];
    return row as Row;
  });
type Op = { op: 'put'; row: Row } | { op: 'remove'; id: string };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('put' as const), row: rowArb }),
  fc.record({ op: fc.constant('remove' as const), id: idArb }),
);

/** Writes tables to a snapshot file and reads them back into fresh tables. */
function roundTrip(tables: IndexedTable[]): Map<string, IndexedTable> {
  const file = path.join(tmp(), 'snapshot.bin');
  const parts: Buffer[] = [];
  writeColumnSnapshot(
    tables.map((t) => ({ resource: t.def.name, image: t.image() })),
    tables.length,
    (b) => parts.push(Buffer.from(b)),
  );
  fs.writeFileSync(file, Buffer.concat(parts));
  const out = new Map<string, IndexedTable>();
  readColumnSnapshot(file, (name, image) => {
    const t = new IndexedTable(resource(name));
    t.loadImage(image);
    out.set(name, t);
  });
  return out;
}

/** What JSON keeps of a row (the store keeps what a JSON request can hold). */
const asJson = (r: unknown) => JSON.parse(JSON.stringify(r)) as Row;

describe('memory column snapshot', () => {
  it(
    'a table written and read back holds the same rows, keys in the same order, in the same slot order ' + '(property)',
    () => {
      fc.assert(
        fc.property(fc.array(opArb, { maxLength: 40 }), fc.array(opArb, { maxLength: 6 }), (ops, later) => {
          const t = new IndexedTable(resource('prefix'));
          const apply = (table: IndexedTable, o: Op) => {
            if (o.op === 'remove') table.remove(o.id);
            else if (table.has(o.row.id)) table.replace(o.row);
            else table.insert(o.row);
          };
          for (const o of ops) apply(t, o);
          const back = roundTrip([t]).get('prefix')!;
          const want = [...t.all()].map(asJson),
            got = [...back.all()];
          expect(got.map((r) => JSON.stringify(r))).to.deep.equal(want.map((r) => JSON.stringify(r)));
          expect(back.size).to.equal(t.size);
          for (const r of want) expect(back.get(r.id)).to.deep.equal(r);
          // The loaded table takes writes like any other.
          for (const o of later) {
            apply(t, o);
            apply(back, o);
          }
          expect([...back.all()].map((r) => JSON.stringify(r)).sort()).to.deep.equal(
            [...t.all()].map((r) => JSON.stringify(asJson(r))).sort(),
          );
        }),
        { numRuns: RUNS },
      );
    },
  );

  it('an image whose columns the registry does not have is loaded row by row', () => {
    const t = new IndexedTable(resource('prefix'));
    t.insert({ id: '00000000-0000-4000-8000-000000000001', prefix: '10.0.0.0/8', status: 'active', created: now });
    const image = t.image();
    // As if `status` had been a date-time column when the image was written.
    const changed = {
      ...image,
      columns: image.columns.map((c) =>
        c.name === 'status' && c.kind === 'dict'
          ? {
              kind: 'date' as const,
              name: 'status',
              ms: new Float64Array(1),
              state: new Uint8Array([2]),
              other: [[0, 'active']] as const,
            }
          : c,
      ),
    };
    const back = new IndexedTable(resource('prefix'));
    back.loadImage(changed);
    expect(back.get('00000000-0000-4000-8000-000000000001')).to.deep.equal(
      t.get('00000000-0000-4000-8000-000000000001'),
    );
    expect([...imageRows(changed)]).to.deep.equal([...t.all()]);
    expect(back.netIndex!.containedIn(4, '0a000000', 8, true)).to.deep.equal([0]);
  });

  it('an id held twice in an image is refused', () => {
    const t = new IndexedTable(resource('tag'));
    t.insert({ id: '00000000-0000-4000-8000-000000000001', name: 'a' });
    t.insert({ id: '00000000-0000-4000-8000-000000000002', name: 'b' });
    const image = t.image();
    image.ids.words.copyWithin(4, 0, 4);
    expect(() => new IndexedTable(resource('tag')).loadImage(image)).to.throw(/held twice/);
  });
});

// --- store level: written, compacted, reopened ---
const SITES = [0, 1, 2].map((i) => `00000000-0000-4000-8100-00000000000${i}`);
const TAGS = [0, 1].map((i) => `00000000-0000-4000-8200-00000000000${i}`);
const pid = (i: number) => `00000000-0000-4000-8300-${String(i).padStart(12, '0')}`;
const aid = (i: number) => `00000000-0000-4000-8400-${String(i).padStart(12, '0')}`;
const v4Net = fc
  .tuple(
    fc.constantFrom(10, 192),
    fc.integer({ min: 0, max: 3 }),
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 8, max: 32 }),
  )
  .map(([a, b, c, len]) => `${a}.${b}.${c}.${(c * 7) & 255}/${len}`);
const v6Net = fc
  .tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 16, max: 128 }))
  .map(([a, b, len]) => `2001:db8:${a}:${b.toString(16)}::${b.toString(16)}/${len}`);

/** The network fields the service stores with a prefix (canonical text) or an address (as given). */
function netFields(text: string, host: boolean): Record<string, unknown> {
  if (host) return { address: text, ...deriveNetFields(text, 'host') };
  const c = parseCidr(text)!;
  return { prefix: formatCidr(c.family, c.network, c.length), ...deriveNetFields(text, 'network') };
}

interface StoreRow {
  net: string;
  status: string;
  site: number | null;
  tags: number[];
  description: string;
  cf: Record<string, unknown>;
  created: string;
  vlan: null | undefined;
}
const storeRowArb: fc.Arbitrary<StoreRow> = fc.record({
  net: fc.oneof(v4Net, v4Net, v6Net),
  status: fc.constantFrom('active', 'reserved', 'deprecated'),
  site: fc.option(fc.integer({ min: 0, max: SITES.length - 1 }), { nil: null }),
  tags: fc.subarray([0, 1]),
  description: fc.constantFrom('', 'core', 'edge link', 'CORE-2'),
  cf: fc.record(
    {
      n: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
      t: fc.constantFrom<unknown>('alpha', 'Beta', ['alpha', 'Beta']),
    },
    { requiredKeys: [] },
  ),
  created: fc.oneof(
    fc.constant(now),
    fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()),
  ),
  vlan: fc.constantFrom(undefined, null),
});

function prefixRow(i: number, r: StoreRow): Row {
  const row: Record<string, unknown> = {
    id: pid(i),
    created: r.created,
    last_updated: now,
    ...netFields(r.net, false),
    status: r.status,
    site: r.site === null ? null : SITES[r.site],
    description: r.description,
    tags: r.tags.map((t) => TAGS[t]),
    custom_fields: r.cf,
  };
  if (r.vlan !== undefined) row.vlan = r.vlan;
  return row as Row;
}
function addressRow(i: number, r: StoreRow): Row {
  return {
    id: aid(i),
    created: r.created,
    last_updated: now,
    ...netFields(r.net, true),
    status: r.status,
    description: r.description,
    tags: r.tags.map((t) => TAGS[t]),
    custom_fields: r.cf,
  } as Row;
}

const blockArb = fc.oneof(v4Net, v6Net).map((t) => parseCidr(t)!);
const netOps: N.NetOp[] = ['equal', 'contained', 'contained_or_equal', 'contains', 'contains_or_equal', 'addr_in'];
const planArb: fc.Arbitrary<Plan> = fc.oneof(
  fc.constant(N.and([])),
  fc.constantFrom('active', 'reserved').map((v) => N.cmp('status', 'string', 'eq', false, [v])),
  fc.constantFrom('core', 'link').map((v) => N.cmp('description', 'string', 'contains', true, [v])),
  fc.constant(N.isNull('site')),
  fc.constant(N.isNull('vlan')),
  fc.constantFrom(...TAGS.map((_, i) => `t${i}`)).map((t) => N.tag(t)),
  fc
    .tuple(fc.constantFrom(...netOps), blockArb)
    .map(([op, c]) =>
      N.net(
        op === 'addr_in' ? 'host' : 'network',
        op,
        c.family,
        networkOf(c.family, c.host, c.length),
        broadcastOf(c.family, c.host, c.length),
        c.length,
      ),
    ),
  fc
    .tuple(fc.constantFrom<N.CmpOp>('lt', 'eq', 'gte'), fc.integer({ min: 0, max: 5 }))
    .map(([op, v]) => N.cf('n', 'number', op, false, [v])),
  fc.constantFrom('ALPHA', 'beta').map((v) => N.cf('t', 'string', 'eq', true, [v])),
  fc
    .tuple(
      fc.constantFrom<N.CmpOp>('lt', 'gte'),
      fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }),
    )
    .map(([op, d]) => N.cmp('created', 'datetime', op, false, [d.toISOString()])),
);
const orderings = [
  [],
  [{ field: 'prefix', desc: false }],
  [{ field: 'created', desc: true }],
  [{ field: 'id', desc: true }],
] as const;

/** Everything a reader could tell apart: each table's rows in order, and answers to the plans. */
async function observe(s: MemoryStorage, plans: readonly Plan[]): Promise<unknown> {
  const rows = Object.fromEntries(
    ['site', 'tag', 'prefix', 'ip_address'].map((r) => [r, [...s.table(r).all()].map((x) => JSON.stringify(x))]),
  );
  const answers: unknown[] = [];
  for (const plan of plans)
    for (const resourceName of ['prefix', 'ip_address'])
      for (const ordering of orderings) {
        const fixed =
          resourceName === 'ip_address'
            ? (JSON.parse(
                JSON.stringify(plan)
                  .replaceAll('"prefix"', '"address"')
                  .replaceAll('"field":"network"', '"field":"host"'),
              ) as Plan)
            : plan;
        const order = ordering.map((o) =>
          resourceName === 'ip_address' && o.field === 'prefix' ? { ...o, field: 'address' } : o,
        );
        const got = await s.find(resourceName, fixed, { limit: 1e6, offset: 0, ordering: order as never });
        answers.push(got.rows.map((r) => r.id));
      }
  return { rows, answers };
}

describe('memory:/dir compacted and reopened (property)', () => {
  it('gives the same rows and the same query answers as the store that wrote them', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(storeRowArb, { maxLength: 30 }),
        fc.array(fc.tuple(fc.nat(), storeRowArb), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.array(planArb, { minLength: 1, maxLength: 5 }),
        async (raw, updates, deletes, plans) => {
          const dir = tmp();
          const s = new MemoryStorage(dir, { log: () => {} });
          await s.open();
          const ops: WriteOp[] = [
            ...SITES.map((id, i): WriteOp => ({
              op: 'create',
              resource: 'site',
              row: { id, name: `s${i}`, slug: `s${i}`, created: now, last_updated: now, status: 'active' } as Row,
            })),
            ...TAGS.map((id, i): WriteOp => ({
              op: 'create',
              resource: 'tag',
              row: { id, name: `t${i}`, slug: `t${i}`, created: now, last_updated: now } as Row,
            })),
          ];
          await s.apply(ops);
          for (const [i, r] of raw.entries())
            await s.apply([
              { op: 'create', resource: 'prefix', row: prefixRow(i, r) },
              { op: 'create', resource: 'ip_address', row: addressRow(i, r) },
            ]);
          for (const [i, r] of updates)
            if (raw.length)
              await s.apply([
                { op: 'update', resource: 'prefix', row: prefixRow(i % raw.length, r) },
                { op: 'update', resource: 'ip_address', row: addressRow(i % raw.length, r) },
              ]);
          for (const d of deletes)
            if (raw.length)
              await s.apply([
                { op: 'delete', resource: 'prefix', id: pid(d % raw.length) },
                { op: 'delete', resource: 'ip_address', id: aid(d % raw.length) },
              ]);
          const want = await observe(s, plans);
          await s.close();
          for (const source of ['journal', 'snapshot']) {
            const again = new MemoryStorage(dir, { log: () => {} });
            await again.open(); // the first compacts the journal into snapshot.bin; the second reads only that
            try {
              expect(await observe(again, plans), `reopened from the ${source}`).to.deep.equal(want);
            } finally {
              await again.close();
            }
            expect(fs.existsSync(path.join(dir, 'snapshot.bin'))).to.equal(true);
            expect(
              scanJournal(fs.readFileSync(path.join(dir, 'journal.jsonl'))).batches,
              'the journal holds only its header',
            ).to.deep.equal([]);
          }
        },
      ),
      { numRuns: STORE_RUNS },
    );
  });
});

describe('a damaged memory:/dir snapshot', () => {
  async function compacted(): Promise<string> {
    const dir = tmp();
    const s = new MemoryStorage(dir, { log: () => {} });
    await s.open();
    for (let i = 0; i < 30; i++)
      await s.apply([
        {
          op: 'create',
          resource: 'prefix',
          row: prefixRow(i, {
            net: `10.${i}.0.0/16`,
            status: 'active',
            site: null,
            tags: [],
            description: `p${i}`,
            cf: { n: i },
            created: now,
            vlan: undefined,
          }),
        },
      ]);
    await s.close();
    const again = new MemoryStorage(dir, { log: () => {} });
    await again.open(); // compacts
    await again.close();
    expect(fs.existsSync(path.join(dir, 'snapshot.bin'))).to.equal(true);
    return dir;
  }

  async function refused(dir: string): Promise<StorageConfigProblem> {
    const s = new MemoryStorage(dir, { log: () => {} });
    const err = await s.open().then(
      () => null,
      (e: Error) => e,
    );
    expect(err, 'the start is refused').to.be.instanceOf(StorageConfigProblem);
    expect(fs.existsSync(path.join(dir, 'lock')), 'the lock is let go').to.equal(false);
    return err as StorageConfigProblem;
  }

  it('is refused, naming file and byte, when any byte is changed; nothing is written', async () => {
    const dir = await compacted();
    const file = path.join(dir, 'snapshot.bin');
    const good = fs.readFileSync(file);
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: good.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, flip) => {
        const bad = Buffer.from(good);
        bad[at] ^= flip;
        fs.writeFileSync(file, bad);
        const err = await refused(dir);
        expect(err.message)
          .to.contain(file)
          .and.to.match(/damaged at byte \d+/)
          .and.to.contain('not started');
        expect(fs.readFileSync(file).equals(bad), 'nothing changed').to.equal(true);
      }),
      { numRuns: Math.min(RUNS, 100) },
    );
    fs.writeFileSync(file, good);
    const s = new MemoryStorage(dir, { log: () => {} });
    await s.open();
    expect(s.table('prefix').size).to.equal(30);
    await s.close();
  });

  it('is refused when cut short or followed by other bytes', async () => {
    const dir = await compacted();
    const file = path.join(dir, 'snapshot.bin');
    const good = fs.readFileSync(file);
    for (const cut of [0, 5, 8, 12, Math.floor(good.length / 2), good.length - 1]) {
      fs.writeFileSync(file, good.subarray(0, cut));
      expect((await refused(dir)).message).to.contain(file);
    }
    fs.writeFileSync(file, Buffer.concat([good, Buffer.from('x')]));
    expect((await refused(dir)).message).to.contain('bytes follow the end');
    expect(() => readColumnSnapshot(file, () => {})).to.throw(SnapshotDamage);
  });
});
