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
import { SqlBuilder, type SqlText } from './sql-builder.js';

export const COUNT_TABLE = 'ref_count';
export const COUNT_DELTAS = 'ref_count_delta';

/** A reference as a count names it: rows of `resource` naming an object through `field`. */
export type CountRef = Pick<CountDef, 'resource' | 'field'>;

/** A counted reference with its key in COUNT_TABLE (`prefix.site`). */
interface CountedRef extends CountRef { readonly key: string }

const keyOf = (c: CountRef): string => `${c.resource}.${c.field}`;

/** Every reference some resource counts, once each (two counts of one reference share a row). */
export const COUNTED_REFS: readonly CountedRef[] = (() => {
  const seen = new Map<string, CountedRef>();
  for (const r of RESOURCES) for (const c of r.counts ?? []) {
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

const trigger = (m: TableModel, event: string) => `netinv_count_${m.table}_${event}`;

/** The rows' deltas as (key, ref, dn) selected from `rows` (a transition table), `sign` each. */
function deltas(d: Dialect, refs: readonly CountedRef[], rows: string, sign: 1 | -1): string[] {
  const q = d.quote;
  return refs.map((c) => `SELECT '${c.key}' AS k, ${q(c.field)} AS r, ${sign} AS dn FROM ${rows} WHERE ${q(c.field)} IS NOT NULL`);
}

/** PostgreSQL: one function and statement trigger per event, a delta per counter the statement moved. */
function postgresTriggers(d: Dialect, m: TableModel, refs: readonly CountedRef[]): string[] {
  const q = d.quote, t = q(COUNT_DELTAS);
  const events = [
    { event: 'insert', sel: deltas(d, refs, 'new_rows', 1), ref: 'NEW TABLE AS new_rows' },
    { event: 'delete', sel: deltas(d, refs, 'old_rows', -1), ref: 'OLD TABLE AS old_rows' },
    { event: 'update', sel: [...deltas(d, refs, 'new_rows', 1), ...deltas(d, refs, 'old_rows', -1)], ref: 'NEW TABLE AS new_rows OLD TABLE AS old_rows' },
  ];
  return events.flatMap(({ event, sel, ref }) => {
    const name = trigger(m, event);
    const body = `INSERT INTO ${t} (${q('counted')}, ${q('ref')}, ${q('n')}) SELECT k, r, SUM(dn) FROM (${sel.join(' UNION ALL ')}) x GROUP BY k, r HAVING SUM(dn) <> 0`;
    return [
      `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body}; RETURN NULL; END $$`,
      `DROP TRIGGER IF EXISTS ${name} ON ${q(m.table)}`,
      `CREATE TRIGGER ${name} AFTER ${event.toUpperCase()} ON ${q(m.table)} REFERENCING ${ref} FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`,
    ];
  });
}

/** MySQL: one row trigger per event; an update appends deltas only when the reference changed. */
function mysqlTriggers(d: Dialect, m: TableModel, refs: readonly CountedRef[]): string[] {
  const q = d.quote, t = q(COUNT_DELTAS);
  const bump = (c: CountedRef, row: 'NEW' | 'OLD', dn: 1 | -1) =>
    `IF ${row}.${q(c.field)} IS NOT NULL THEN INSERT INTO ${t} (${q('counted')}, ${q('ref')}, ${q('n')}) VALUES ('${c.key}', ${row}.${q(c.field)}, ${dn}); END IF;`;
  const events = [
    { event: 'insert', body: refs.map((c) => bump(c, 'NEW', 1)) },
    { event: 'delete', body: refs.map((c) => bump(c, 'OLD', -1)) },
    { event: 'update', body: refs.map((c) => `IF NOT (OLD.${q(c.field)} <=> NEW.${q(c.field)}) THEN ${bump(c, 'OLD', -1)} ${bump(c, 'NEW', 1)} END IF;`) },
  ];
  return events.flatMap(({ event, body }) => [
    `DROP TRIGGER IF EXISTS ${trigger(m, event)}`,
    `CREATE TRIGGER ${trigger(m, event)} AFTER ${event.toUpperCase()} ON ${q(m.table)} FOR EACH ROW BEGIN ${body.join(' ')} END`,
  ]);
}

/**
 * Migration: the base and delta tables, the triggers, and the counts of the rows already there
 * (each statement idempotent: counted again from the rows, after the triggers exist).
 */
export function relatedCountStatements(d: Dialect): string[] {
  const q = d.quote, pg = d.name === 'postgres';
  const key = pg ? 'varchar(64)' : 'varchar(64) CHARACTER SET ascii COLLATE ascii_bin';
  const ref = pg ? 'uuid' : 'char(36) CHARACTER SET ascii COLLATE ascii_bin';
  const engine = pg ? '' : ' ENGINE=InnoDB';
  const cols = `${q('counted')} ${key} NOT NULL, ${q('ref')} ${ref} NOT NULL, ${q('n')} bigint NOT NULL`;
  const out = [
    `CREATE TABLE IF NOT EXISTS ${q(COUNT_TABLE)} (${cols}, PRIMARY KEY (${q('counted')}, ${q('ref')}))${engine}`,
    pg
      ? `CREATE TABLE IF NOT EXISTS ${q(COUNT_DELTAS)} (${q('id')} bigserial PRIMARY KEY, ${cols})`
      : `CREATE TABLE IF NOT EXISTS ${q(COUNT_DELTAS)} (${q('id')} bigint NOT NULL AUTO_INCREMENT PRIMARY KEY, ${cols}, INDEX ix_${COUNT_DELTAS}_ref (${q('counted')}, ${q('ref')}))${engine}`,
    ...(pg ? [`CREATE INDEX IF NOT EXISTS ix_${COUNT_DELTAS}_ref ON ${q(COUNT_DELTAS)} (${q('counted')}, ${q('ref')})`] : []),
  ];
  for (const [m, refs] of byTable()) out.push(...(pg ? postgresTriggers(d, m, refs) : mysqlTriggers(d, m, refs)));
  out.push(`DELETE FROM ${q(COUNT_DELTAS)}`, `DELETE FROM ${q(COUNT_TABLE)}`);
  for (const c of COUNTED_REFS) {
    out.push(`INSERT INTO ${q(COUNT_TABLE)} (${q('counted')}, ${q('ref')}, ${q('n')}) SELECT '${c.key}', ${q(c.field)}, COUNT(*) FROM ${q(tableModel(c.resource).table)} ` +
      `WHERE ${q(c.field)} IS NOT NULL GROUP BY ${q(c.field)}`);
  }
  return out;
}

/** Resources some of whose references are counted: their writes leave deltas to fold. */
export const COUNTED_RESOURCES: ReadonlySet<string> = new Set(COUNTED_REFS.map((c) => c.resource));

const COUNTED_KEYS: ReadonlySet<string> = new Set(COUNTED_REFS.map((c) => c.key));

/** Whether counts of this reference are kept (a count the registry declares). */
export const isCounted = (c: CountRef): boolean => COUNTED_KEYS.has(keyOf(c));

/**
 * A page's counts as each dialect reads them best: rows (counted, pairs), `pairs` one or more
 * `<ref>:<n>` joined by commas, over base and deltas, to be summed per ref. PostgreSQL sends one
 * row per counted reference: 1,900 rows of three columns cost the driver more than the counting.
 * `ids` null: every counter of the keys, for the reader to keep the page's (see readsEvery).
 */
const READ_FORMS: Record<Dialect['name'], (d: Dialect, keys: readonly string[], ids: readonly string[] | null) => SqlText> = {
  // Each (key, id) pair probed in the base table's key, the deltas joined by id. With `= ANY` of
  // 1,000 ids PostgreSQL spends longer estimating the lists than reading (9 against 5.6 ms a page
  // of 1,000 sites, measured); the arrays are sent as parameters either way.
  postgres: (d, keys, ids) => {
    const q = d.quote;
    const b = new SqlBuilder(d).emit(`SELECT x.counted, string_agg(x.ref::text || ':' || x.n, ',') AS pairs FROM (`);
    if (ids) {
      b.emit(`SELECT c.${q('counted')} AS counted, c.${q('ref')} AS ref, c.${q('n')} AS n FROM unnest(`)
        .param(keys, 'text[]').emit(') AS k(key) CROSS JOIN unnest(').param(ids, 'uuid[]')
        .emit(`) AS p(id) JOIN ${q(COUNT_TABLE)} c ON c.${q('counted')} = k.key AND c.${q('ref')} = p.id UNION ALL `)
        .emit(`SELECT t.${q('counted')}, t.${q('ref')}, t.${q('n')} FROM unnest(`).param(ids, 'uuid[]')
        .emit(`) AS p(id) JOIN ${q(COUNT_DELTAS)} t ON t.${q('ref')} = p.id WHERE t.${q('counted')} = ANY(`).param(keys, 'text[]').emit(')');
    } else {
      [COUNT_TABLE, COUNT_DELTAS].forEach((t, i) => {
        b.emit(`${i ? ' UNION ALL ' : ''}SELECT ${q('counted')} AS counted, ${q('ref')} AS ref, ${q('n')} AS n FROM ${q(t)} WHERE ${q('counted')} = ANY(`).param(keys, 'text[]').emit(')');
      });
    }
    return b.emit(') x GROUP BY x.counted').build();
  },
  // One pair per row and per delta, summed by the reader: MariaDB took longer to build lists
  // (GROUP_CONCAT over summed deltas: 9.5 against 7.5 ms for 1,000 sites) than the driver saved,
  // and grouping the pairs at all cost it 4.3 against 1.2 ms for every counter of seven keys.
  mysql: (d, keys, ids) => {
    const q = d.quote;
    const b = new SqlBuilder(d);
    [COUNT_TABLE, COUNT_DELTAS].forEach((t, i) => {
      b.emit(`${i ? ' UNION ALL ' : ''}SELECT ${q('counted')} AS counted, CONCAT(${q('ref')}, ':', ${q('n')}) AS pairs FROM ${q(t)} WHERE `);
      d.inList(b, q('counted'), keys, 'text');
      if (ids) { b.emit(' AND '); d.inList(b, q('ref'), ids, 'uuid'); }
    });
    return b.build();
  },
};

/** Ids read per count statement: bounds a statement's parameters and PostgreSQL's lists. */
export const READ_CHUNK = 5000;

/** The counts of `ids` (at most READ_CHUNK lower-case UUIDs), or of every object (null), for counted references: rows (counted, pairs) as READ_FORMS says. */
export function readCounts(d: Dialect, refs: readonly CountRef[], ids: readonly string[] | null): SqlText {
  return READ_FORMS[d.name](d, refs.map(keyOf), ids);
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

const TARGETS: ReadonlyMap<string, string> = new Map(COUNTED_REFS.map((c) => [c.key, resource(c.resource).fields.find((f) => f.name === c.field)!.target!]));

/** The resource whose objects a counted reference counts (a site for `prefix.site`). */
export const countedTarget = (c: CountRef): string => TARGETS.get(keyOf(c))!;

/** Deltas folded per pass: one short transaction each. */
export const FOLD_BATCH = 5000;

/** Folding, step 1 (in a transaction): the oldest deltas no other folder holds, locked. */
export function takeDeltas(d: Dialect): SqlText {
  const q = d.quote;
  return { sql: `SELECT ${q('id')} AS id, ${q('counted')} AS counted, ${q('ref')} AS ref, ${q('n')} AS n FROM ${q(COUNT_DELTAS)} ORDER BY ${q('id')} LIMIT ${FOLD_BATCH} FOR UPDATE SKIP LOCKED`, params: [] };
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
  const sorted = [...sums.values()].filter((x) => x.n !== 0).sort((a, b) => (a.counted === b.counted ? (a.ref < b.ref ? -1 : 1) : a.counted < b.counted ? -1 : 1));
  if (!sorted.length) return null;
  const b = new SqlBuilder(d).emit(`INSERT INTO ${q(COUNT_TABLE)} (${q('counted')}, ${q('ref')}, ${q('n')}) VALUES `);
  sorted.forEach((x, i) => { b.emit(i ? ', (' : '(').param(x.counted, 'text').emit(', ').param(x.ref, 'uuid').emit(', ').param(x.n, 'bigint').emit(')'); });
  b.emit(d.name === 'postgres'
    ? ` ON CONFLICT (${q('counted')}, ${q('ref')}) DO UPDATE SET ${q('n')} = ${q(COUNT_TABLE)}.${q('n')} + excluded.${q('n')}`
    : ` ON DUPLICATE KEY UPDATE ${q('n')} = ${q('n')} + VALUES(${q('n')})`);
  return b.build();
}

/** Step 3: the folded deltas removed. */
export function dropDeltas(d: Dialect, ids: readonly (string | number)[]): SqlText {
  const b = new SqlBuilder(d).emit(`DELETE FROM ${d.quote(COUNT_DELTAS)} WHERE `);
  d.inList(b, d.quote('id'), ids, 'bigint');
  return b.build();
}
