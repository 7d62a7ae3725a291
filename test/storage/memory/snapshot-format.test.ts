// The snapshot's column lines give back every row as it was written: same resource, same keys in
// the same order (a field whose value is undefined stays absent), same values; runs of rows with
// other fields get their own header; the previous one-object-per-line format is still read.
import { expect } from 'chai';
import fc from 'fast-check';
import {
  SnapshotReader,
  snapshotLines,
  SNAPSHOT_MARK,
  type SnapshotTable,
} from '../../../storage/memory/snapshot-format.js';
import type { Row } from '../../../storage/types.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 200);

function readBack(lines: string[]): { rows: [string, Row][]; reserved: Map<string, number> } {
  const rows: [string, Row][] = [],
    reserved = new Map<string, number>();
  const reader = new SnapshotReader({
    row: (r, row) => rows.push([r, row]),
    reserve: (r, n) => reserved.set(r, (reserved.get(r) ?? 0) + n),
  });
  for (const line of lines) reader.line(JSON.parse(line));
  return { rows, reserved };
}

const FIELDS = ['id', 'name', 'parent', 'tags', 'custom_fields', 'weird key', '__proto__'];
const value = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.string(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
  fc.boolean(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 3 }),
);
const row = fc.array(fc.tuple(fc.constantFrom(...FIELDS), value), { maxLength: 7 }).map((pairs) => {
  const r = {} as Row;
  for (const [k, v] of pairs)
    Object.defineProperty(r, k, { value: v, enumerable: true, writable: true, configurable: true });
  return r;
});
const tables = fc.uniqueArray(
  fc.tuple(fc.constantFrom('tag', 'site', 'prefix', 'region'), fc.array(row, { maxLength: 6 })),
  { selector: (t) => t[0] },
);

const defined = (r: Row) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined));

describe('memory snapshot lines', () => {
  it('read back every row with its keys in order, undefined fields absent (property)', () => {
    fc.assert(
      fc.property(tables, (ts) => {
        const input: SnapshotTable[] = ts.map(([resource, rows]) => ({ resource, size: rows.length, rows }));
        const lines = [...snapshotLines(input)].map((l) => {
          expect(l.endsWith('\n') && !l.slice(0, -1).includes('\n')).to.equal(true);
          return l.slice(0, -1);
        });
        expect(lines[0]).to.equal(SNAPSHOT_MARK);
        const { rows, reserved } = readBack(lines);
        const expected = ts.flatMap(([resource, rs]) => rs.map((r) => [resource, defined(r)] as [string, Row]));
        expect(rows.map(([r]) => r)).to.deep.equal(expected.map(([r]) => r));
        rows.forEach(([, got], i) => {
          expect(Object.keys(got)).to.deep.equal(Object.keys(expected[i][1]));
          expect(Object.getPrototypeOf(got)).to.equal(Object.prototype);
          expect(got).to.deep.equal(expected[i][1]);
        });
        for (const [resource, rs] of ts) if (rs.length) expect(reserved.get(resource)).to.equal(rs.length);
      }),
      { numRuns: RUNS },
    );
  });

  it('write one header per run of rows with the same fields', () => {
    const rows: Row[] = [
      { id: 'a', name: 'x' } as Row,
      { id: 'b', name: 'y' } as Row,
      { id: 'c' } as Row,
      { id: 'd', name: undefined } as Row,
    ];
    const lines = [...snapshotLines([{ resource: 'tag', size: 4, rows }])].map((l) => l.trim());
    expect(lines).to.deep.equal([
      SNAPSHOT_MARK,
      '{"resource":"tag","fields":["id","name"],"rows":4}',
      '["a","x"]',
      '["b","y"]',
      '{"resource":"tag","fields":["id"],"rows":2}',
      '["c"]',
      '["d"]',
    ]);
  });

  it('read the previous format (one ["resource", row] line per row)', () => {
    const { rows, reserved } = readBack([
      JSON.stringify(['tag', { id: 'a', name: 'x' }]),
      JSON.stringify(['site', { id: 'b' }]),
    ]);
    expect(rows).to.deep.equal([
      ['tag', { id: 'a', name: 'x' }],
      ['site', { id: 'b' }],
    ]);
    expect(reserved.size).to.equal(0);
    expect(SnapshotReader.isPrevious('["tag",{"id":')).to.equal(true);
    expect(SnapshotReader.isPrevious(SNAPSHOT_MARK + '\n{"resource"')).to.equal(false);
  });

  it('refuse a row before any header', () => {
    expect(() => readBack([SNAPSHOT_MARK, '["a"]'])).to.throw(/before any header/);
  });
});
