// The statements behind Storage.coveredSpans on SQL. PostgreSQL: the children of a block in address
// order (a range of the network B-tree), folded by window functions into the rows where a gap
// follows (gaps and islands), so only run boundaries leave the database, and it stops after `limit`
// of them. MySQL / MariaDB: the children in address order, a batch at a time (folded by the caller).
// Parameters are bound; only identifiers and constants are written into the text.
import type { Dialect } from '../sql/dialect.js';
import { tableModel } from '../sql/table-model.js';
import { SqlBuilder, type ParamType, type SqlText } from '../sql/sql-builder.js';
import { maxLength, type AddrHex, type Family } from '../net/ip.js';

/** The block and how much of the answer is wanted. */
export interface SpansAsk {
  readonly family: Family;
  readonly network: AddrHex;
  readonly broadcast: AddrHex;
  readonly length: number;
  /** Children as prefixes strictly inside (false) or as hosts inside (true: IP addresses). */
  readonly hosts: boolean;
  /** Only the children whose first address is this or later (inside the block, after its start). */
  readonly from?: AddrHex;
  /** At most this many rows. */
  readonly limit: unknown;
  /** PostgreSQL: fold at most this many children (the last of them then ends the answer). */
  readonly scan?: unknown;
}

/** Trailing zero bits of a hex address (its width when it is zero). */
function trailingZeroBits(hex: AddrHex): number {
  let bits = 0;
  for (let i = hex.length - 1; i >= 0; i--) {
    const d = parseInt(hex[i], 16);
    if (d !== 0) return bits + Math.log2(d & -d);
    bits += 4;
  }
  return bits;
}

/** A hex address as PostgreSQL inet text at full length. */
function inetText(family: Family, hex: AddrHex): string {
  if (family === 4) return `${[0, 2, 4, 6].map((i) => parseInt(hex.slice(i, i + 2), 16)).join('.')}/32`;
  return `${hex.match(/.{4}/g)!.join(':')}/128`;
}

/**
 * PostgreSQL. A returned row is one child: its first address `lo`, `prev_hi` (the highest address
 * the children before it reach, null for the first), `cur_hi` (the same with this child) and `last`
 * (no child follows); the rows are those that start a run (nothing before, or a gap before) and the
 * last child. cidr / inet order is address order here (children of one block, one family), and
 * every compared value is set to full length first (inet compares the common prefix, then the length).
 */
export function coveredSpansQuery(d: Dialect, a: SpansAsk): SqlText {
  const q = d.quote;
  const w = maxLength(a.family);
  const m = tableModel(a.hosts ? 'ip_address' : 'prefix');
  const col = q(a.hosts ? 'net_host' : 'net_block');
  // Strictly inside: after the block itself (and its duplicates) in cidr order, up to its last
  // address. From an address: from the first cidr value with that network (the address at the
  // length its trailing zero bits allow, so no longer block starts there).
  const after = a.from === undefined ? (a.hosts ? '>=' : '>') : '>=';
  const address = (hex: AddrHex) => inetText(a.family, hex).split('/')[0];
  const first =
    a.from !== undefined
      ? `${address(a.from)}/${a.hosts ? w : w - trailingZeroBits(a.from)}`
      : a.hosts
        ? inetText(a.family, a.network)
        : `${address(a.network)}/${a.length}`;
  // Bound in this order, each placed (and $width used twice) where the text needs it: PostgreSQL
  // numbers its parameters, and this statement is PostgreSQL's only.
  const b = new SqlBuilder(d),
    bound = (v: unknown, t: ParamType) => b.render((r) => r.param(v, t));
  const net = a.hosts ? 'inet' : 'cidr';
  const $first = bound(first, net),
    $last = bound(inetText(a.family, a.broadcast), net),
    $width = bound(w, 'int');
  const $top = bound(inetText(a.family, 'f'.repeat(w / 4)), 'inet'),
    $limit = bound(a.limit, 'int');
  const scan = a.scan === undefined ? '' : ` LIMIT ${bound(a.scan, 'int')}`;
  const rows = a.hosts
    ? `SELECT ${col} AS b, ${col} AS hi FROM ${q(m.table)} ` +
      `WHERE ${col} ${after} ${$first} AND ${col} <= ${$last} ORDER BY ${col}${scan}`
    : `SELECT ${col} AS b, set_masklen(broadcast(${col}), ${$width}) AS hi FROM ${q(m.table)} ` +
      `WHERE ${col} ${after} ${$first} AND ${col} <= ${$last} ORDER BY ${col}${scan}`;
  return b
    .emit(
      [
        'SELECT host(t.b) AS lo, host(t.prev_hi) AS prev_hi, ' +
          'host(greatest(t.prev_hi, t.hi)) AS cur_hi, t.nxt IS NULL AS last FROM (',
        `SELECT c.b, c.hi, max(c.hi) OVER w AS prev_hi, lead(c.b) OVER w AS nxt FROM (${rows}) c`,
        'WINDOW w AS (ORDER BY c.b ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)) t',
        // prev_hi + 1 is out of range past the family's last address: nothing can follow it there.
        `WHERE t.prev_hi IS NULL OR t.nxt IS NULL OR (t.prev_hi < ${$top} ` +
          `AND set_masklen(t.b, ${$width}) > t.prev_hi + 1)`,
        `ORDER BY t.b LIMIT ${$limit}`,
      ].join(' '),
    )
    .build();
}

