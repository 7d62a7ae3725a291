// A write's RowCheck as one statement: how many of the ids name a row that satisfies the plan,
// run on the write's own session (so before its writes it sees the rows they replace, after them
// the rows as written).
import { SqlBuilder, type SqlText } from '../../../engine/sql/sql-builder.js';
import { idParam, idsOf } from '../../../engine/sql/id-columns.js';
import { ALIAS } from '../../../engine/sql/compile.js';
import type { RowCheck } from '../../types.js';
import type { Opened } from './context.js';

export function checkStatement({ d, compiler }: Opened, c: RowCheck): SqlText {
  const w = compiler.where(c.resource, c.plan);
  const b = new SqlBuilder(d, w.params.length).emit(`${compiler.heads(c.resource).count} WHERE (${w.sql}) AND `);
  d.inList(b, `${ALIAS}.${d.quote('id')}`, idsOf(d, c.resource, [...new Set(c.ids)]), idParam(d, c.resource));
  const tail = b.build();
  return { sql: tail.sql, params: [...w.params, ...tail.params] };
}
