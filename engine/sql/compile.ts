// Plan -> SQL statements of a find, per dialect: the WHERE clause is where-compiler.ts's, ORDER BY
// order-by.ts's.
import type { Plan } from '../plan/nodes.js';
import type { OrderKey, Page } from '../plan/page.js';
import type { Dialect } from './dialect.js';
import { orderByTerms } from './order-by.js';
import { SqlBuilder, type ParamType, type SqlText } from './sql-builder.js';
import { tableModel, type TableModel } from './table-model.js';
import { idParam, isIdOf } from './id-columns.js';
import { compileWhere, type TagIds } from './where-compiler.js';
import { ALIAS } from './where-parts.js';

export { ALIAS } from './where-parts.js';
export { compileWhere, type TagIds } from './where-compiler.js';
export { orderByTerms } from './order-by.js';

export interface FindStatements {
  readonly count: SqlText;
  readonly page: SqlText;
}

/**
 * Per dialect: everything that does not depend on a request is built once — column lists, ORDER BY
 * text per ordering — and WHERE clauses are cached per plan object (plans are immutable and the
 * plan cache hands out the same object for a repeated query).
 */
export class SqlCompiler {
  private readonly whereCache = new WeakMap<Plan, Map<string, SqlText>>();
  private readonly selects = new Map<string, { select: string; count: string }>();
  private readonly orders = new Map<string, string>();

  constructor(
    readonly d: Dialect,
    private readonly pageValue: (n: number) => unknown = (n) => n,
  ) {}

  model(resource: string): TableModel {
    return tableModel(resource);
  }

  /** `SELECT <columns> FROM <table> AS m` and `SELECT count(*) FROM <table> AS m`. */
  heads(resource: string): { select: string; count: string } {
    let h = this.selects.get(resource);
    if (!h) {
      const m = tableModel(resource);
      const from = ` FROM ${this.d.quote(m.table)} ${ALIAS}`;
      h = {
        select: `SELECT ${m.columns.map((c) => `${ALIAS}.${this.d.quote(c.name)}`).join(', ')}${from}`,
        count: `SELECT count(*) AS n${from}`,
      };
      this.selects.set(resource, h);
    }
    return h;
  }

  where(resource: string, plan: Plan, tagIds?: TagIds): SqlText {
    let byRes = this.whereCache.get(plan);
    if (!byRes) {
      byRes = new Map();
      this.whereCache.set(plan, byRes);
    }
    const key = tagIds?.size ? `${resource}|${[...tagIds].map(([r, id]) => `${r}=${id ?? ''}`).join('|')}` : resource;
    let w = byRes.get(key);
    if (!w) {
      w = compileWhere(this.d, tableModel(resource), plan, tagIds);
      byRes.set(key, w);
    }
    return w;
  }

  /** The ids and slugs of the tags that `refs` name (by id, or by slug), for TagIds. */
  tagLookup(refs: readonly string[]): SqlText {
    const d = this.d,
      b = new SqlBuilder(d),
      ids = refs.filter((r) => isIdOf(d, 'tag', r));
    const list = (values: readonly string[], type: ParamType) =>
      values.forEach((v, i) => {
        if (i) b.emit(', ');
        b.param(v, type);
      });
    const slug = d.quote('slug');
    b.emit(
      `SELECT ${d.quote('id')} AS id, ${slug} AS slug FROM ${d.quote(tableModel('tag').table)} WHERE ${slug} IN (`,
    );
    list(refs, 'text');
    b.emit(')');
    if (ids.length) {
      b.emit(` OR ${d.quote('id')} IN (`);
      list(ids, idParam(d, 'tag'));
      b.emit(')');
    }
    return b.build();
  }

  orderBy(resource: string, ordering: readonly OrderKey[]): string {
    const key = `${resource}|${ordering.map((o) => (o.desc ? '-' : '') + o.field).join(',')}`;
    let o = this.orders.get(key);
    if (o === undefined) {
      o = ` ORDER BY ${orderByTerms(this.d, tableModel(resource), ordering).join(', ')}`;
      this.orders.set(key, o);
    }
    return o;
  }

  /** The COUNT and the page SELECT of a find. */
  find(resource: string, plan: Plan, page: Page, tagIds?: TagIds): FindStatements {
    const w = this.where(resource, plan, tagIds);
    const h = this.heads(resource);
    // The page's two parameters follow the WHERE clause's.
    const tail = new SqlBuilder(this.d, w.params.length)
      .emit(`${h.select} WHERE ${w.sql}${this.orderBy(resource, page.ordering)} LIMIT `)
      .param(this.pageValue(page.limit), 'bigint')
      .emit(' OFFSET ')
      .param(this.pageValue(page.offset), 'bigint')
      .build();
    return {
      count: { sql: `${h.count} WHERE ${w.sql}`, params: w.params },
      page: { sql: tail.sql, params: [...w.params, ...tail.params] },
    };
  }
}
