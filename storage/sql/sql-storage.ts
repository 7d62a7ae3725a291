// Storage on a SQL database: the plan compiled to SQL (engine/sql), rows mapped to and from
// columns by the registry, every apply() batch in one transaction with constraint violations
// mapped to the StorageConflict the memory store gives, a lost database to StorageUnavailable.
import { cmp, tagRefs, type Plan, type Scalar } from '../../engine/plan/nodes.js';
import { defaultOrdering } from '../../engine/plan/page.js';
import { SqlCompiler, type TagIds } from '../../engine/sql/compile.js';
import type { Dialect } from '../../engine/sql/dialect.js';
import { SqlBuilder, type SqlText } from '../../engine/sql/sql-builder.js';
import {
  addToBase,
  COUNT_DELTAS,
  COUNT_TABLE,
  COUNTED_RESOURCES,
  countedTarget,
  dropDeltas,
  EVERY_FROM,
  FOLD_BATCH,
  isCounted,
  READ_CHUNK,
  readCounts,
  readsEvery,
  takeDeltas,
  type CountRef,
} from '../../engine/sql/related-counts.js';
import { LOWER_UUID, TABLE_MODELS, tableModel, type TableModel } from '../../engine/sql/table-model.js';
import {
  StorageConfigError,
  QueryRefused,
  QueryTimeout,
  StorageConflict,
  StorageUnavailable,
  versionOf,
  type FindOptions,
  type FindResult,
  type Page,
  type Row,
  type Storage,
  type StorageOptions,
  type WriteOp,
  type NetBlock,
  type AllocationHint,
  type ApplyOptions,
  type ApplyResult,
} from '../types.js';
import { fkConflict, fkOwner, uniqueConflict } from './conflicts.js';
import { MSG } from '../../engine/schema/messages.js';
import { CommitInDoubt, type QueryResult, type SqlDriver, type SqlSession } from './driver.js';
import { migrate, pendingMigrations } from './migrations.js';
import { WriteStatements } from './write-statements.js';
import { KeyedLock } from '../keyed-lock.js';
import { sqlCoveredSpans } from './covered-spans.js';
import { beforeDelete, beforeUpdate, sqlAllocationHint, sqlSaveAllocationHint } from './allocation-hints.js';
import { COVER_TABLE } from '../../engine/sql/cover-marks.js';
import {
  afterAllPrefixesDeleted,
  afterPrefixCreates,
  beforePrefixDelete,
  beforePrefixUpdate,
  markedSpans,
} from './cover-marks.js';
import type { AddrHex } from '../../engine/net/ip.js';
import type { CoveredSpans } from '../../engine/net/free-space.js';
import { CHANGE_RESOURCE, numberChanges, toNumber } from '../../engine/changes/change-records.js';
import { commitOutcome, notCommitted } from './commit-outcome.js';
import { CHANGE_CHANNEL, currentNumber, readTaken, takeNumbers } from '../../engine/sql/change-counter.js';
import { withChangeRecords } from '../change-log/logged-batch.js';
import { noteSeq } from '../change-log/write-context.js';
import { noteCommitted, typesWritten } from '../change-log/change-feed.js';
import { rowShape } from '../../engine/schema/row-shape.js';
import { TableGrowth } from './table-growth.js';

type Group =
  | { readonly kind: 'create'; readonly m: TableModel; readonly ops: readonly Extract<WriteOp, { op: 'create' }>[] }
  | { readonly kind: 'update'; readonly m: TableModel; readonly op: Extract<WriteOp, { op: 'update' }> }
  | { readonly kind: 'delete'; readonly m: TableModel; readonly op: Extract<WriteOp, { op: 'delete' }> };

/** Consecutive creates on one resource are written together. */
function groups(ops: readonly WriteOp[]): Group[] {
  const out: Group[] = [];
  for (const op of ops) {
    const m = tableModel(op.resource);
    const last = out[out.length - 1];
    if (op.op === 'create' && last?.kind === 'create' && last.m === m) (last.ops as WriteOp[]).push(op);
    else if (op.op === 'create') out.push({ kind: 'create', m, ops: [op] });
    else if (op.op === 'update') out.push({ kind: 'update', m, op });
    else out.push({ kind: 'delete', m, op });
  }
  return out;
}

/** MariaDB's EXPLAIN JSON can quote raw bytes of binary parameters: then it stays text. */
function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** writeError's session where there is none (PostgreSQL: no query is made on a failed statement's connection). */
const NO_SESSION: SqlSession = { query: () => Promise.reject(new Error('no session: the statement ran on its own')) };

/** Rows per page of a replica's load. */
const SNAPSHOT_PAGE = 10000;

/** The ids that can be keys at all (lower-case UUIDs), once each. */
const uuidsOf = (ids: readonly string[]): string[] => [...new Set(ids.filter((id) => LOWER_UUID.test(id)))];

