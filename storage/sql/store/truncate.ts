// Test helper: every table emptied, join tables and dependents first, with the bookkeeping
// (allocation hints, cover marks) a delete keeps.
import { SqlBuilder } from '../../../engine/sql/sql-builder.js';
import { TABLE_MODELS } from '../../../engine/sql/table-model.js';
import { beforeDelete } from '../allocation/hints.js';
import { afterAllPrefixesDeleted } from '../allocation/cover-mark-upkeep.js';
import type { SqlSession } from '../driver.js';
import type { SqlContext } from './context.js';

export async function truncateAll(ctx: SqlContext): Promise<void> {
  const { d } = ctx.ready();
  const run = async (s: SqlSession, text: string) => {
    const st = new SqlBuilder(d).emit(text).build();
    await s.query(st.sql, st.params);
  };
  return ctx.guard(() =>
    ctx.driver.transaction(async (s) => {
      for (const m of [...TABLE_MODELS].reverse()) {
        const table = d.quote(m.table);
        if (m.tagsTable) await run(s, `DELETE FROM ${d.quote(m.tagsTable)}`);
        if (m.resource.tree) await run(s, `UPDATE ${table} SET ${d.quote(m.resource.tree)} = NULL`);
        for (const f of m.fks.filter((x) => x.deferred)) await run(s, `UPDATE ${table} SET ${d.quote(f.field)} = NULL`);
        await beforeDelete(s, d, m);
        await afterAllPrefixesDeleted(s, d, m);
        await run(s, `DELETE FROM ${table}`);
      }
    }),
  );
}
