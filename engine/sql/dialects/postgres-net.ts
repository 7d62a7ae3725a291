// PostgreSQL's networks: cidr/inet columns filled from the CIDR text, the net node's predicate (an
// SP-GiST inet_ops index serves containment, a B-tree equality, address ranges, "contains" probes and
// ordering), and the indexes.
import type { NetNode, NetOp } from '../../plan/nodes.js';
import { maxLength, networkOf, parseCidr } from '../../net/ip.js';
import type { Dialect, Emit, IndexDef, NetColumn } from '../dialect.js';
import { alignedTo, inetText, isAlignedBlock, minAlignedLength, validLength } from '../net-shapes.js';
import type { SqlBuilder } from '../sql-builder.js';
import type { TableModel } from '../table-model.js';
import { quote } from './postgres-quoting.js';

/** Typed network columns filled from the prefix / address text. */
export function netColumns(m: TableModel): NetColumn[] {
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

/** ORDER BY expressions for an address-like field. */
export function netOrder(m: TableModel, alias: string, field: string): readonly string[] {
  const col = (c: string) => `${alias}.${quote(c)}`;
  if (m.net!.kind === 'prefix') return [col('net_block')]; // cidr order = (family, network, length)
  const f = m.byField.get(field)!.field;
  const useHost = f.netRole === 'host' || f.kind === 'address';
  return useHost ? [col('net_host'), col(m.net!.length)] : [`network(${col('net_block')})`];
}

/** What the forms of one net node share. */
interface NetCase {
  readonly d: Dialect;
  readonly b: SqlBuilder;
  readonly m: TableModel;
  readonly n: NetNode;
  readonly blk: string;
  readonly host: string;
  /** The family's full length. */
  readonly M: number;
  readonly isPrefix: boolean;
  /** The node is on an address's host (a prefix's host is its network address). */
  readonly useHost: boolean;
  inet(hex: string, len: number): string;
  /**
   * An inet operator the SP-GiST index serves, with the family as a constant in the statement: the
   * planner uses the index of that family (a partial index) only when the query names it.
   * Equivalent: an inet operator never matches across families.
   */
  spgist(body: () => void): void;
}

/** The form of each op the indexes serve; false when the node has none (genericNet spells it out). */
const NET_FORMS: Record<NetOp, (x: NetCase) => boolean> = {
  equal: equalForm,
  addr_eq: addrEqForm,
  addr_in: addrInForm,
  contained: containedForm,
  contained_or_equal: containedForm,
  contains: containsForm,
  contains_or_equal: containsForm,
  child_of: childOfForm,
};

/**
 * Net node on a prefix (net_block cidr) or IP address (net_block inet host/len, net_host inet host/max)
 * table. Nodes whose range is a CIDR block (all the planner builds) use the inet operators the
 * indexes serve; anything else falls back to exact address-range comparisons.
 */
export function netPredicate(d: Dialect, b: SqlBuilder, m: TableModel, alias: string, n: NetNode): void {
  const col = (c: string) => `${alias}.${quote(c)}`;
  const isPrefix = m.net!.kind === 'prefix';
  const x: NetCase = {
    d,
    b,
    m,
    n,
    blk: col('net_block'),
    host: col('net_host'),
    M: maxLength(n.family),
    isPrefix,
    useHost: n.field === 'host' && !isPrefix,
    inet: (hex, len) => inetText(n.family, hex, len),
    spgist: (body) => {
      b.emit(`(${col(m.net!.family)} = ${n.family === 6 ? 6 : 4} AND `);
      body();
      b.emit(')');
    },
  };
  if (!NET_FORMS[n.op](x)) genericNet(d, b, m, alias, n, x.useHost);
}

function equalForm({ d, b, n, blk, isPrefix, useHost, inet, spgist }: NetCase): boolean {
  if (!validLength(n)) {
    b.emit(d.FALSE);
    return true;
  }
  if (isPrefix || useHost) {
    spgist(() => b.emit(`${blk} = `).param(inet(n.network, n.length), 'inet'));
    return true;
  }
  if (!alignedTo(n.family, n.network, n.length)) {
    b.emit(d.FALSE);
    return true;
  }
  spgist(() =>
    b
      .emit(`${blk} <<= `)
      .param(inet(n.network, n.length), 'cidr')
      .emit(` AND masklen(${blk}) = `)
      .param(n.length, 'integer'),
  );
  return true;
}

function addrEqForm({ d, b, n, blk, host, M, isPrefix, useHost, inet }: NetCase): boolean {
  if (useHost) {
    b.emit(`${host} = `).param(inet(n.network, M), 'inet');
    return true;
  }
  if (isPrefix) {
    cidrRange(b, blk, inet(n.network, minAlignedLength(n.family, n.network)), inet(n.network, M));
    return true;
  }
  b.emit(`CASE WHEN ${blk} >>= `)
    .param(inet(n.network, M), 'inet')
    .emit(` THEN set_masklen(network(${blk}), `)
    .param(M, 'integer')
    .emit(') = ')
    .param(inet(n.network, M), 'inet')
    .emit(` ELSE ${d.FALSE} END`);
  return true;
}

function addrInForm({ d, b, n, blk, host, M, isPrefix, useHost, inet }: NetCase): boolean {
  if (n.network > n.broadcast) {
    b.emit(d.FALSE);
    return true;
  }
  if (useHost) {
    b.emit(`${host} BETWEEN `).param(inet(n.network, M), 'inet').emit(' AND ').param(inet(n.broadcast, M), 'inet');
    return true;
  }
  // cidr values whose network lies in [n, b] are exactly those between (n, shortest) and (b, max).
  if (isPrefix) {
    cidrRange(b, blk, inet(n.network, minAlignedLength(n.family, n.network)), inet(n.broadcast, M));
    return true;
  }
  return false;
}

function containedForm({ b, n, blk, inet, spgist }: NetCase): boolean {
  if (!isAlignedBlock(n)) return false;
  spgist(() => b.emit(`${blk} ${n.op === 'contained' ? '<<' : '<<='} `).param(inet(n.network, n.length), 'cidr'));
  return true;
}

function containsForm({ d, b, n, blk, isPrefix, inet, spgist }: NetCase): boolean {
  if (!isAlignedBlock(n)) return false;
  if (isPrefix) {
    // The prefixes containing a block are its network at each shorter length: an ordered B-tree
    // scan over these values stops after one page (SP-GiST `>>=` would fetch every match).
    const top = n.op === 'contains' ? n.length - 1 : n.length;
    if (top < 0) {
      b.emit(d.FALSE);
      return true;
    }
    const probes = Array.from({ length: top + 1 }, (_, l) => inet(networkOf(n.family, n.network, l), l));
    b.emit(`${blk} = ANY(`).param(probes, 'cidr[]').emit(')');
    return true;
  }
  spgist(() => b.emit(`${blk} ${n.op === 'contains' ? '>>' : '>>='} `).param(inet(n.network, n.length), 'cidr'));
  return true;
}

function childOfForm({ d, b, m, n, blk, M, isPrefix, inet }: NetCase): boolean {
  if (!isPrefix || !isAlignedBlock(n)) {
    b.emit(d.FALSE);
    return true;
  }
  childOf(b, m.table, blk, inet(n.network, n.length), inet(n.broadcast, M), M);
  return true;
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
  b.emit(` ORDER BY k.${nb} LIMIT 1) UNION ALL SELECT (SELECT k.${nb} FROM ${t} k `)
    .emit(`WHERE k.${nb} > set_masklen(broadcast(kids.b), `)
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
export function postgresNetIndexes(m: TableModel): IndexDef[] {
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
