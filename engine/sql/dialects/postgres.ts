// PostgreSQL: `$n::type` placeholders, text in COLLATE "C" (code point order, ASCII regex classes
// as RE2), case folding through an ICU collation (JavaScript's toLowerCase), JSON as `json` (text
// kept as written: key order survives, stored definitions compare and replay byte for byte), and
// networks as cidr/inet columns: an SP-GiST inet_ops index serves containment (<<, <<=, >>, >>=),
// a B-tree serves equality, address ranges, "contains" probes and ordering.
import type { NetNode } from '../../plan/nodes.js';
import { maxLength, networkOf, parseCidr } from '../../net/ip.js';
import type { Dialect, Emit, IndexDef, NetColumn } from '../dialect.js';
import { alignedTo, inetText, isAlignedBlock, minAlignedLength, validLength } from '../net-shapes.js';
import { re2ToPostgres } from '../regex-translate.js';
import type { ParamType, SqlBuilder } from '../sql-builder.js';
import type { TableModel, ValueClass } from '../table-model.js';
import { buildDialect } from './base.js';
import { postgresCounts } from './postgres-counts.js';

export interface PostgresOptions {
  /** Collation whose lower() / ~* fold case as JavaScript does; null: the database default. */
  readonly ciCollation: string | null;
}

export const DEFAULT_POSTGRES_OPTIONS: PostgresOptions = { ciCollation: 'und-x-icu' };

const quote = (id: string): string => `"${id.replace(/"/g, '""')}"`;
const placeholder = (i: number, type: string): string => `$${i}::${type}`;
const keyList = (keys: readonly string[]): string => keys.map(quote).join(', ');

// UPDATE … RETURNING answers the value set.
const UPDATE_ANSWERS: Dialect['updateAnswers'] = {
  set: (expr) => expr,
  tail: (column) => ` RETURNING ${quote(column)} AS ${column}`,
  read: () => null,
};
const COVER_MARKS: Dialect['coverMarks'] = { freshReads: true, gateForInserts: false, rangesJoined: true };
const COUNTS = postgresCounts({ quote, placeholder });

const PARAM_TYPE: Record<ValueClass, ParamType> = {
  text: 'text',
  uuid: 'uuid',
  datetime: 'timestamptz',
  number: 'bigint',
  boolean: 'boolean',
  json: 'json',
  opaque: 'json',
};

const COLUMN_TYPE: Record<ValueClass, string> = {
  text: 'text COLLATE "C"',
  uuid: 'uuid',
  datetime: 'timestamptz(3)',
  number: 'bigint',
  boolean: 'boolean',
  json: 'json',
  opaque: 'json',
};

/** Typed network columns filled from the prefix / address text. */
function netColumns(m: TableModel): NetColumn[] {
  const cidr = (text: unknown) => (typeof text === 'string' ? parseCidr(text) : null);
  if (m.net?.kind === 'prefix')
    return [
      {
        name: 'net_block',
        sqlType: 'cidr',
        paramType: 'cidr',
        encode: (t) => {
          const c = cidr(t);
          return c && inetText(c.family, c.network, c.length);
        },
      },
    ];
  if (m.net?.kind === 'address')
    return [
      // host/length: inet operators then work on the address's block, as memory's contained/contains do.
      {
        name: 'net_block',
        sqlType: 'inet',
        paramType: 'inet',
        encode: (t) => {
          const c = cidr(t);
          return c && inetText(c.family, c.host, c.length);
        },
      },
      // host/32 (/128): inet order on full-length values is address order.
      {
        name: 'net_host',
        sqlType: 'inet',
        paramType: 'inet',
        encode: (t) => {
          const c = cidr(t);
          return c && inetText(c.family, c.host, maxLength(c.family));
        },
      },
    ];
  return [];
}

/** A SQL string literal (for DDL text run through EXECUTE; never used for user values). */
const sqlString = (s: string): string => `'${s.replace(/'/g, "''")}'`;

