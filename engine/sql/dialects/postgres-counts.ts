// PostgreSQL's forms of related counts (engine/sql/related-counts.ts): statement triggers over
// transition tables, and a page's counts read as one row per counted reference.
import type { CountForms, CountKey, CountTables, Dialect } from '../dialect.js';
import { SqlBuilder } from '../sql-builder.js';

/** What the forms spell as the dialect does. */
type Spelling = Pick<Dialect, 'quote' | 'placeholder'>;

/** The rows' deltas as (key, ref, dn) selected from `rows` (a transition table), `sign` each. */
function deltas(q: Spelling['quote'], refs: readonly CountKey[], rows: string, sign: 1 | -1): string[] {
  return refs.map(
    (c) => `SELECT '${c.key}' AS k, ${q(c.field)} AS r, ${sign} AS dn FROM ${rows} WHERE ${q(c.field)} IS NOT NULL`,
  );
}

export const postgresCounts = (d: Spelling): CountForms => ({
  /** One function and statement trigger per event, a delta per counter the statement moved. */
  triggers(
    tables: CountTables,
    table: string,
    refs: readonly CountKey[],
    trigger: (event: string) => string,
  ): string[] {
    const q = d.quote,
      t = q(tables.deltas);
    const events = [
      { event: 'insert', sel: deltas(q, refs, 'new_rows', 1), ref: 'NEW TABLE AS new_rows' },
      { event: 'delete', sel: deltas(q, refs, 'old_rows', -1), ref: 'OLD TABLE AS old_rows' },
      {
        event: 'update',
        sel: [...deltas(q, refs, 'new_rows', 1), ...deltas(q, refs, 'old_rows', -1)],
        ref: 'NEW TABLE AS new_rows OLD TABLE AS old_rows',
      },
    ];
    return events.flatMap(({ event, sel, ref }) => {
      const name = trigger(event);
      const body =
        `INSERT INTO ${t} (${q('counted')}, ${q('ref')}, ${q('n')}) ` +
        `SELECT k, r, SUM(dn) FROM (${sel.join(' UNION ALL ')}) x GROUP BY k, r HAVING SUM(dn) <> 0`;
      return [
        `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ ` +
          `BEGIN ${body}; RETURN NULL; END $$`,
        `DROP TRIGGER IF EXISTS ${name} ON ${q(table)}`,
        `CREATE TRIGGER ${name} AFTER ${event.toUpperCase()} ON ${q(table)} REFERENCING ${ref} ` +
          `FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`,
      ];
    });
  },
  // One row per counted reference: 1,900 rows of three columns cost the driver more than the
  // counting. Each (key, id) pair probed in the base table's key, the deltas joined by id. With
  // `= ANY` of 1,000 ids PostgreSQL spends longer estimating the lists than reading (9 against
  // 5.6 ms a page of 1,000 sites, measured); the arrays are sent as parameters either way.
  read(tables, keys, ids, idType) {
    const q = d.quote;
    const b = new SqlBuilder(d).emit(`SELECT x.counted, string_agg(x.ref::text || ':' || x.n, ',') AS pairs FROM (`);
    if (ids) {
      b.emit(`SELECT c.${q('counted')} AS counted, c.${q('ref')} AS ref, c.${q('n')} AS n FROM unnest(`)
        .param(keys, 'text[]')
        .emit(') AS k(key) CROSS JOIN unnest(')
        .param(ids, `${idType}[]`)
        .emit(`) AS p(id) JOIN ${q(tables.base)} c ON c.${q('counted')} = k.key AND c.${q('ref')} = p.id UNION ALL `)
        .emit(`SELECT t.${q('counted')}, t.${q('ref')}, t.${q('n')} FROM unnest(`)
        .param(ids, `${idType}[]`)
        .emit(`) AS p(id) JOIN ${q(tables.deltas)} t ON t.${q('ref')} = p.id WHERE t.${q('counted')} = ANY(`)
        .param(keys, 'text[]')
        .emit(')');
    } else {
      [tables.base, tables.deltas].forEach((t, i) => {
        b.emit(`${i ? ' UNION ALL ' : ''}SELECT ${q('counted')} AS counted, ${q('ref')} AS ref, ${q('n')} AS n `)
          .emit(`FROM ${q(t)} WHERE ${q('counted')} = ANY(`)
          .param(keys, 'text[]')
          .emit(')');
      });
    }
    return b.emit(') x GROUP BY x.counted').build();
  },
});
