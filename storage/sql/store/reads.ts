// SqlStorage's reads: rows by id, by one field's value, and pages of a plan compiled to SQL
// (engine/sql/compile.ts), with their count; and how the database would run such a page.
import { cmp, tagRefs, type Plan, type Scalar } from '../../../engine/plan/nodes.js';
import { defaultOrdering } from '../../../engine/plan/page.js';
import type { TagIds } from '../../../engine/sql/compile.js';
import { SqlBuilder } from '../../../engine/sql/sql-builder.js';
import { tableModel } from '../../../engine/sql/table-model.js';
import { idParam, idsOf, isIdOf } from '../../../engine/sql/id-columns.js';
import type { FindOptions, FindResult, OrderKey, Page, Row, ScanOptions } from '../../types.js';
import type { SqlContext } from './context.js';
import { idStyleOf } from '../../../engine/schema/id-style.js';
import { resource } from '../../../engine/schema/registry.js';

const displayParam = (v: unknown): unknown => (Buffer.isBuffer(v) ? `0x${v.toString('hex')}` : v);

/** MariaDB's EXPLAIN JSON can quote raw bytes of binary parameters: then it stays text. */
function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export class SqlReads {
  constructor(private readonly ctx: SqlContext) {}

  async getMany(resource: string, ids: readonly string[]): Promise<Row[]> {
    const { d, compiler } = this.ctx.ready();
    const wanted = idsOf(d, resource, ids);
    if (!wanted.length) return [];
    const m = tableModel(resource);
    const sb = new SqlBuilder(d).emit(`${compiler.heads(resource).select} WHERE `);
    d.inList(sb, `m.${d.quote('id')}`, wanted, idParam(d, resource));
    const byId = new Map(this.ctx.rows(m.resource.name, await this.ctx.run(sb.build())).map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id)).filter((r): r is Row => !!r);
  }

  async findBy(resource: string, field: string, value: unknown): Promise<Row[]> {
    const { d, compiler } = this.ctx.ready();
    const m = tableModel(resource);
    const head = compiler.heads(resource).select;
    const order = ` ORDER BY m.${d.quote('id')}`;
    if (field === 'tags') {
      if (!m.tagsTable || !isIdOf(d, 'tag', value)) return [];
      const tagged = new SqlBuilder(d)
        .emit(`${head} WHERE EXISTS (SELECT 1 FROM ${d.quote(m.tagsTable)} jt`)
        .emit(` WHERE jt.${d.quote('obj_id')} = m.${d.quote('id')} AND jt.${d.quote('tag_id')} = `)
        .param(value, idParam(d, 'tag'))
        .emit(`)${order}`)
        .build();
      return this.ctx.rows(resource, await this.ctx.run(tagged));
    }
    const c = m.byField.get(field);
    let plan: Plan;
    if (!c) return value === undefined ? this.findAll(resource) : [];
    if (value === null || value === undefined) plan = { kind: 'null', field };
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      plan = cmp(field, typeof value === 'number' ? 'number' : 'string', 'eq', false, [value as Scalar]);
    else return []; // arrays and objects are never === a stored value
    const w = compiler.where(resource, plan);
    return this.ctx.rows(resource, await this.ctx.query(`${head} WHERE ${w.sql}${order}`, w.params));
  }

  private async findAll(resource: string): Promise<Row[]> {
    const { d, compiler } = this.ctx.ready();
    const all = `${compiler.heads(resource).select} ORDER BY m.${d.quote('id')}`;
    return this.ctx.rows(resource, await this.ctx.query(all, []));
  }

  /**
   * Tag references of the plan looked up in one query (none when the plan has no tag filter), so
   * the statement names tag ids (see TagIds). Looked up per request: another server on the same
   * database may have created or renamed a tag meanwhile.
   */
  private async tagIds(plan: Plan): Promise<TagIds | undefined> {
    const refs = [...tagRefs(plan)];
    if (!refs.length) return undefined;
    const q = this.ctx.ready().compiler.tagLookup(refs);
    const found = (await this.ctx.run(q)).rows as { id: string; slug: string }[];
    // By id first, else by slug; in an integer store by slug first (a plain reference is a slug there):
    // as the memory store resolves them.
    const byId = new Map(found.map((t) => [String(t.id), String(t.id)]));
    const bySlug = new Map(found.map((t) => [String(t.slug), String(t.id)]));
    const slugFirst = idStyleOf(resource('tag'), this.ctx.ready().d.ids).name !== 'uuid';
    return new Map(
      refs.map((r) => [r, (slugFirst ? (bySlug.get(r) ?? byId.get(r)) : (byId.get(r) ?? bySlug.get(r))) ?? null]),
    );
  }

  async find(resource: string, plan: Plan, page: Page, opts: FindOptions = {}): Promise<FindResult> {
    const { compiler } = this.ctx.ready();
    const st = compiler.find(resource, plan, page, await this.tagIds(plan));
    const pageRows = async () => (page.limit > 0 ? this.ctx.rows(resource, await this.ctx.run(st.page)) : []);
    if (opts.noCount) return { count: -1, rows: await pageRows() };
    if (this.ctx.driver.parallelCount) {
      const [count, got] = await Promise.all([
        this.ctx.run(st.count),
        page.limit > 0 ? this.ctx.run(st.page) : Promise.resolve(null),
      ]);
      return { count: Number(count.rows[0].n), rows: got ? this.ctx.rows(resource, got) : [] };
    }
    // The page first: when it is not full it tells the total by itself, and the COUNT is skipped.
    const rows = await pageRows();
    if (page.limit > 0 && rows.length < page.limit && (rows.length > 0 || page.offset === 0))
      return { count: page.offset + rows.length, rows };
    const count = await this.ctx.run(st.count);
    return { count: Number(count.rows[0].n), rows };
  }

  /** Storage.scan: the find's SELECT with no window, read through the driver's cursor. */
  async *scan(resource: string, plan: Plan, ordering: readonly OrderKey[], opts: ScanOptions): AsyncGenerator<Row[]> {
    const { compiler } = this.ctx.ready();
    const whole = { limit: Number.MAX_SAFE_INTEGER, offset: 0, ordering };
    const st = compiler.find(resource, plan, whole, await this.tagIds(plan));
    for await (const rows of this.ctx.driver.cursor(st.page.sql, st.page.params, opts.chunk)) {
      if (opts.signal?.aborted) return;
      yield this.ctx.rows(resource, { rows, rowCount: rows.length });
    }
  }

  async explain(resource: string, plan: Plan, page?: Page): Promise<unknown> {
    const { compiler } = this.ctx.ready();
    const m = tableModel(resource);
    const st = compiler.find(
      resource,
      plan,
      page ?? { limit: 50, offset: 0, ordering: defaultOrdering(m.resource) },
      await this.tagIds(plan),
    );
    const r = await this.ctx.query(this.ctx.driver.explainPrefix + st.page.sql, st.page.params);
    const raw = Object.values(r.rows[0] ?? {})[0];
    return {
      sql: st.page.sql,
      params: st.page.params.map(displayParam),
      count_sql: st.count.sql,
      database_plan: typeof raw === 'string' ? parseOr(raw) : raw,
    };
  }

  async serverVersion(): Promise<string | null> {
    return String((await this.ctx.query(this.ctx.driver.serverVersionSql, [])).rows[0].server_version);
  }
}
