// The column store gives back exactly the rows it was given, whatever their values: canonical ids,
// dates and networks are packed, anything else is kept as given. Random writes against a Map.
import { expect } from 'chai';
import fc from 'fast-check';
import { IndexedTable, type Row } from '../../../engine/memory/indexed-table.js';
import { DictColumn } from '../../../engine/memory/columns/dict-column.js';
import { isoMillis } from '../../../engine/memory/columns/date-column.js';
import { netOrderKey } from '../../support/net-order-key.js';
import { resource } from '../../../engine/schema/registry.js';
import { broadcastOf, formatAddress, formatCidr, networkOf, parseCidr } from '../../../engine/net/ip.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 150);

const hex = (n: number) =>
  fc.array(fc.constantFrom(...'0123456789abcdef'), { minLength: n, maxLength: n }).map((a) => a.join(''));
const canonicalId = fc.tuple(hex(8), hex(4), hex(4), hex(4), hex(12)).map((p) => p.join('-'));
// Few distinct ids so that writes hit existing rows; some not canonical (upper case, other text).
const idArb = fc.oneof(
  fc.constantFrom(
    '00000000-0000-4000-8000-000000000001',
    '00000000-0000-4000-8000-000000000002',
    'ffffffff-ffff-4fff-bfff-ffffffffffff',
  ),
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
// Texts as a client may send them: with host bits, zero-padded, upper case, no length, not a network.
const prefixText = fc.oneof(
  v4,
  v6,
  v4.map((t) => t.split('/')[0]),
  v6.map((t) => t.toUpperCase()),
  fc.constantFrom(
    '010.0.0.0/8',
    '10.0.0.0/08',
    '10.0.0.0/008',
    '10.0.0.0/0',
    'x',
    '10.0.0.0/33',
    '::ffff:1.2.3.4/128',
    '0::0/0',
  ),
);

/** The derived fields the service adds; sometimes missing, sometimes not matching the text. */
function derived(text: unknown, mode: number): Record<string, unknown> {
  const c = typeof text === 'string' ? parseCidr(text) : null;
  if (!c || mode === 0) return {};
  const d: Record<string, unknown> = {
    network: formatAddress({ family: c.family, hex: networkOf(c.family, c.host, c.length) }),
    broadcast: formatAddress({ family: c.family, hex: broadcastOf(c.family, c.host, c.length) }),
    prefix_length: c.length,
    family: c.family,
  };
  if (mode === 2) d.prefix_length = c.length + 1;
  if (mode === 3) delete d.broadcast;
  return d;
}

// Scalars as lists and objects hold them, with the ones a Map or JSON would merge or rewrite.
const scalar = fc.oneof(
  fc.integer(),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(-0, 0, NaN, Infinity, '0', 'null'),
  fc.double(),
);
// Keys an object may have that a plain object treats apart: integer-like (ordered first), __proto__.
const objectKey = fc.oneof(
  fc.string({ maxLength: 3 }),
  fc.constantFrom('1', '01', '__proto__', 'constructor', 'toString'),
);
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.array(scalar, { maxLength: 3 }),
  fc.array(fc.array(scalar, { maxLength: 2 }), { maxLength: 2 }),
  fc.dictionary(objectKey, scalar, { maxKeys: 3 }),
  fc.dictionary(objectKey, fc.array(scalar, { maxLength: 2 }), { maxKeys: 2 }),
);
const dateArb = fc.oneof(
  fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom('2026-01-01T00:00:00Z', '2026-01-01', 'later'),
  fc.constant(null),
);

const rowArb = fc
  .record({
    id: idArb,
    prefix: fc.option(prefixText, { nil: undefined }),
    derivedMode: fc.integer({ min: 0, max: 3 }),
    created: fc.option(dateArb, { nil: undefined }),
    status: fc.option(fc.constantFrom('active', 'reserved', null), { nil: undefined }),
    site: fc.option(fc.oneof(canonicalId, fc.constant(null)), { nil: undefined }),
    description: fc.option(fc.string(), { nil: undefined }),
    tags: fc.option(fc.array(canonicalId, { maxLength: 3 }), { nil: undefined }),
    custom_fields: fc.option(fc.dictionary(fc.constantFrom('n', 'owner', 'list'), anyValue, { maxKeys: 3 }), {
      nil: undefined,
    }),
    version: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
    extra: fc.option(anyValue, { nil: undefined }),
  })
  .map(({ derivedMode, ...r }) => {
    const row: Record<string, unknown> = { ...r, ...derived(r.prefix, derivedMode) };
    for (const k of Object.keys(row)) if (row[k] === undefined) delete row[k];
    return row as Row;
  });

const opArb = fc.oneof(
  fc.record({ op: fc.constant('put' as const), row: rowArb }),
  fc.record({ op: fc.constant('remove' as const), id: idArb }),
);

