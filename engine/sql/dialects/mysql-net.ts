// MySQL / MariaDB's networks: varbinary(16) address columns (4 bytes IPv4, 16 bytes IPv6) with
// B-tree indexes that start with family: containment is an address range (`net_lo BETWEEN n AND b`),
// "contains" one equality probe per possible prefix length.
import type { NetNode } from '../../plan/nodes.js';
import { networkOf, parseCidr } from '../../net/ip.js';
import type { IndexDef, NetColumn } from '../dialect.js';
import { isAlignedBlock } from '../net-shapes.js';
import type { SqlBuilder } from '../sql-builder.js';
import type { TableModel } from '../table-model.js';
import { hexBytes, quote } from './mysql-quoting.js';

/** Typed network columns filled from the prefix / address text. */
export function netColumns(m: TableModel): NetColumn[] {
  const cidr = (text: unknown) => (typeof text === 'string' ? parseCidr(text) : null);
  const col = (name: string, pick: (c: NonNullable<ReturnType<typeof parseCidr>>) => string): NetColumn => ({
    name,
    sqlType: 'varbinary(16)',
    paramType: 'text',
    encode: (t) => {
      const c = cidr(t);
      return c && hexBytes(pick(c));
    },
  });
  const block = [col('net_lo', (c) => c.network), col('net_hi', (c) => c.broadcast)];
  if (m.net?.kind === 'prefix') return block;
  if (m.net?.kind === 'address') return [col('net_host', (c) => c.host), ...block];
  return [];
}

/** ORDER BY expressions for an address-like field: (family, address, length), as the indexes. */
export function netOrder(m: TableModel, alias: string, field: string): readonly string[] {
  const col = (c: string) => `${alias}.${quote(c)}`;
  const f = m.byField.get(field)!.field;
  const useHost = m.net!.kind === 'address' && (f.netRole === 'host' || f.kind === 'address');
  return [col(m.net!.family), col(useHost ? 'net_host' : 'net_lo'), col(m.net!.length)];
}

/** memory's netTest on (family, net_lo = network, net_hi = broadcast, net_host = host, length). */
export function netPredicate(b: SqlBuilder, m: TableModel, alias: string, n: NetNode): void {
  const col = (c: string) => `${alias}.${quote(c)}`;
  const lo = col('net_lo'),
    hi = col('net_hi'),
    len = col(m.net!.length);
  const addr = n.field === 'host' && m.net!.kind === 'address' ? col('net_host') : lo;
  const bytes = hexBytes;
  b.emit(`(${col(m.net!.family)} = `)
    .param(n.family, 'integer')
    .emit(' AND ');
  switch (n.op) {
    case 'equal':
      b.emit(`${addr} = `).param(bytes(n.network), 'text').emit(` AND ${len} = `).param(n.length, 'integer');
      break;
    case 'addr_eq':
      b.emit(`${addr} = `).param(bytes(n.network), 'text');
      break;
    case 'addr_in':
      b.emit(`${addr} BETWEEN `).param(bytes(n.network), 'text').emit(' AND ').param(bytes(n.broadcast), 'text');
      break;
    case 'contained':
    case 'contained_or_equal':
      b.emit(`${lo} BETWEEN `)
        .param(bytes(n.network), 'text')
        .emit(' AND ')
        .param(bytes(n.broadcast), 'text')
        .emit(` AND ${len} ${n.op === 'contained' ? '>' : '>='} `)
        .param(n.length, 'integer');
      break;
    case 'contains':
    case 'contains_or_equal': {
      if (!isAlignedBlock(n)) {
        b.emit(`${len} ${n.op === 'contains' ? '<' : '<='} `)
          .param(n.length, 'integer')
          .emit(` AND ${lo} <= `)
          .param(bytes(n.network), 'text')
          .emit(` AND ${hi} >= `)
          .param(bytes(n.broadcast), 'text');
        break;
      }
      // The blocks containing network/length are network-of-it at each shorter length: one index
      // probe (family, net_lo, prefix_length) per length, as a row IN list (cheaper to optimise than ORs).
      const top = n.op === 'contains' ? n.length - 1 : n.length;
      if (top < 0) {
        b.emit('FALSE');
        break;
      }
      b.emit(`(${lo}, ${len}) IN (`);
      for (let l = 0; l <= top; l++) {
        if (l) b.emit(', ');
        b.emit('(')
          .param(bytes(networkOf(n.family, n.network, l)), 'text')
          .emit(', ')
          .param(l, 'integer')
          .emit(')');
      }
      b.emit(')');
      break;
    }
    case 'child_of': {
      // Inside the block, and no prefix of the table lies strictly between the block and the row.
      const q = (c: string) => `q.${quote(c)}`;
      b.emit(`${lo} BETWEEN `)
        .param(bytes(n.network), 'text')
        .emit(' AND ')
        .param(bytes(n.broadcast), 'text')
        .emit(` AND ${len} > `)
        .param(n.length, 'integer')
        .emit(` AND NOT EXISTS (SELECT 1 FROM ${quote(m.table)} q WHERE ${q(m.net!.family)} = ${col(m.net!.family)}`)
        .emit(` AND ${q('net_lo')} BETWEEN `)
        .param(bytes(n.network), 'text')
        .emit(` AND ${lo} AND ${q(m.net!.length)} > `)
        .param(n.length, 'integer')
        .emit(` AND ${q(m.net!.length)} < ${len} AND ${q('net_hi')} >= ${hi})`);
      break;
    }
  }
  b.emit(')');
}

/** Index definitions of the network columns: family first so a range never spans families. */
export function mysqlNetIndexes(m: TableModel): IndexDef[] {
  if (!m.net) return [];
  const t = m.table;
  const cols = (...c: string[]) => c.map(quote).join(', ');
  const { family, length } = m.net;
  const out = [{ name: `ix_${t}_net_lo`, columns: cols(family, 'net_lo', length) }];
  if (m.net.kind === 'address') out.push({ name: `ix_${t}_net_host`, columns: cols(family, 'net_host', length) });
  return out;
}