export function postgresDialect(opts: PostgresOptions = DEFAULT_POSTGRES_OPTIONS): Dialect {
  const ci = opts.ciCollation ? ` COLLATE ${quote(opts.ciCollation)}` : '';
  const d: Dialect = buildDialect({
    name: 'postgres',
    label: 'PostgreSQL',
    quote,
    placeholder,

    paramType: (cls) => PARAM_TYPE[cls],
    inList(b, expr, values, type) {
      if (values.length === 1) b.emit(`${expr} = `).param(values[0], type);
      else b.emit(`${expr} = ANY(`).param(values, `${type}[]`).emit(')');
    },

    lower: (expr) => `lower((${expr})${ci})`,
    textOf: (expr, cls) =>
      cls === 'uuid'
        ? `(${expr}::text COLLATE "C")`
        : `(to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') COLLATE "C")`,
    regex(b, expr, pattern, isCi) {
      if (isCi) b.emit(`(${expr})${ci} ~* `).param(re2ToPostgres(pattern), 'text');
      else b.emit(`${expr} ~ `).param(re2ToPostgres(pattern), 'text');
    },

    jsonMember(b, col, name) {
      if (name === null) b.emit(col);
      else b.emit(`(${col} -> `).param(name, 'text').emit(')');
    },
    jsonTypeIs(b, e, t) {
      b.emit('json_typeof(');
      e(b);
      b.emit(`) = '${t}'`);
    },
    jsonString(b, e) {
      b.emit('((');
      e(b);
      b.emit(` #>> '{}') COLLATE "C")`);
    },
    jsonNumber(b, e) {
      b.emit('(');
      e(b);
      b.emit(` #>> '{}')::numeric`);
    },
    jsonArrayHas(b, e, value) {
      b.emit('(');
      e(b);
      b.emit(')::jsonb @> ').param(JSON.stringify([value]), 'jsonb');
    },

    net: (b, m, alias, n) => netPredicate(d, b, m, alias, n),
    netOrder(m, alias, field) {
      const col = (c: string) => `${alias}.${quote(c)}`;
      if (m.net!.kind === 'prefix') return [col('net_block')]; // cidr order = (family, network, length)
      const f = m.byField.get(field)!.field;
      const useHost = f.netRole === 'host' || f.kind === 'address';
      return useHost ? [col('net_host'), col(m.net!.length)] : [`network(${col('net_block')})`];
    },
    netColumns,

    // PostgreSQL's defaults are exactly memory's: NULLS LAST ascending, NULLS FIRST descending.
    orderTerm: (expr, desc) => `${expr} ${desc ? 'DESC' : 'ASC'}`,

    columnType: (col) => COLUMN_TYPE[col.cls],
    analyze: (table) => `ANALYZE ${quote(table)}`,
    addColumnIfMissing: (table, column, sqlType) => [
      `ALTER TABLE ${quote(table)} ADD COLUMN IF NOT EXISTS ${quote(column)} ${sqlType}`,
    ],
    addIndexIfMissing: (table, index, columns) => [
      `CREATE INDEX IF NOT EXISTS ${quote(index)} ON ${quote(table)} (${columns.map(quote).join(', ')})`,
    ],
    // No ADD CONSTRAINT IF NOT EXISTS: the catalogue decides, in a DO block.
    addForeignKeyIfMissing: (table, constraint, column, target) => [
      `DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = ${sqlString(constraint)} AND conrelid = ${sqlString(quote(table))}::regclass) THEN ` +
        `ALTER TABLE ${quote(table)} ADD CONSTRAINT ${quote(constraint)} FOREIGN KEY (${quote(column)}) REFERENCES ${quote(target)} (${quote('id')}); END IF; END $$`,
    ],
    // Every IPv4 value sorts before '::' (inet order is family first); constants, no user text.
    familyBound: (m, alias, family) => {
      if (!m.net) return null;
      const col = m.net.kind === 'prefix' ? `${alias}.${quote('net_block')}` : `${alias}.${quote('net_host')}`;
      const v6Start = m.net.kind === 'prefix' ? `'::/0'::cidr` : `'::'::inet`;
      return `${col} ${family === 6 ? '>=' : '<'} ${v6Start}`;
    },
    // pg_trgm ships with PostgreSQL (trusted: a database owner may install it). Where it cannot be
    // installed the indexes are skipped and the lookups scan, rather than the migration failing.
    substringIndex: (table, column) => [
      `DO $$ BEGIN CREATE EXTENSION IF NOT EXISTS pg_trgm; EXCEPTION WHEN OTHERS THEN RAISE NOTICE 'pg_trgm unavailable: %', SQLERRM; END $$`,
      `DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN ` +
        `EXECUTE ${sqlString(`CREATE INDEX IF NOT EXISTS ${quote(`ix_${table}_${column}_trgm`)} ON ${quote(table)} USING gin ((${d.lower(quote(column))}) gin_trgm_ops)`)}; END IF; END $$`,
    ],
    netIndexes: postgresNetIndexes,
    indexesInTable: false,
    asciiText: (n, ordered) => `varchar(${n})${ordered ? ' COLLATE "C"' : ''}`,
    idType: COLUMN_TYPE.uuid,
    serialKey: 'bigserial PRIMARY KEY',

    insertSkipping: (keys) => [
      'INSERT INTO',
      keys ? ` ON CONFLICT (${keyList(keys)}) DO NOTHING` : ' ON CONFLICT DO NOTHING',
    ],
    upsert: (table, keys, set, value) =>
      ` ON CONFLICT (${keyList(keys)}) DO UPDATE SET ${set.map((c) => `${quote(c)} = ${value(`${quote(table)}.${quote(c)}`, `excluded.${quote(c)}`)}`).join(', ')}`,
    upsertRaising: (table, keys, column) => {
      const c = quote(column);
      return ` ON CONFLICT (${keyList(keys)}) DO UPDATE SET ${c} = excluded.${c} WHERE ${quote(table)}.${c} < excluded.${c}`;
    },
    updateAnswers: UPDATE_ANSWERS,
    notifyOnUpdate: (table, fn, channel, column) => [
      `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('${channel}', NEW.${quote(column)}::text); RETURN NEW; END $$`,
      `DROP TRIGGER IF EXISTS ${fn} ON ${quote(table)}`,
      `CREATE TRIGGER ${fn} AFTER UPDATE ON ${quote(table)} FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
    ],
    arrayRows: true,
    writesInWith: true,
    spansFoldedByDatabase: true,
    migrationsTable: (table) =>
      `CREATE TABLE IF NOT EXISTS ${quote(table)} (version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    coverMarks: COVER_MARKS,
    counts: COUNTS,
  });
  return d;
}

/**
 * Net node on a prefix (net_block cidr) or IP address (net_block inet host/len, net_host inet host/max)
 * table. Nodes whose range is a CIDR block (all the planner builds) use the inet operators the
 * indexes serve; anything else falls back to exact address-range comparisons.
 */
function netPredicate(d: Dialect, b: SqlBuilder, m: TableModel, alias: string, n: NetNode): void {
  const col = (c: string) => `${alias}.${quote(c)}`;
  // An inet operator the SP-GiST index serves, with the family as a constant in the statement:
  // the planner uses the index of that family (a partial index) only when the query names it.
  // Equivalent: an inet operator never matches across families.
  const spgist = (body: () => void) => {
    b.emit(`(${col(m.net!.family)} = ${n.family === 6 ? 6 : 4} AND `);
    body();
    b.emit(')');
  };
  const blk = col('net_block'),
    host = col('net_host');
  const f = n.family,
    M = maxLength(f);
  const isPrefix = m.net!.kind === 'prefix';
  const useHost = n.field === 'host' && !isPrefix; // a prefix's host is its network address
  const inet = (hex: string, len: number) => inetText(f, hex, len);
  switch (n.op) {
    case 'equal':
      if (!validLength(n)) {
        b.emit(d.FALSE);
        return;
      }
      if (isPrefix || useHost) {
        spgist(() => b.emit(`${blk} = `).param(inet(n.network, n.length), 'inet'));
        return;
      }
      if (!alignedTo(f, n.network, n.length)) {
        b.emit(d.FALSE);
        return;
      }
      spgist(() =>
        b
          .emit(`${blk} <<= `)
          .param(inet(n.network, n.length), 'cidr')
          .emit(` AND masklen(${blk}) = `)
          .param(n.length, 'integer'),
      );
      return;
    case 'addr_eq':
      if (useHost) {
        b.emit(`${host} = `).param(inet(n.network, M), 'inet');
        return;
      }
      if (isPrefix) {
        cidrRange(b, blk, inet(n.network, minAlignedLength(f, n.network)), inet(n.network, M));
        return;
      }
      b.emit(`CASE WHEN ${blk} >>= `)
        .param(inet(n.network, M), 'inet')
        .emit(` THEN set_masklen(network(${blk}), `)
        .param(M, 'integer')
        .emit(') = ')
        .param(inet(n.network, M), 'inet')
        .emit(` ELSE ${d.FALSE} END`);
      return;
    case 'addr_in':
      if (n.network > n.broadcast) {
        b.emit(d.FALSE);
        return;
      }
      if (useHost) {
        b.emit(`${host} BETWEEN `).param(inet(n.network, M), 'inet').emit(' AND ').param(inet(n.broadcast, M), 'inet');
        return;
      }
      // cidr values whose network lies in [n, b] are exactly those between (n, shortest) and (b, max).
      if (isPrefix) {
        cidrRange(b, blk, inet(n.network, minAlignedLength(f, n.network)), inet(n.broadcast, M));
        return;
      }
      break;
    case 'contained':
    case 'contained_or_equal':
      if (isAlignedBlock(n)) {
        spgist(() => b.emit(`${blk} ${n.op === 'contained' ? '<<' : '<<='} `).param(inet(n.network, n.length), 'cidr'));
        return;
      }
      break;
    case 'contains':
    case 'contains_or_equal': {
      if (!isAlignedBlock(n)) break;
      if (isPrefix) {
        // The prefixes containing a block are its network at each shorter length: an ordered B-tree
        // scan over these values stops after one page (SP-GiST `>>=` would fetch every match).
        const top = n.op === 'contains' ? n.length - 1 : n.length;
        if (top < 0) {
          b.emit(d.FALSE);
          return;
        }
        const probes = Array.from({ length: top + 1 }, (_, l) => inet(networkOf(f, n.network, l), l));
        b.emit(`${blk} = ANY(`).param(probes, 'cidr[]').emit(')');
        return;
      }
      spgist(() => b.emit(`${blk} ${n.op === 'contains' ? '>>' : '>>='} `).param(inet(n.network, n.length), 'cidr'));
      return;
    }
    case 'child_of':
      if (!isPrefix || !isAlignedBlock(n)) {
        b.emit(d.FALSE);
        return;
      }
      childOf(b, m.table, blk, inet(n.network, n.length), inet(n.broadcast, M), M);
      return;
  }
  genericNet(d, b, m, alias, n, useHost);
}

/**
 * The direct children of a block, found by skipping: the first block inside it (B-tree order:
 * network, then length), then the first block past that one's broadcast, and so on. One index probe
 * per child however many descendants each has; repeats of a child match through `IN`.
 */
function childOf(b: SqlBuilder, table: string, blk: string, block: string, last: string, max: number): void {
  const t = quote(table),
    nb = quote('net_block');
  const inside = (bb: SqlBuilder) => bb.emit(`k.${nb} <= `).param(last, 'cidr');
  b.emit(`${blk} IN (WITH RECURSIVE kids(b) AS ((SELECT k.${nb} FROM ${t} k WHERE k.${nb} > `)
    .param(block, 'cidr')
    .emit(' AND ');
  inside(b);
  b.emit(
    ` ORDER BY k.${nb} LIMIT 1) UNION ALL SELECT (SELECT k.${nb} FROM ${t} k WHERE k.${nb} > set_masklen(broadcast(kids.b), `,
  )
    .param(max, 'integer')
    .emit(')::cidr AND ');
  inside(b);
  b.emit(
    ` ORDER BY k.${nb} LIMIT 1) FROM kids WHERE kids.b IS NOT NULL) SELECT kids.b FROM kids WHERE kids.b IS NOT NULL)`,
  );
}

function cidrRange(b: SqlBuilder, expr: string, lo: string, hi: string): void {
  b.emit(`${expr} BETWEEN `).param(lo, 'cidr').emit(' AND ').param(hi, 'cidr');
}

/** netTest of memory spelled out on full-length addresses; CASE keeps masks of the other family away. */
function genericNet(d: Dialect, b: SqlBuilder, m: TableModel, alias: string, n: NetNode, useHost: boolean): void {
  const col = (c: string) => `${alias}.${quote(c)}`;
  const blk = col('net_block'),
    len = col(m.net!.length);
  const M = maxLength(n.family);
  const addr =
    (hex: string): Emit =>
    (bb) =>
      bb.param(inetText(n.family, hex, M), 'inet');
  const aNet: Emit = (bb) => bb.emit(`set_masklen(network(${blk})::inet, `).param(M, 'integer').emit(')');
  const aBc: Emit = (bb) => bb.emit(`set_masklen(broadcast(${blk}), `).param(M, 'integer').emit(')');
  const aX: Emit = useHost ? (bb) => bb.emit(col('net_host')) : aNet;
  const lenCmp =
    (op: string): Emit =>
    (bb) =>
      bb.emit(`${len} ${op} `).param(n.length, 'numeric');
  const seq = (...parts: (Emit | string)[]) => {
    for (const p of parts) typeof p === 'string' ? b.emit(p) : p(b);
  };
  b.emit(`CASE WHEN ${col(m.net!.family)} = `)
    .param(n.family, 'integer')
    .emit(' THEN ');
  switch (n.op) {
    case 'equal':
      seq('(', aX, ' = ', addr(n.network), ' AND ', lenCmp('='), ')');
      break;
    case 'addr_eq':
      seq(aX, ' = ', addr(n.network));
      break;
    case 'addr_in':
      seq(aX, ' BETWEEN ', addr(n.network), ' AND ', addr(n.broadcast));
      break;
    case 'contained':
    case 'contained_or_equal':
      seq(
        '(',
        lenCmp(n.op === 'contained' ? '>' : '>='),
        ' AND ',
        aNet,
        ' BETWEEN ',
        addr(n.network),
        ' AND ',
        addr(n.broadcast),
        ')',
      );
      break;
    case 'contains':
    case 'contains_or_equal':
      seq(
        '(',
        lenCmp(n.op === 'contains' ? '<' : '<='),
        ' AND ',
        aNet,
        ' <= ',
        addr(n.network),
        ' AND ',
        aBc,
        ' >= ',
        addr(n.broadcast),
        ')',
      );
      break;
  }
  b.emit(` ELSE ${d.FALSE} END`);
}

/** Index definitions of the network columns. SP-GiST one per family (see spgistPerFamilyStatements):
 * every lookup it serves names its family (netPredicate). */
function postgresNetIndexes(m: TableModel): IndexDef[] {
  if (!m.net) return [];
  const t = m.table;
  const out: IndexDef[] = ([4, 6] as const).map((f) => ({
    name: `ix_${t}_net_spgist${f}`,
    using: 'spgist',
    columns: `${quote('net_block')} inet_ops`,
    where: `${quote(m.net!.family)} = ${f}`,
  }));
  // B-trees in the API order, id last: ordered pages are read straight from the index.
  if (m.net.kind === 'prefix')
    out.push({ name: `ix_${t}_net_block`, using: 'btree', columns: `${quote('net_block')}, ${quote('id')}` });
  else
    out.push({
      name: `ix_${t}_net_host`,
      using: 'btree',
      columns: `${quote('net_host')}, ${quote(m.net.length)}, ${quote('id')}`,
    });
  return out;
}