describe('memory row store', () => {
  it('gives back every row as written, after inserts, replacements and removals', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
        const t = new IndexedTable(resource('prefix'));
        const model = new Map<string, Row>();
        for (const o of ops) {
          if (o.op === 'put') {
            if (model.has(o.row.id)) t.replace(o.row);
            else t.insert(o.row);
            model.set(o.row.id, o.row);
          } else {
            expect(t.remove(o.id)).to.deep.equal(model.get(o.id));
            model.delete(o.id);
          }
        }
        if (ops.length % 3 === 0) t.flushIndexes();
        expect(t.size).to.equal(model.size);
        for (const [id, row] of model) {
          expect(t.get(id)).to.deep.equal(row);
          const s = t.slotOf(id)!;
          expect(t.idOf(s)).to.equal(id);
          for (const k of Object.keys(row)) expect(t.value(s, k)).to.deep.equal(row[k]);
          expect(t.value(s, 'absent_key')).to.equal(undefined);
        }
        expect([...t.all()].map((r) => r.id).sort()).to.deep.equal([...model.keys()].sort());
      }),
      { numRuns: RUNS },
    );
  });

  it('orders networks on their words as the (family, address, length) texts order', () => {
    fc.assert(
      fc.property(fc.array(fc.option(prefixText, { nil: undefined }), { minLength: 2, maxLength: 12 }), (texts) => {
        const t = new IndexedTable(resource('prefix'));
        const slots = texts.map((prefix, i) => {
          t.insert({
            id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
            ...(prefix === undefined ? {} : { prefix }),
          });
          return i;
        });
        const sign = (x: number) => Math.sign(x);
        for (const host of [false, true])
          for (const a of slots)
            for (const b of slots) {
              const ka = netOrderKey(t, a, host),
                kb = netOrderKey(t, b, host);
              const want = ka === kb ? 0 : ka === null ? 1 : kb === null ? -1 : ka < kb ? -1 : 1;
              expect(sign(t.compareNetworks(a, b, host)), `${texts[a]} ${texts[b]} host=${host}`).to.equal(want);
            }
      }),
      { numRuns: RUNS },
    );
  });

  it('a reader made before any row has its key reads the key once rows have it', () => {
    const t = new IndexedTable(resource('prefix'));
    const read = t.reader('extra');
    t.insert({ id: '00000000-0000-4000-8000-000000000001', extra: 'x' });
    expect(read(t.slotOf('00000000-0000-4000-8000-000000000001')!)).to.equal('x');
  });

  it('orders ids as text does', () => {
    fc.assert(
      fc.property(fc.uniqueArray(idArb, { minLength: 2, maxLength: 8 }), (ids) => {
        const t = new IndexedTable(resource('site'));
        for (const id of ids) t.insert({ id, name: id });
        const slots = ids.map((id) => t.slotOf(id)!);
        const byStore = [...slots].sort((a, b) => t.compareIds(a, b)).map((s) => t.idOf(s));
        expect(byStore).to.deep.equal([...ids].sort());
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps its own copy: changing a row after writing it changes nothing stored', () => {
    const t = new IndexedTable(resource('prefix'));
    const row = {
      id: '00000000-0000-4000-8000-000000000001',
      prefix: '10.0.0.0/8',
      tags: ['00000000-0000-4000-8000-0000000000aa'],
      custom_fields: { owner: 'a' },
    };
    t.insert(row);
    row.tags.push('x');
    row.custom_fields.owner = 'b';
    expect(t.get(row.id)).to.deep.include({
      tags: ['00000000-0000-4000-8000-0000000000aa'],
      custom_fields: { owner: 'a' },
    });
  });

  it('hands out copies: changing a row read from it changes nothing stored', () => {
    const t = new IndexedTable(resource('prefix'));
    const id = '00000000-0000-4000-8000-000000000001';
    t.insert({
      id,
      prefix: '10.0.0.0/8',
      tags: ['00000000-0000-4000-8000-0000000000aa'],
      custom_fields: { owner: 'a' },
    });
    const r = t.get(id)!;
    (r.tags as string[]).push('x');
    (r.custom_fields as Record<string, unknown>).owner = 'b';
    expect(t.get(id)).to.deep.include({
      tags: ['00000000-0000-4000-8000-0000000000aa'],
      custom_fields: { owner: 'a' },
    });
  });

  it('finds every id after many inserts and removals (ids from a counter, runs in the id table)', () => {
    const t = new IndexedTable(resource('tag'));
    const id = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
    for (let i = 0; i < 30000; i++) t.insert({ id: id(i), name: `t${i}`, slug: `t${i}` });
    for (let i = 0; i < 30000; i += 3) t.remove(id(i));
    for (let i = 30000; i < 40000; i++) t.insert({ id: id(i), name: `t${i}`, slug: `t${i}` });
    let found = 0;
    for (let i = 0; i < 45000; i++) {
      const s = t.slotOf(id(i));
      const present = i < 40000 && (i >= 30000 || i % 3 !== 0);
      expect(s !== undefined, id(i)).to.equal(present);
      if (present) {
        expect(t.idOf(s!)).to.equal(id(i));
        found++;
      }
    }
    expect(found).to.equal(t.size);
  });

  it('keeps network text and derived fields when they are not what it would write itself', () => {
    const t = new IndexedTable(resource('prefix'));
    const rows: Row[] = [
      {
        id: '00000000-0000-4000-8000-000000000001',
        prefix: '10.1.2.3/8',
        network: '10.0.0.0',
        broadcast: '10.255.255.255',
        prefix_length: 8,
        family: 4,
      },
      {
        id: '00000000-0000-4000-8000-000000000002',
        prefix: '2001:DB8::/32',
        network: '2001:db8::',
        broadcast: '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff',
        prefix_length: 32,
        family: 6,
      },
      { id: '00000000-0000-4000-8000-000000000003', prefix: formatCidr(4, '0a000000', 8), network: 'wrong' },
      {
        id: '00000000-0000-4000-8000-000000000004',
        prefix: '10.0.0.0/8',
        network: '10.0.0.0',
        broadcast: '010.255.255.255',
        prefix_length: 8,
        family: 4,
      },
      {
        id: '00000000-0000-4000-8000-000000000005',
        prefix: '10.0.0.0/08',
        network: '10.0.0.0',
        broadcast: '10.255.255.255',
        prefix_length: 8,
        family: 4,
      },
    ];
    for (const r of rows) t.insert(r);
    for (const r of rows) expect(t.get(r.id)).to.deep.equal(r);
    expect(() => t.insert({ id: rows[0].id, prefix: '10.0.0.0/8' })).to.throw(/duplicate id/);
    expect(() => t.insert({ id: 'not-a-uuid' })).to.not.throw();
    expect(() => t.insert({ id: 'not-a-uuid' })).to.throw(/duplicate id/);
    expect(t.size).to.equal(rows.length + 1);
  });

  it('gives lists and objects back exactly when their parts outnumber the codes a column has', () => {
    const c = new DictColumn();
    // Values a Map key or JSON would merge: 0 and -0, NaN, key order.
    const values: unknown[] = [
      [0],
      [-0],
      { z: 0 },
      { z: -0 },
      [NaN],
      { a: 1, b: 2 },
      { b: 2, a: 1 },
      ['1', 1, true, 'true', null, 'null'],
    ];
    // 70,000 distinct strings inside lists use up the part codes; later lists mix known and new parts.
    const first = values.length;
    for (let i = 0; i < 70000; i++) values.push([`v${i}`]);
    for (let i = 0; i < 2000; i++)
      values.push([`v${i}`, `w${i}`], { k: `v${i}` }, { [`k${i}`]: i }, [`v${i}`], [-0], { z: -0 });
    c.resize(values.length);
    values.forEach((v, s) => c.set(s, v));
    values.forEach((v, s) => expect(c.get(s), `slot ${s}`).to.deep.equal(v));
    expect(Object.keys(c.get(6) as object)).to.deep.equal(['b', 'a']);
    // Equal values read back equal and distinct ones apart, before and after a value's last row goes.
    c.clear(first);
    expect(c.get(first + 1)).to.deep.equal(['v1']);
    c.set(first, ['v0']);
    expect(c.get(first)).to.deep.equal(['v0']);
  });

  it('keeps objects that rarely repeat unshared, each an exact copy of its own, empty ones still shared', () => {
    const c = new DictColumn();
    // A change record's object_data: nested, new on every row (past the judging the column stops keying them).
    const given = (i: number) => ({
      id: `r${i}`,
      n: i,
      z: -0,
      tags: [`t${i % 3}`],
      cf: { a: [i], ['__proto__']: i } as Record<string, unknown>,
      at: new Date(i),
    });
    const n = 3000;
    c.resize(n + 2);
    const inputs = Array.from({ length: n }, (_, i) => JSON.parse(JSON.stringify(given(i))) as Record<string, unknown>);
    inputs.forEach((v, s) => c.set(s, v));
    c.set(n, {});
    c.set(n + 1, {});
    inputs.forEach((v, s) => expect(c.get(s), `slot ${s}`).to.deep.equal(v));
    expect(Object.getPrototypeOf((c.get(5) as { cf: object }).cf)).to.equal(Object.prototype);
    expect(Object.keys((c.get(5) as { cf: object }).cf)).to.deep.equal(['a', '__proto__']);
    // The caller's object changed afterwards: the column's copy is not.
    (inputs[2000].tags as string[]).push('x');
    expect((c.get(2000) as { tags: string[] }).tags).to.deep.equal(['t2']);
    expect(c.get(n)).to.equal(c.get(n + 1));
    const d = given(2999);
    c.set(2999, d);
    expect(c.get(2999)).to.deep.equal(d);
    expect(c.get(2999)).to.not.equal(d);
    expect((c.get(2999) as { at: Date }).at).to.be.instanceOf(Date);
    // A slot cleared and set again, and the image of the column, give the same values.
    c.clear(10);
    c.set(10, { again: true });
    expect(c.get(10)).to.deep.equal({ again: true });
    const live = Int32Array.from({ length: n + 2 }, (_, i) => i);
    const copy = new DictColumn();
    copy.load(c.image('x', live), n + 2);
    for (let s = 0; s < n + 2; s++) expect(copy.get(s), `slot ${s}`).to.deep.equal(c.get(s));
  });

  it('keeps scalars that rarely repeat unshared: every value read back, repeats and cleared slots included', () => {
    const c = new DictColumn();
    // Descriptions of a bulk import: new on nearly every row, a few repeated, runs of one value.
    const n = 5000;
    const given = (i: number): unknown =>
      i % 97 === 0 ? '' : i % 101 === 0 ? 7 : i % 89 === 0 ? null : i % 5 === 4 ? `bulk ${i - 1}` : `bulk ${i}`;
    c.resize(n + 1);
    for (let s = 0; s < n; s++) c.set(s, given(s));
    for (let s = 0; s < n; s++) expect(c.get(s), `slot ${s}`).to.equal(given(s));
    c.set(n, -0);
    expect(Object.is(c.get(n), -0)).to.equal(true);
    for (let s = 0; s < n; s += 3) c.clear(s);
    for (let s = 0; s < n; s += 6) c.set(s, `again ${s}`);
    const want = (s: number) => (s % 6 === 0 ? `again ${s}` : s % 3 === 0 ? undefined : given(s));
    for (let s = 0; s < n; s++) expect(c.get(s), `slot ${s}`).to.equal(want(s));
    const live = Int32Array.from({ length: n }, (_, i) => i);
    const copy = new DictColumn();
    copy.load(c.image('x', live), n);
    for (let s = 0; s < n; s++) expect(copy.get(s), `slot ${s}`).to.equal(want(s));
  });

  it('keeps an id that is not a canonical UUID as given, whichever char is off', () => {
    const t = new IndexedTable(resource('tag'));
    const good = '0123abcd-4567-89ef-8abc-def012345678';
    const ids = new Set<string>();
    for (let i = 0; i < good.length; i++)
      for (const c of ['g', 'A', 'F', '-', '0', '/', ':', '`', 'é', '\ud83d', '\u0130', '\uff10'])
        if (c !== good[i]) ids.add(good.slice(0, i) + c + good.slice(i + 1));
    ids.add(good);
    for (const id of ids) t.insert({ id, name: id, slug: id });
    for (const id of ids) {
      const s = t.slotOf(id);
      expect(s, id).to.not.equal(undefined);
      expect(t.idOf(s!)).to.equal(id);
      expect(t.get(id)!.id).to.equal(id);
    }
    expect(t.size).to.equal(ids.size);
  });

  it('reads a date-time text field by field exactly when Date would read it and format it back the same', () => {
    const reference = (t: string): number | null => {
      const ms = Date.parse(t);
      return !Number.isNaN(ms) && new Date(ms).toISOString() === t ? ms : null;
    };
    // Any instant of years 0000-9999, and texts one char off (a digit changed, a separator swapped).
    const instant = fc
      .integer({ min: Date.UTC(0, 0, 1) - 1900 * 365.2425 * 864e5, max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) })
      .map((ms) => new Date(ms).toISOString());
    const mutated = fc
      .tuple(instant, fc.nat({ max: 23 }), fc.constantFrom(...'0123456789-T:.Z+ 5'))
      .map(([t, i, c]) => t.slice(0, i) + c + t.slice(i + 1));
    fc.assert(
      fc.property(
        fc.oneof(
          instant,
          mutated,
          fc.constantFrom(
            '2024-02-29T00:00:00.000Z',
            '2026-02-29T00:00:00.000Z',
            '1900-02-29T12:00:00.000Z',
            '2000-02-29T12:00:00.000Z',
            '0000-01-01T00:00:00.000Z',
            '2026-01-01T24:00:00.000Z',
          ),
        ),
        (t) => {
          expect(isoMillis(t), t).to.equal(reference(t));
        },
      ),
      { numRuns: RUNS * 20 },
    );
  });
});
