// Related counts on SQL stores (NetBox's `prefix_count`, `device_count`, ...), read in O(page) and not
// by counting every referencing row (90,000 prefixes for 100 sites). Triggers in the writing
// transaction append deltas (`prefix.site`, <site id>, +1) to COUNT_DELTAS: appends take no lock
// on a shared row, so writes that touch the same counters in other orders never wait on each other
// (upserting one counter row per object deadlocked two bulk writes, measured). A count is the
// folded base row in COUNT_TABLE plus the deltas not folded yet; `foldCounts` moves deltas into
// the base now and then, in key order, taking only deltas no one else is folding. Triggers see
// every write: the API's, bulk loads, copies. PostgreSQL's run per statement over its transition
// tables; MySQL has only row triggers. Only identifiers and constants are written into the text.
import { RESOURCES, resource } from '../schema/registry.js';
import type { CountDef } from '../schema/types.js';
import type { Dialect } from './dialect.js';
import { tableModel, type TableModel } from './table-model.js';
import { SqlBuilder, type ParamType, type SqlText } from './sql-builder.js';
import { idParam, idRefType, integerSpace } from './id-columns.js';

export const COUNT_TABLE = 'ref_count';
export const COUNT_DELTAS = 'ref_count_delta';

/** A reference as a count names it: rows of `resource` naming an object through `field`. */
export type CountRef = Pick<CountDef, 'resource' | 'field'>;

/** A counted reference with its key in COUNT_TABLE (`prefix.site`). */
interface CountedRef extends CountRef {
  readonly key: string;
}

const keyOf = (c: CountRef): string => `${c.resource}.${c.field}`;