/** The next batch of a block's children, after the one at (`lo`, `length`) when given. */
export interface ChildrenAsk extends Omit<SpansAsk, 'limit'> {
  readonly after: { readonly lo: AddrHex; readonly length: number } | null;
  readonly limit: unknown;
}

/**
 * MySQL / MariaDB: the children themselves in address order (the family-first network index),
 * a batch at a time, for the caller to fold. A window maximum is no option there: MariaDB 10.11
 * recomputes MAX over a growing frame row by row (10,000 children: 5.7 s), MySQL 9 over a frame
 * that ends before the row (1,000 children: 0.15 s). Addresses are varbinary, compared byte by byte.
 */
export function childrenBatchQuery(d: Dialect, a: ChildrenAsk): SqlText {
  const q = d.quote;
  const m = tableModel(a.hosts ? 'ip_address' : 'prefix');
  const { family, length } = m.net!;
  const bytes = (hex: AddrHex) => Buffer.from(hex, 'hex');
  const lo = q(a.hosts ? 'net_host' : 'net_lo'),
    hi = q(a.hosts ? 'net_host' : 'net_hi'),
    len = q(length);
  const b = new SqlBuilder(d)
    .emit(`SELECT ${lo} AS lo, ${hi} AS hi, ${len} AS len FROM ${q(m.table)} WHERE ${q(family)} = `)
    .param(a.family, 'integer')
    .emit(` AND ${lo} >= `)
    .param(bytes(a.from ?? a.network), 'text')
    .emit(` AND ${lo} <= `)
    .param(bytes(a.broadcast), 'text');
  // Strictly inside: not the block itself (nor a duplicate of it); past its start, nothing else is.
  if (!a.hosts && a.from === undefined)
    b.emit(` AND (${lo} > `).param(bytes(a.network), 'text').emit(` OR ${len} > `).param(a.length, 'integer').emit(')');
  // After the last child read (rows with its very key again are duplicates: the same addresses).
  if (a.after) {
    b.emit(` AND (${lo} > `)
      .param(bytes(a.after.lo), 'text')
      .emit(` OR (${lo} = `)
      .param(bytes(a.after.lo), 'text')
      .emit(` AND ${len} > `)
      .param(a.after.length, 'integer')
      .emit('))');
  }
  return b.emit(` ORDER BY ${lo}, ${len} LIMIT `).param(a.limit, 'bigint').build();
}