const displayParam = (v: unknown): unknown => (Buffer.isBuffer(v) ? `0x${v.toString('hex')}` : v);

/** Write batches of counted resources between two background folds of their count deltas. */
const FOLD_EVERY = 200;

/** How long a table's row count (SqlStorage.objectsOf) is taken as true. */
const TOTAL_TTL_MS = 10_000;

/** How many times a write the database rolled back to break a deadlock is tried in all. */
const VICTIM_TRIES = 6;

export class SqlStorage implements Storage {
  private state: {
    d: Dialect;
    compiler: SqlCompiler;
    writes: WriteStatements;
    decoders: Map<string, (raw: Record<string, unknown>) => Row>;
  } | null = null;
  /** Versions applied by the last open(). */
  appliedMigrations: number[] = [];

  constructor(
    private readonly driver: SqlDriver,
    private readonly opts: StorageOptions = {},
  ) {}

  get kind(): 'postgres' | 'mysql' {
    return this.driver.kind;
  }

  get dialect(): Dialect {
    return this.ready().d;
  }

  /** The compiled WHERE clause of a plan (diagnostics, tests). */
  whereSql(resource: string, plan: Plan): SqlText {
    return this.ready().compiler.where(resource, plan);
  }

  async open(): Promise<void> {
    if (this.state) return;
    const d = await this.driver.connect();
    if (this.opts.reader) {
      const missing = await this.guard(() => pendingMigrations(this.driver, d));
      if (missing.length)
        throw new StorageConfigError(
          `the database at ${this.driver.where} lacks schema migrations ${missing.join(', ')}: it is read here, never migrated (run \`npm run migrate\` against its primary; a standby replays them)`,
        );
    } else this.appliedMigrations = await this.guard(() => migrate(this.driver, d));
    const decoders = new Map(TABLE_MODELS.map((m) => [m.table, this.decoder(m)]));
    this.state = {
      d,
      compiler: new SqlCompiler(d, (n) => this.driver.pageValue(n)),
      writes: new WriteStatements(d),
      decoders,
    };
    const rowsSql = this.driver.estimatedRowsSql;
    if (rowsSql && !this.opts.reader)
      this.growth = new TableGrowth(async (table) => {
        await this.query(d.analyze(table), []);
        return Number((await this.query(rowsSql, [table])).rows[0]?.n ?? 0);
      });
    // Commits of other processes wake this process's followers of the log (stream, webhooks, replica).
    if (this.driver.listen && !this.opts.reader)
      this.unlisten = await this.driver.listen(CHANGE_CHANNEL, (payload) => {
        const n = Number(payload);
        if (n > 0) noteCommitted(n);
      });
  }

  /** Stops listening for other processes' commits (null: the database has no notifications). */
  private unlisten: (() => Promise<void>) | null = null;

  onPoolWait(fn: (seconds: number, timedOut: boolean) => void): void {
    this.driver.poolWaits?.on(fn);
  }

  /** Other processes' commits are announced (PostgreSQL): followers may read the counter rarely. */
  get notified(): boolean {
    return this.unlisten !== null;
  }

  async close(): Promise<void> {
    await this.growth?.idle();
    this.growth = null;
    this.state = null;
    await this.unlisten?.();
    this.unlisten = null;
    await this.driver.close();
  }

  private ready(): NonNullable<SqlStorage['state']> {
    if (!this.state) throw new Error(`${this.driver.kind} storage used before open()`);
    return this.state;
  }

  private decoder(m: TableModel): (raw: Record<string, unknown>) => Row {
    const cols = m.columns;
    const shape = rowShape(cols.map((c) => c.name)); // devices' 23 columns would make each row a dictionary
    return (raw) => {
      const row: Record<string, unknown> = { ...shape };
      for (const c of cols) row[c.name] = this.driver.decode(c, raw[c.name]);
      return row as Row;
    };
  }

