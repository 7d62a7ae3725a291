// The statement behind Storage.coveredSpans on SQL: the children of a block in address order
// (a range of the network B-tree), folded by window functions into the rows where a gap follows
// (gaps and islands), so only run boundaries leave the database, and it stops after `limit` of them.
// A returned row is one child: its first address `lo`, `prev_hi` (the highest address the children
// before it reach, null for the first), `cur_hi` (the same with this child) and `last` (no child
// follows). Rows are those that start a run (nothing before, or a gap before) and the last child.
// Parameters are bound; only identifiers and constants are written into the text.
import type { Dialect } from './dialect.js';
import { tableModel } from './table-model.js';
import { maxLength, type AddrHex, type Family } from '../net/ip.js';

export interface CoveredSpansQuery { readonly sql: string; readonly params: readonly unknown[] }

/** The block and how much of the answer is wanted. */
export interface SpansAsk {
  readonly family: Family; readonly network: AddrHex; readonly broadcast: AddrHex; readonly length: number;
  /** Children as prefixes strictly inside (false) or as hosts inside (true: IP addresses). */
  readonly hosts: boolean;
  /** At most this many rows. */
  readonly limit: unknown;
}

/** A hex address as PostgreSQL inet text at full length. */
function inetText(family: Family, hex: AddrHex): string {
  if (family === 4) return `${[0, 2, 4, 6].map((i) => parseInt(hex.slice(i, i + 2), 16)).join('.')}/32`;
  return `${hex.match(/.{4}/g)!.join(':')}/128`;
}

/**
 * PostgreSQL: cidr / inet order is address order here (children of one block, one family), and
 * every compared value is set to full length first (inet compares the common prefix, then the length).
 */
function postgres(d: Dialect, a: SpansAsk): CoveredSpansQuery {
  const q = d.quote;
  const w = maxLength(a.family);
  const m = tableModel(a.hosts ? 'ip_address' : 'prefix');
  const col = q(a.hosts ? 'net_host' : 'net_block');
  const rows = a.hosts
    ? `SELECT ${col} AS b, ${col} AS hi FROM ${q(m.table)} WHERE ${col} >= $1::inet AND ${col} <= $2::inet ORDER BY ${col}`
    // Strictly inside: after the block itself (and its duplicates) in cidr order, up to its last address.
    : `SELECT ${col} AS b, set_masklen(broadcast(${col}), $3::int) AS hi FROM ${q(m.table)} WHERE ${col} > $1::cidr AND ${col} <= $2::cidr ORDER BY ${col}`;
  const sql = [
    'SELECT host(t.b) AS lo, host(t.prev_hi) AS prev_hi, host(greatest(t.prev_hi, t.hi)) AS cur_hi, t.nxt IS NULL AS last FROM (',
    `SELECT c.b, c.hi, max(c.hi) OVER w AS prev_hi, lead(c.b) OVER w AS nxt FROM (${rows}) c`,
    'WINDOW w AS (ORDER BY c.b ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)) t',
    // prev_hi + 1 is out of range past the family's last address: nothing can follow it there.
    'WHERE t.prev_hi IS NULL OR t.nxt IS NULL OR (t.prev_hi < $4::inet AND set_masklen(t.b, $3::int) > t.prev_hi + 1)',
    'ORDER BY t.b LIMIT $5::int',
  ].join(' ');
  const first = a.hosts ? inetText(a.family, a.network) : `${inetText(a.family, a.network).split('/')[0]}/${a.length}`;
  return { sql, params: [first, inetText(a.family, a.broadcast), w, inetText(a.family, 'f'.repeat(w / 4)), a.limit] };
}

/**
 * MySQL / MariaDB: addresses are varbinary (4 or 16 bytes), in address order byte by byte; the
 * test for a gap reads them as exact decimals (CONV works on 64 bits: IPv6 in two halves).
 */
function mysql(d: Dialect, a: SpansAsk): CoveredSpansQuery {
  const q = d.quote;
  const m = tableModel(a.hosts ? 'ip_address' : 'prefix');
  const { family, length } = m.net!;
  const num = (x: string) => (a.family === 4
    ? `CAST(CONV(HEX(${x}), 16, 10) AS DECIMAL(40, 0))`
    : `(CAST(CONV(HEX(LEFT(${x}, 8)), 16, 10) AS DECIMAL(40, 0)) * 18446744073709551616 + CAST(CONV(HEX(RIGHT(${x}, 8)), 16, 10) AS DECIMAL(40, 0)))`);
  const bytes = (hex: AddrHex) => Buffer.from(hex, 'hex');
  const rows = a.hosts
    ? `SELECT ${q('net_host')} AS lo, ${q('net_host')} AS hi, 0 AS len FROM ${q(m.table)} WHERE ${q(family)} = ? AND ${q('net_host')} >= ? AND ${q('net_host')} <= ?`
    : `SELECT ${q('net_lo')} AS lo, ${q('net_hi')} AS hi, ${q(length)} AS len FROM ${q(m.table)} WHERE ${q(family)} = ? AND ${q('net_lo')} >= ? AND ${q('net_lo')} <= ? AND (${q('net_lo')} > ? OR ${q(length)} > ?)`;
  const sql = [
    'SELECT HEX(t.lo) AS lo, HEX(t.prev_hi) AS prev_hi, HEX(IF(t.prev_hi IS NULL OR t.hi > t.prev_hi, t.hi, t.prev_hi)) AS cur_hi, t.nxt IS NULL AS `last` FROM (',
    `SELECT c.lo, c.hi, c.len, MAX(c.hi) OVER (ORDER BY c.lo, c.len ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev_hi, LEAD(c.lo) OVER (ORDER BY c.lo, c.len) AS nxt FROM (${rows}) c) t`,
    `WHERE t.prev_hi IS NULL OR t.nxt IS NULL OR ${num('t.lo')} > ${num('t.prev_hi')} + 1`,
    'ORDER BY t.lo, t.len LIMIT ?',
  ].join(' ');
  const params = a.hosts
    ? [a.family, bytes(a.network), bytes(a.broadcast), a.limit]
    : [a.family, bytes(a.network), bytes(a.broadcast), bytes(a.network), a.length, a.limit];
  return { sql, params };
}

export function coveredSpansQuery(d: Dialect, a: SpansAsk): CoveredSpansQuery {
  return d.name === 'postgres' ? postgres(d, a) : mysql(d, a);
}