/** Every reference some resource counts, once each (two counts of one reference share a row). */
export const COUNTED_REFS: readonly CountedRef[] = (() => {
  const seen = new Map<string, CountedRef>();
  for (const r of RESOURCES)
    for (const c of r.counts ?? []) {
      const key = keyOf(c);
      if (!seen.has(key)) seen.set(key, { key, resource: c.resource, field: c.field });
    }
  return [...seen.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
})();

/** The counted references by the table whose rows hold them. */
function byTable(): Map<TableModel, CountedRef[]> {
  const out = new Map<TableModel, CountedRef[]>();
  for (const c of COUNTED_REFS) {
    const m = tableModel(c.resource);
    out.set(m, [...(out.get(m) ?? []), c]);
  }
  return out;
}

/**
 * One `ref` column holds the ids of every counted target: they must share a style in the store (the
 * counted targets are inventory resources, integer in an integer store). Any of them stands for all.
 */
function countedSpace(d: Dialect): string {
  const targets = COUNTED_REFS.map((c) => tableModel(c.resource).byField.get(c.field)!.idSpace!);
  if (new Set(targets.map((t) => integerSpace(d, t))).size > 1)
    throw new Error('related counts: the counted targets mix id styles; ref_count.ref holds one');
  return targets[0];
}

const countRefParam = (d: Dialect): ParamType => idParam(d, countedSpace(d));

const trigger = (m: TableModel) => (event: string) => `netinv_count_${m.table}_${event}`;

const TABLES = { base: COUNT_TABLE, deltas: COUNT_DELTAS } as const;

/**
 * Migration: the base and delta tables, the triggers, and the counts of the rows already there
 * (each statement idempotent: counted again from the rows, after the triggers exist).
 */
export function relatedCountStatements(d: Dialect): string[] {
  const q = d.quote;
  const cols =
    `${q('counted')} ${d.asciiText(64, false)} NOT NULL, ${q('ref')} ${idRefType(d, countedSpace(d))} NOT NULL, ` +
    `${q('n')} bigint NOT NULL`;
  const index = `ix_${COUNT_DELTAS}_ref`,
    indexed = `${q('counted')}, ${q('ref')}`;
  const out = [
    `CREATE TABLE IF NOT EXISTS ${q(COUNT_TABLE)} (${cols}, ` +
      `PRIMARY KEY (${q('counted')}, ${q('ref')}))${d.tableOptions}`,
    ...(d.indexesInTable
      ? [
          `CREATE TABLE IF NOT EXISTS ${q(COUNT_DELTAS)} (${q('id')} ${d.serialKey}, ${cols}, ` +
            `INDEX ${index} (${indexed}))${d.tableOptions}`,
        ]
      : [
          `CREATE TABLE IF NOT EXISTS ${q(COUNT_DELTAS)} (${q('id')} ${d.serialKey}, ${cols})${d.tableOptions}`,
          `CREATE INDEX IF NOT EXISTS ${index} ON ${q(COUNT_DELTAS)} (${indexed})`,
        ]),
  ];
  for (const [m, refs] of byTable()) out.push(...d.counts.triggers(TABLES, m.table, refs, trigger(m)));
  out.push(`DELETE FROM ${q(COUNT_DELTAS)}`, `DELETE FROM ${q(COUNT_TABLE)}`);
  for (const c of COUNTED_REFS) {
    out.push(
      `INSERT INTO ${q(COUNT_TABLE)} (${q('counted')}, ${q('ref')}, ${q('n')}) ` +
        `SELECT '${c.key}', ${q(c.field)}, COUNT(*) ` +
        `FROM ${q(tableModel(c.resource).table)} ` +
        `WHERE ${q(c.field)} IS NOT NULL GROUP BY ${q(c.field)}`,
    );
  }
  return out;
}

/** Resources some of whose references are counted: their writes leave deltas to fold. */
export const COUNTED_RESOURCES: ReadonlySet<string> = new Set(COUNTED_REFS.map((c) => c.resource));

const COUNTED_KEYS: ReadonlySet<string> = new Set(COUNTED_REFS.map((c) => c.key));

/** Whether counts of this reference are kept (a count the registry declares). */
export const isCounted = (c: CountRef): boolean => COUNTED_KEYS.has(keyOf(c));

/** Ids read per count statement: bounds a statement's parameters and PostgreSQL's lists. */
export const READ_CHUNK = 5000;

/**
 * The counts of `ids` (at most READ_CHUNK lower-case UUIDs), or of every object (null), for counted
 * references, as each dialect reads them best (Dialect.counts): rows (counted, pairs), `pairs` one or
 * more `<ref>:<n>` joined by commas, over base and deltas, to be summed per ref. `ids` null: every
 * counter of the keys, for the reader to keep the page's (see readsEvery).
 */
export function readCounts(d: Dialect, refs: readonly CountRef[], ids: readonly string[] | null): SqlText {
  return d.counts.read(TABLES, refs.map(keyOf), ids, countRefParam(d));
}

/** Below this many ids a list of them is cheap on every database: no total is looked up. */
export const EVERY_FROM = 200;

/**
 * Whether a page of `asked` objects out of `total` reads every counter of its keys instead of the
 * counters of its ids. Each key holds at most one counter per object, so when the page is at
 * least half of them the key ranges read at most twice the rows, and the database is spared the
 * list: MariaDB spent 6 to 10 ms of CPU on 1,000 ids against 1 ms for every counter of the keys.
 * A whole list fetched page by page (what automation does) is such a case.
 */
export const readsEvery = (asked: number, total: number): boolean => asked >= EVERY_FROM && 2 * asked >= total;

const TARGETS: ReadonlyMap<string, string> = new Map(
  COUNTED_REFS.map((c) => [c.key, resource(c.resource).fields.find((f) => f.name === c.field)!.target!]),
);

/** The resource whose objects a counted reference counts (a site for `prefix.site`). */
export const countedTarget = (c: CountRef): string => TARGETS.get(keyOf(c))!;

/** Deltas folded per pass: one short transaction each. */
export const FOLD_BATCH = 5000;

/** Folding, step 1 (in a transaction): the oldest deltas no other folder holds, locked. */
export function takeDeltas(d: Dialect): SqlText {
  const q = d.quote;
  return {
    sql:
      `SELECT ${q('id')} AS id, ${q('counted')} AS counted, ${q('ref')} AS ref, ${q('n')} AS n ` +
      `FROM ${q(COUNT_DELTAS)} ` +
      `ORDER BY ${q('id')} LIMIT ${FOLD_BATCH} FOR UPDATE SKIP LOCKED`,
    params: [],
  };
}

/**
 * Step 2: the taken deltas summed per counter and added to their base rows, in key order (folders
 * never wait on each other in a cycle); null when they sum to nothing.
 */
export function addToBase(d: Dialect, taken: readonly Record<string, unknown>[]): SqlText | null {
  const q = d.quote;
  const sums = new Map<string, { counted: string; ref: string; n: number }>();
  for (const r of taken) {
    const k = `${r.counted} ${r.ref}`;
    const x = sums.get(k) ?? { counted: String(r.counted), ref: String(r.ref), n: 0 };
    x.n += Number(r.n);
    sums.set(k, x);
  }
  const sorted = [...sums.values()]
    .filter((x) => x.n !== 0)
    .sort((a, b) => (a.counted === b.counted ? (a.ref < b.ref ? -1 : 1) : a.counted < b.counted ? -1 : 1));
  if (!sorted.length) return null;
  const b = new SqlBuilder(d).emit(`INSERT INTO ${q(COUNT_TABLE)} (${q('counted')}, ${q('ref')}, ${q('n')}) VALUES `);
  sorted.forEach((x, i) => {
    b.emit(i ? ', (' : '(')
      .param(x.counted, 'text')
      .emit(', ')
      .param(x.ref, countRefParam(d))
      .emit(', ')
      .param(x.n, 'bigint')
      .emit(')');
  });
  b.emit(d.upsert(COUNT_TABLE, ['counted', 'ref'], ['n'], (stored, given) => `${stored} + ${given}`));
  return b.build();
}

/** Step 3: the folded deltas removed. */
export function dropDeltas(d: Dialect, ids: readonly (string | number)[]): SqlText {
  const b = new SqlBuilder(d).emit(`DELETE FROM ${d.quote(COUNT_DELTAS)} WHERE `);
  d.inList(b, d.quote('id'), ids, 'bigint');
  return b.build();
}