  /** A lost database becomes StorageUnavailable (503), a statement over its time limit QueryTimeout; anything else propagates. */
  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof StorageConflict || e instanceof StorageUnavailable) throw e;
      const c = this.driver.classify(e);
      if (c.kind === 'unavailable') throw new StorageUnavailable(c.message);
      if (c.kind === 'timeout') throw new QueryTimeout(this.opts.queryTimeoutMs ?? 0);
      if (c.kind === 'pattern')
        throw new QueryRefused(
          `The ${this.dialect.label} regular expression engine cannot run a pattern of this query: ${c.message.split('\n')[0]}`,
        );
      throw e;
    }
  }

  private query(sql: string, params: readonly unknown[]): Promise<QueryResult> {
    return this.guard(() => this.driver.query(sql, params));
  }

  private rows(resource: string, r: QueryResult): Row[] {
    const dec = this.ready().decoders.get(tableModel(resource).table)!;
    return r.rows.map(dec);
  }

  async get(resource: string, id: string): Promise<Row | null> {
    return (await this.getMany(resource, [id]))[0] ?? null;
  }

  async getMany(resource: string, ids: readonly string[]): Promise<Row[]> {
    const { d, compiler } = this.ready();
    const wanted = uuidsOf(ids);
    if (!wanted.length) return [];
    const m = tableModel(resource);
    const sb = new SqlBuilder(d).emit(`${compiler.heads(resource).select} WHERE `);
    d.inList(sb, `m.${d.quote('id')}`, wanted, 'uuid');
    const st = sb.build();
    const byId = new Map(this.rows(m.resource.name, await this.query(st.sql, st.params)).map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id)).filter((r): r is Row => !!r);
  }

  /** One grouped count over the foreign key's index for the whole page of ids. */
  async countRefs(resource: string, field: string, ids: readonly string[]): Promise<ReadonlyMap<string, number>> {
    const { d } = this.ready();
    const wanted = uuidsOf(ids);
    if (!wanted.length) return new Map();
    if (isCounted({ resource, field })) return (await this.countRefsOf([{ resource, field }], wanted))[0]; // kept by triggers (related-counts.ts)
    // A reference no count declares: counted from its rows.
    const m = tableModel(resource),
      col = d.quote(m.byField.get(field)!.name);
    const sb = new SqlBuilder(d).emit(`SELECT ${col} AS ref, COUNT(*) AS n FROM ${d.quote(m.table)} WHERE `);
    d.inList(sb, col, wanted, 'uuid');
    const st = sb.emit(` GROUP BY ${col}`).build();
    return new Map((await this.query(st.sql, st.params)).rows.map((r) => [String(r.ref), Number(r.n)]));
  }

  /** Counts kept by triggers (related-counts.ts), every reference asked in one query; a counter at 0 reads as absent. */
  async countRefsOf(refs: readonly CountRef[], ids: readonly string[]): Promise<ReadonlyMap<string, number>[]> {
    const { d } = this.ready();
    const wanted = uuidsOf(ids);
    const out = refs.map(() => new Map<string, number>());
    if (!wanted.length || !refs.length) return out;
    if (!refs.every(isCounted)) return Promise.all(refs.map((c) => this.countRefs(c.resource, c.field, wanted)));
    const at = new Map(refs.map((c, i) => [`${c.resource}.${c.field}`, i]));
    const read = async (st: SqlText, keep: ReadonlySet<string> | null) => {
      // Walked in place, not split: half the time for 1,900 pairs.
      for (const r of (await this.query(st.sql, st.params)).rows) {
        const m = out[at.get(String(r.counted))!],
          pairs = String(r.pairs);
        for (let from = 0; from < pairs.length;) {
          const colon = pairs.indexOf(':', from),
            comma = pairs.indexOf(',', colon),
            end = comma < 0 ? pairs.length : comma;
          const ref = pairs.slice(from, colon);
          if (!keep || keep.has(ref)) m.set(ref, (m.get(ref) ?? 0) + Number(pairs.slice(colon + 1, end)));
          from = end + 1;
        }
      }
    };
    const target = countedTarget(refs[0]);
    if (
      wanted.length >= EVERY_FROM &&
      refs.every((c) => countedTarget(c) === target) &&
      readsEvery(wanted.length, await this.objectsOf(target))
    )
      await read(readCounts(d, refs, null), new Set(wanted));
    else
      for (let from = 0; from < wanted.length; from += READ_CHUNK)
        await read(readCounts(d, refs, wanted.slice(from, from + READ_CHUNK)), null);
    for (const m of out) for (const [ref, n] of m) if (n === 0) m.delete(ref);
    return out;
  }

  /** Rows of each resource as last counted, and when: what readsEvery weighs a page against. */
  private readonly totals = new Map<string, { readonly at: number; readonly n: Promise<number> }>();

  /**
   * How many objects `resource` has, counted at most every TOTAL_TTL_MS. A stale figure only makes a
   * count read take the other way: both give the page's exact counts.
   */
  private objectsOf(resource: string): Promise<number> {
    const now = Date.now(),
      got = this.totals.get(resource);
    if (got && now - got.at < TOTAL_TTL_MS) return got.n;
    const n = this.query(`SELECT COUNT(*) AS n FROM ${this.ready().d.quote(tableModel(resource).table)}`, []).then(
      (r) => Number(r.rows[0].n),
    );
    this.totals.set(resource, { at: now, n });
    n.catch(() => this.totals.delete(resource));
    return n;
  }

  async findBy(resource: string, field: string, value: unknown): Promise<Row[]> {
    const { d, compiler } = this.ready();
    const m = tableModel(resource);
    const head = compiler.heads(resource).select;
    const order = ` ORDER BY m.${d.quote('id')}`;
    if (field === 'tags') {
      if (!m.tagsTable || typeof value !== 'string' || !LOWER_UUID.test(value)) return [];
      const tagged = new SqlBuilder(d)
        .emit(
          `${head} WHERE EXISTS (SELECT 1 FROM ${d.quote(m.tagsTable)} jt WHERE jt.${d.quote('obj_id')} = m.${d.quote('id')} AND jt.${d.quote('tag_id')} = `,
        )
        .param(value, 'uuid')
        .emit(`)${order}`)
        .build();
      return this.rows(resource, await this.query(tagged.sql, tagged.params));
    }
    const c = m.byField.get(field);
    let plan: Plan;
    if (!c) return value === undefined ? this.findAll(resource) : [];
    if (value === null || value === undefined) plan = { kind: 'null', field };
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      plan = cmp(field, typeof value === 'number' ? 'number' : 'string', 'eq', false, [value as Scalar]);
    else return []; // arrays and objects are never === a stored value
    const w = compiler.where(resource, plan);
    return this.rows(resource, await this.query(`${head} WHERE ${w.sql}${order}`, w.params));
  }

  private async findAll(resource: string): Promise<Row[]> {
    const { d, compiler } = this.ready();
    return this.rows(resource, await this.query(`${compiler.heads(resource).select} ORDER BY m.${d.quote('id')}`, []));
  }

  async serverVersion(): Promise<string | null> {
    return String((await this.query(this.driver.serverVersionSql, [])).rows[0].server_version);
  }
  coveredSpans(resource: 'prefix' | 'ip_address', block: NetBlock, max: number, from?: AddrHex): Promise<CoveredSpans> {
    const ctx = {
      d: this.ready().d,
      run: (sql: string, params: readonly unknown[]) => this.driver.query(sql, params),
      limitValue: (n: number) => this.driver.pageValue(n),
    };
    if (resource === 'prefix') return this.guard(() => markedSpans(ctx.run, ctx.d, this.driver, block, max, from));
    return this.guard(() => sqlCoveredSpans(ctx, resource === 'ip_address', block, max, from));
  }

  allocationHint(resource: 'prefix' | 'ip_address', block: NetBlock, length: number): Promise<AllocationHint> {
    return this.guard(() => sqlAllocationHint(this.driver, this.ready().d, resource, block, length));
  }

  saveAllocationHint(
    resource: 'prefix' | 'ip_address',
    block: NetBlock,
    length: number,
    nextAt: AddrHex,
    gen: number,
  ): Promise<void> {
    return this.guard(() => sqlSaveAllocationHint(this.driver, this.ready().d, resource, block, length, nextAt, gen));
  }

  async afterBulkLoad(): Promise<void> {
    const { d } = this.ready();
    // The tag join tables too: without their statistics a tag filter is estimated blind. And the
    // prefixes' cover marks: estimated as a few rows, their range lookup reads the whole family.
    for (const m of TABLE_MODELS) for (const t of [m.table, m.tagsTable]) if (t) await this.query(d.analyze(t), []);
    await this.query(d.analyze(COVER_TABLE), []);
    await this.foldCounts();
    for (const t of [COUNT_TABLE, COUNT_DELTAS]) await this.query(d.analyze(t), []);
  }

  /**
   * Tag references of the plan looked up in one query (none when the plan has no tag filter), so
   * the statement names tag ids (see TagIds). Looked up per request: another server on the same
   * database may have created or renamed a tag meanwhile.
   */
  private async tagIds(plan: Plan): Promise<TagIds | undefined> {
    const refs = [...tagRefs(plan)];
    if (!refs.length) return undefined;
    const q = this.ready().compiler.tagLookup(refs);
    const found = (await this.query(q.sql, q.params)).rows as { id: string; slug: string }[];
    // By id first, else by slug: as the memory store resolves them.
    const byId = new Map(found.map((t) => [String(t.id), String(t.id)]));
    const bySlug = new Map(found.map((t) => [String(t.slug), String(t.id)]));
    return new Map(refs.map((r) => [r, byId.get(r) ?? bySlug.get(r) ?? null]));
  }

  async find(resource: string, plan: Plan, page: Page, opts: FindOptions = {}): Promise<FindResult> {
    const { compiler } = this.ready();
    const st = compiler.find(resource, plan, page, await this.tagIds(plan));
    if (opts.noCount)
      return {
        count: -1,
        rows: page.limit > 0 ? this.rows(resource, await this.query(st.page.sql, st.page.params)) : [],
      };
    if (this.driver.parallelCount) {
      const [count, got] = await Promise.all([
        this.query(st.count.sql, st.count.params),
        page.limit > 0 ? this.query(st.page.sql, st.page.params) : Promise.resolve(null),
      ]);
      return { count: Number(count.rows[0].n), rows: got ? this.rows(resource, got) : [] };
    }
    // The page first: when it is not full it tells the total by itself, and the COUNT is skipped.
    const rows = page.limit > 0 ? this.rows(resource, await this.query(st.page.sql, st.page.params)) : [];
    if (page.limit > 0 && rows.length < page.limit && (rows.length > 0 || page.offset === 0))
      return { count: page.offset + rows.length, rows };
    const count = await this.query(st.count.sql, st.count.params);
    return { count: Number(count.rows[0].n), rows };
  }

  async explain(resource: string, plan: Plan, page?: Page): Promise<unknown> {
    const { compiler } = this.ready();
    const m = tableModel(resource);
    const st = compiler.find(
      resource,
      plan,
      page ?? { limit: 50, offset: 0, ordering: defaultOrdering(m.resource) },
      await this.tagIds(plan),
    );
    const r = await this.query(this.driver.explainPrefix + st.page.sql, st.page.params);
    const raw = Object.values(r.rows[0] ?? {})[0];
    return {
      sql: st.page.sql,
      params: st.page.params.map(displayParam),
      count_sql: st.count.sql,
      database_plan: typeof raw === 'string' ? parseOr(raw) : raw,
    };
  }

  async apply(ops: readonly WriteOp[], opts: ApplyOptions = {}): Promise<ApplyResult> {
    const batch = withChangeRecords(ops, opts);
    if (!batch.length) return { seq: null };
    try {
      return await this.applyBatch(batch);
    } catch (e) {
      if (!(e instanceof CommitInDoubt)) throw e;
      // The connection went with COMMIT in flight: ask the database what became of the write.
      const records = batch.filter((o) => o.resource === CHANGE_RESOURCE);
      const last = records.length ? (records[records.length - 1] as Extract<WriteOp, { op: 'create' }>).row.id : null;
      const out = await commitOutcome(this.driver, this.ready().d, tableModel(CHANGE_RESOURCE).table, e, last);
      if (!out.committed) throw notCommitted(e);
      noteSeq(out.seq);
      noteCommitted(out.seq, { store: this, types: typesWritten(batch) });
      this.countDeltasMade(batch);
      return { seq: out.seq };
    }
  }

  private async applyBatch(batch: readonly WriteOp[]): Promise<ApplyResult> {
    const { count, carried } = toNumber(batch);
    const fast = count && !carried ? await this.againIfVictim(() => this.createsLogged(batch, count)) : undefined;
    if (fast !== undefined) {
      this.countDeltasMade(batch);
      this.grew(batch);
      return fast;
    }
    const seq = await this.againIfVictim(() =>
      this.guard(() =>
        this.driver.transaction(async (s) => {
          // The change records go last, numbered just before they are written (change-counter.ts).
          const data = batch.filter((o) => o.resource !== CHANGE_RESOURCE);
          let records = batch.filter((o) => o.resource === CHANGE_RESOURCE);
          let last: number | null = null;
          for (const g of groups(data)) await this.writeGroup(s, g);
          if (records.length) {
            last = await this.takeNumbers(s, count, carried);
            records = numberChanges(records, last - count + 1, new Date().toISOString());
            for (const g of groups(records)) await this.writeGroup(s, g);
          }
          return last;
        }),
      ),
    );
    noteSeq(seq);
    if (seq !== null) noteCommitted(seq, { store: this, types: typesWritten(batch) });
    this.countDeltasMade(batch);
    this.grew(batch);
    return { seq };
  }

  /** Tables analyzed by this process as they grow (null where the database keeps its own statistics). */
  private growth: TableGrowth | null = null;

  /** A committed batch's creates, counted per table (a prefix also adds its block's cover mark row). */
  private grew(batch: readonly WriteOp[]): void {
    if (!this.growth) return;
    const by = new Map<string, number>();
    for (const o of batch) {
      if (o.op !== 'create') continue;
      const m = tableModel(o.resource);
      by.set(m.table, (by.get(m.table) ?? 0) + 1);
      if (m.net && m.resource.name === 'prefix') by.set(COVER_TABLE, (by.get(COVER_TABLE) ?? 0) + 1);
    }
    for (const [table, n] of by) this.growth.created(table, n);
  }

  /** Write batches since this process last folded related-count deltas, and the fold under way. */
  private deltaBatches = 0;
  private folding: Promise<number> | null = null;

  /** A write of a counted resource left deltas: every FOLD_EVERY such writes, fold in the background. */
  private countDeltasMade(batch: readonly WriteOp[]): void {
    if (!batch.some((o) => COUNTED_RESOURCES.has(o.resource))) return;
    if (++this.deltaBatches < FOLD_EVERY || this.folding) return;
    this.deltaBatches = 0;
    // Not awaited by the write; a fold that fails (the store closing) leaves the deltas for the next.
    this.folding = this.foldCounts(4)
      .catch(() => 0)
      .finally(() => {
        this.folding = null;
      });
  }

  /**
   * Moves related-count deltas into their base rows (engine/sql/related-counts.ts), FOLD_BATCH per
   * transaction, until none are left or `passes` ran; how many it moved. Reads are right either
   * way (base plus deltas): folding keeps them reading few rows.
   */
  async foldCounts(passes = Infinity): Promise<number> {
    const { d } = this.ready();
    let moved = 0;
    for (let pass = 0; pass < passes; pass++) {
      const n = await this.againIfVictim(() =>
        this.guard(() =>
          this.driver.transaction(async (s) => {
            const taken = (await s.query(takeDeltas(d).sql, [])).rows;
            if (!taken.length) return 0;
            const add = addToBase(d, taken);
            if (add) await s.query(add.sql, add.params);
            const drop = dropDeltas(
              d,
              taken.map((r) => r.id as string | number),
            );
            await s.query(drop.sql, drop.params);
            return taken.length;
          }),
        ),
      );
      moved += n;
      if (n < FOLD_BATCH) break;
    }
    return moved;
  }

  /**
   * Creates of one resource and their records in one statement (WriteStatements.createsLogged), the
   * most frequent write: one round trip instead of five. undefined where the batch is of another shape.
   */
  private async createsLogged(batch: readonly WriteOp[], count: number): Promise<ApplyResult | undefined> {
    const data = batch.filter((o) => o.resource !== CHANGE_RESOURCE);
    const [g, ...more] = groups(data);
    // Address resources keep bookkeeping of their own in the write's transaction (allocation): not here.
    if (more.length || g?.kind !== 'create' || g.m.net) return undefined;
    const records = numberChanges(
      batch.filter((o) => o.resource === CHANGE_RESOURCE),
      1,
    ).map((o) => (o as Extract<WriteOp, { op: 'create' }>).row);
    const st = this.ready().writes.createsLogged(
      g.m,
      g.ops.map((o) => o.row),
      records,
    );
    if (!st) return undefined;
    const r = await this.guard(async () => {
      try {
        return await this.driver.autocommit(st.sql, st.params);
      } catch (e) {
        throw await this.writeError(e, g, NO_SESSION);
      }
    });
    const seq = Math.max(...r.rows.map((x) => Number(x.seq)));
    if (r.rows.length !== count) throw new Error(`createsLogged: ${r.rows.length} records written, ${count} expected`);
    noteSeq(seq);
    noteCommitted(seq, { store: this, types: typesWritten(batch) });
    return { seq };
  }

  /**
   * Runs a write again when the database chose it as a deadlock's victim (rolled back whole, so
   * nothing of it stays): writes that raise the same related counters in other orders may meet so.
   * Still a victim after a few tries: 503, try again later.
   */
  private async againIfVictim<T>(write: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (e) {
        if (
          e instanceof StorageConflict ||
          e instanceof StorageUnavailable ||
          this.driver.classify(e).kind !== 'victim'
        )
          throw e;
        if (attempt >= VICTIM_TRIES)
          throw new StorageUnavailable(
            `${this.dialect.label}: a deadlock with other writes, ${VICTIM_TRIES} times over`,
          );
        await new Promise((r) => setTimeout(r, Math.random() * 4 * attempt)); // apart, so the same two do not meet again at once
      }
    }
  }

  private async writeGroup(s: SqlSession, g: Group): Promise<void> {
    try {
      await this.write(s, g);
    } catch (e) {
      throw await this.writeError(e, g, s);
    }
  }

  /** Raises the change counter by `count` (past `carried`) in the transaction; the new value. */
  private async takeNumbers(s: SqlSession, count: number, carried: number): Promise<number> {
    const { d } = this.ready();
    const take = takeNumbers(d, count, carried);
    const r = await s.query(take.sql, take.params);
    if (r.insertId) return r.insertId; // MySQL: LAST_INSERT_ID(expr) comes back with the UPDATE, no SELECT
    const read = readTaken(d);
    const row = read ? (await s.query(read.sql, read.params)).rows[0] : r.rows[0];
    return Number(row.seq);
  }

  /**
   * Every row of every resource in one consistent snapshot, each table in id order a page at a
   * time (`each` per page), and the change seq that snapshot holds: what a replica loads.
   */
  async snapshotRows(
    each: (resource: string, rows: Row[]) => void,
    resources: readonly string[] = TABLE_MODELS.map((m) => m.resource.name),
  ): Promise<number> {
    const { d, compiler } = this.ready();
    return this.guard(() =>
      this.driver.readSnapshot(async (s) => {
        const counter = currentNumber(d);
        const seq = Number((await s.query(counter.sql, counter.params)).rows[0]?.seq ?? 0);
        for (const resource of resources) {
          const head = compiler.heads(resource).select;
          const id = `m.${d.quote('id')}`;
          for (let after: string | null = null; ;) {
            const b = new SqlBuilder(d).emit(head);
            if (after !== null) b.emit(` WHERE ${id} > `).param(after, 'uuid');
            const page = b.emit(` ORDER BY ${id} LIMIT ${SNAPSHOT_PAGE}`).build();
            const got = await s.query(page.sql, page.params);
            const rows = this.rows(resource, got);
            if (rows.length) each(resource, rows);
            if (rows.length < SNAPSHOT_PAGE) break;
            after = rows[rows.length - 1].id;
          }
        }
        return seq;
      }),
    );
  }

  async changeSeq(): Promise<number> {
    const st = currentNumber(this.ready().d);
    return Number((await this.query(st.sql, st.params)).rows[0]?.seq ?? 0);
  }

  /**
   * A database-wide named lock (advisory lock / GET_LOCK) on a connection of its own. Callers in
   * this process queue first, so one connection at most waits for the lock: a pool spent on
   * waiters would leave the holder none for its own statements.
   */
  serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.locks.run(key, () => this.guard(() => this.driver.exclusive(`netinv.${key}`, () => fn())));
  }
  private readonly locks = new KeyedLock();

  private async write(s: SqlSession, g: Group): Promise<void> {
    const w = this.ready().writes;
    const m = g.m;
    switch (g.kind) {
      case 'create': {
        const rows = g.ops.map((o) => o.row);
        for (const st of w.insert(m, rows)) await s.query(st.sql, st.params);
        for (const st of w.insertTags(m, rows)) await s.query(st.sql, st.params);
        await afterPrefixCreates(s, this.driver, this.ready().d, m, rows);
        return;
      }
      case 'update': {
        const row = g.op.row;
        const expect = g.op.expectVersion;
        const changed = (v: unknown) => new StorageConflict('version', MSG.versionChanged(v, expect!));
        if (!LOWER_UUID.test(row.id)) throw new StorageConflict('id', MSG.notFound);
        if (expect !== undefined && !m.byField.has('version'))
          // memory compares an absent version
          throw (await this.exists(s, m, row.id)) ? changed(undefined) : new StorageConflict('id', MSG.notFound);
        await beforeUpdate(s, this.ready().d, m, row);
        const moved = await beforePrefixUpdate(s, this.ready().d, m, row);
        const st = w.update(m, row, expect);
        if ((await s.query(st.sql, st.params)).rowCount === 0) {
          // No such object, or (compare-and-swap) another version is stored.
          const v = expect === undefined ? null : await this.storedVersion(s, m, row.id);
          if (v === null) throw new StorageConflict('id', MSG.notFound);
          throw changed(v);
        }
        if (moved) await afterPrefixCreates(s, this.driver, this.ready().d, m, [row]);
        const del = w.deleteTags(m, row.id);
        if (del) {
          await s.query(del.sql, del.params);
          for (const t of w.insertTags(m, [row])) await s.query(t.sql, t.params);
        }
        return;
      }
      case 'delete': {
        const { id, expectVersion: expect } = g.op;
        if (!LOWER_UUID.test(id)) return; // no such object: nothing to delete, as in memory
        // Memory compares the version before it looks for references; the DELETE compares it again.
        const checkVersion = async () => {
          const v = await this.storedVersion(s, m, id);
          if (v !== null && v !== expect) throw new StorageConflict('version', MSG.versionChanged(v, expect!));
          return v !== null;
        };
        if (expect !== undefined && !(await checkVersion())) return;
        const check = w.refCheck(m, id);
        if (check) {
          const hit = Number((await s.query(check.stmt.sql, check.stmt.params)).rows[0].hit);
          if (hit >= 0) {
            const h = check.hits[hit];
            throw h.kind === 'tags'
              ? new StorageConflict('tags', MSG.tagAssigned)
              : new StorageConflict(h.field, MSG.referencedBy(h.model.resource.label));
          }
        }
        await beforeDelete(s, this.ready().d, m);
        await beforePrefixDelete(s, this.ready().d, m, id);
        const st = w.delete(m, id, expect);
        if ((await s.query(st.sql, st.params)).rowCount === 0 && expect !== undefined) await checkVersion();
        return;
      }
    }
  }

  /** The stored row's version (0 when written without one), or null when there is no such row or version column. */
  private async storedVersion(s: SqlSession, m: TableModel, id: string): Promise<number | null> {
    const rv = this.ready().writes.readVersion(m, id);
    const found = rv ? (await s.query(rv.sql, rv.params)).rows[0] : undefined;
    return found ? versionOf({ id, version: this.driver.decode(m.byField.get('version')!, found.v) }) : null;
  }

  private async exists(s: SqlSession, m: TableModel, id: string): Promise<boolean> {
    const { d } = this.ready();
    const one = new SqlBuilder(d)
      .emit(`SELECT 1 AS one FROM ${d.quote(m.table)} WHERE ${d.quote('id')} = `)
      .param(id, 'uuid')
      .build();
    const r = await s.query(one.sql, one.params);
    return r.rows.length > 0;
  }

  /** A failed write statement -> StorageConflict naming the field, as the memory store would. */
  private async writeError(e: unknown, g: Group, s: SqlSession): Promise<unknown> {
    if (e instanceof StorageConflict) return e;
    const c = this.driver.classify(e);
    if (c.kind === 'unavailable') return new StorageUnavailable(c.message);
    if (c.kind === 'unique') return uniqueConflict(c.constraint) ?? e;
    if (c.kind !== 'fk') return e;
    const op: WriteOp = g.kind === 'create' ? g.ops[0] : g.op;
    if (g.kind === 'delete') return fkConflict(c.constraint, op, null) ?? e;
    const missing = c.value !== null ? { value: c.value, row: 0 } : await this.missingValue(s, g, c.constraint);
    // Tags are written after the rows: their rows' keys were taken without a clash.
    const ofRows = fkOwner(c.constraint)?.field !== 'tags';
    return (
      (ofRows ? await this.keyClashBefore(s, g, missing?.row ?? 0) : null) ??
      fkConflict(c.constraint, op, missing?.value ?? null) ??
      e
    );
  }

  /**
   * Memory checks a row's id and unique fields before its references. MySQL 9 checks references
   * first (MariaDB and PostgreSQL after): a row with both a taken key and a missing reference, or a
   * taken key in a row before the one whose reference is missing, is found here by writing the rows
   * up to that one again with reference checks off (undone at once).
   */
  private async keyClashBefore(
    s: SqlSession,
    g: Exclude<Group, { kind: 'delete' }>,
    upTo: number,
  ): Promise<StorageConflict | null> {
    const { driver } = this;
    if (!driver.withoutReferenceChecks) return null;
    const w = this.ready().writes;
    const statements =
      g.kind === 'create'
        ? w.insert(
            g.m,
            g.ops.slice(0, upTo + 1).map((o) => o.row),
          )
        : [w.update(g.m, g.op.row, g.op.expectVersion)];
    return driver.withoutReferenceChecks(s, async (): Promise<StorageConflict | null> => {
      try {
        for (const st of statements) await s.query(st.sql, st.params);
        return null;
      } catch (e) {
        const c = driver.classify(e);
        return c.kind === 'unique' ? uniqueConflict(c.constraint) : null;
      }
    });
  }

  /** The first referenced id of the failed rows that does not exist, and its row (MySQL errors do not say). */
  private async missingValue(
    s: SqlSession,
    g: Exclude<Group, { kind: 'delete' }>,
    constraint: string,
  ): Promise<{ value: string; row: number } | null> {
    const owner = fkOwner(constraint);
    if (!owner) return null;
    const rows = g.kind === 'create' ? g.ops.map((o) => o.row) : [g.op.row];
    const candidates = rows.flatMap((r, row) =>
      (owner.field === 'tags' ? ((r.tags as string[] | undefined) ?? []) : [r[owner.field] as string])
        .filter((value): value is string => typeof value === 'string')
        .map((value) => ({ value, row })),
    );
    if (!candidates.length) return null;
    if (!this.driver.withoutReferenceChecks) return candidates[0]; // the transaction is aborted: no queries
    try {
      const { d } = this.ready();
      const b = new SqlBuilder(d).emit(
        `SELECT ${d.quote('id')} AS id FROM ${d.quote(tableModel(owner.target).table)} WHERE `,
      );
      d.inList(b, d.quote('id'), [...new Set(candidates.map((c) => c.value))], 'uuid');
      const st = b.build();
      const found = new Set((await s.query(st.sql, st.params)).rows.map((r) => String(r.id)));
      return candidates.find((c) => !found.has(c.value)) ?? null;
    } catch {
      return candidates[0];
    }
  }

  /** Test helper: empties every table (join tables and dependents first). */
  async truncateAll(): Promise<void> {
    const { d } = this.ready();
    await this.guard(() =>
      this.driver.transaction(async (s) => {
        for (const m of [...TABLE_MODELS].reverse()) {
          if (m.tagsTable) await s.query(`DELETE FROM ${d.quote(m.tagsTable)}`);
          if (m.resource.tree) await s.query(`UPDATE ${d.quote(m.table)} SET ${d.quote(m.resource.tree)} = NULL`);
          for (const f of m.fks.filter((x) => x.deferred))
            await s.query(`UPDATE ${d.quote(m.table)} SET ${d.quote(f.field)} = NULL`);
          await beforeDelete(s, d, m);
          await afterAllPrefixesDeleted(s, d, m);
          await s.query(`DELETE FROM ${d.quote(m.table)}`);
        }
      }),
    );
  }
}
