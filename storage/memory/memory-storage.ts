// The embedded store: indexed tables in memory, optionally journaled to a directory.
// A batch is checked and applied synchronously with an undo log, so it is all or nothing.
import { randomUUID } from 'node:crypto';
import { ReadGenerations } from './read-generations.js';
import { KeyedLock } from '../keyed-lock.js';
import type { Plan } from '../../engine/plan/nodes.js';
import type { OrderKey } from '../../engine/plan/page.js';
import { IndexedTable } from '../../engine/memory/indexed-table.js';
import { allMatch, evaluateSteps, explainSteps } from '../../engine/memory/evaluate.js';
import { runStepwise } from './stepwise.js';
import { scanTable } from './scan.js';
import { RESOURCES } from '../../engine/schema/registry.js';
import { MSG } from '../../engine/schema/messages.js';
import { heldByOther, writeChecks, type WriteChecks } from './write-checks.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import {
  CheckFailed,
  StorageConflict,
  versionOf,
  type FindOptions,
  type FindResult,
  type Page,
  type ScanOptions,
  type Row,
  type Storage,
  type StorageOptions,
  type WriteOp,
  type NetBlock,
  type ApplyOptions,
  type ApplyResult,
  type MemoryReadState,
  type RowCheck,
} from '../types.js';
import { CHANGE_RESOURCE, numberChanges, toNumber } from '../../engine/changes/change-records.js';
import { withChangeRecords } from '../change-log/logged-batch.js';
import { noteSeq } from '../change-log/write-context.js';
import { noteCommitted, typesWritten } from '../change-log/change-feed.js';
import { Journal } from './journal.js';
import { isRun, type PackedBatch } from './journal-rows.js';
import { tableCoveredSpans } from './covered-spans.js';
import type { CoveredSpans } from '../../engine/allocation/free-space.js';
import type { AddrHex } from '../../engine/net/ip.js';
import { UndoLog } from './undo-log.js';
import { ID_STYLE, type IdStyle } from '../../engine/schema/id-style.js';
import { NewIds } from './id-counters.js';

export class MemoryStorage implements Storage {
  readonly kind = 'memory' as const;
  /** The store's id style: ID_STYLE's (default uuid) until open() reads a directory's own. */
  private style: IdStyle;
  private newIdSource: NewIds;
  private readonly tables = new Map<string, IndexedTable>();
  private readonly journal: Journal | null;
  /** Foreign keys pointing at each resource: [referencing resource, field]. */
  private readonly inbound = new Map<string, [ResourceDef, string][]>();
  /** Changes taken so far (read-generations.ts). */
  private readonly gens = new ReadGenerations();
  /** Tells this instance's generations apart from another's (a restart counts again from 0). */
  private readonly epoch = randomUUID().slice(0, 8);
  /** Per resource, what a write checks. */
  private readonly checked = new Map<string, WriteChecks>();

  constructor(
    dir: string | null,
    private readonly opts: StorageOptions = {},
  ) {
    this.style = ID_STYLE[opts.idStyle ?? 'uuid'];
    this.newIdSource = new NewIds(this.style);
    for (const r of RESOURCES) this.tables.set(r.name, new IndexedTable(r, this.style));
    for (const r of RESOURCES) this.checked.set(r.name, writeChecks(r));
    for (const r of RESOURCES)
      for (const f of r.fields)
        if (f.kind === 'fk') {
          const list = this.inbound.get(f.target!) ?? [];
          list.push([r, f.name]);
          this.inbound.set(f.target!, list);
        }
    this.journal = dir ? new Journal(dir, opts.log ?? ((m) => console.warn(m))) : null;
  }

  get ids(): IdStyle {
    return this.style;
  }

  /**
   * An empty store takes `style` (its tables made again for it): a directory's own at open, or a
   * replica its primary's. A store holding rows keeps its style.
   */
  adoptIdStyle(style: IdStyle): void {
    if (style.name === this.style.name) return;
    for (const t of this.tables.values())
      if (t.size) throw new Error(`a memory store holding rows keeps its ${this.style.name} ids`);
    this.style = style;
    this.newIdSource = new NewIds(style);
    for (const r of RESOURCES) this.tables.set(r.name, new IndexedTable(r, style));
  }

  async newIds(resource: string, n: number): Promise<string[]> {
    this.table(resource); // an unknown resource throws
    return this.newIdSource.take(resource, n);
  }

  /** Creates move the counters already (id-counters.ts); this catches up with rows put in otherwise. */
  async advanceIdCounters(): Promise<void> {
    this.newIdSource.advance((r) => this.table(r).maxIntegerId());
  }

  table(name: string): IndexedTable {
    const t = this.tables.get(name);
    if (!t) throw new Error(`unknown resource ${name}`);
    return t;
  }

  async open(): Promise<void> {
    if (!this.journal) return;
    const loaded = this.journal.load(this.opts.idStyle);
    this.adoptIdStyle(loaded.ids);
    loaded.readSnapshot({
      image: (resource, image) => this.table(resource).loadImage(image),
      row: (resource, row) => this.table(resource).insert(row),
      reserve: (resource, n) => this.table(resource).reserve(n),
      counters: (ids) => this.newIdSource.load(ids),
    });
    const replay = loaded.replay((b, read) => this.replaySync(b, read));
    await this.advanceIdCounters();
    // Only a clean replay is compacted (after a dropped torn end the journal stays as it is, cut to
    // its good records), and only when that changes something: a start after a compaction is a read.
    if (replay.clean && replay.worthCompacting) {
      if (this.deferred) this.owed = true;
      else await this.journal.compactAtStart(() => this.images(), RESOURCES.length, this.newIdSource.record());
    }
    this.lastSeq = this.highestSeq();
    if (!this.deferred) await this.afterBulkLoad();
  }

  /** Each table's image, made as it is asked for. */
  private *images() {
    for (const r of RESOURCES) yield { resource: r.name, image: this.tables.get(r.name)!.image() };
  }

  /** deferStartWork() was called: open() leaves sorting and compaction to afterListening(). */
  private deferred = false;
  /** A compaction open() left undone. */
  private owed = false;
  /** The compaction afterListening() is making: writes wait for it. */
  private compacting: Promise<void> | null = null;

  /**
   * Call before open(): what a start may leave until the server listens is left to
   * afterListening(): sorting the indexes (the first query would sort them otherwise) and the
   * compaction (the journal folded into a new snapshot). Until the compaction the journal is the
   * store, as it was; writes made before it are in the snapshot it writes.
   */
  deferStartWork(): void {
    this.deferred = true;
  }

  /**
   * Does what open() left (deferStartWork) while the store serves: sorts the indexes (one step),
   * then makes the compaction, if one is owed: reads go on between its writes, writes wait until
   * it is done (its snapshot is the state when it began; the journal it replaces must hold nothing
   * newer). A failed compaction is logged and the journal stays the store, as at a start that
   * cannot compact (a full disk). Resolves when it is done.
   */
  afterListening(): Promise<void> {
    if (!this.deferred || this.compacting) return this.compacting ?? Promise.resolve();
    this.deferred = false;
    const log = this.opts.log ?? ((m: string) => console.warn(m));
    const owed = this.owed && this.journal;
    this.owed = false;
    this.compacting = (async () => {
      await new Promise((resolve) => setImmediate(resolve)); // after the caller's own next steps (its start line)
      await this.afterBulkLoad();
      if (owed) await owed.compactAtStart(() => this.images(), RESOURCES.length, this.newIdSource.record());
    })()
      .catch((e: unknown) =>
        log(
          `memory store: the snapshot of this start could not be written (${(e as Error).message}): ` +
            'serving from the journal as it is; a later start compacts it',
        ),
      )
      .finally(() => {
        this.compacting = null;
      });
    return this.compacting;
  }

  async close(): Promise<void> {
    await this.compacting;
    this.journal?.close();
  }

  async get(resourceName: string, id: string): Promise<Row | null> {
    return this.table(resourceName).get(id) ?? null;
  }

  async getMany(resourceName: string, ids: readonly string[]): Promise<Row[]> {
    const t = this.table(resourceName);
    return ids.map((id) => t.get(id)).filter((r): r is Row => !!r);
  }

  async countRefs(
    resourceName: string,
    fieldName: string,
    ids: readonly string[],
  ): Promise<ReadonlyMap<string, number>> {
    const t = this.table(resourceName);
    const h = (await runStepwise(() => t.hashOfSteps(fieldName), this.stepControl()))!; // every foreign key has one
    const out = new Map<string, number>();
    for (const id of ids) {
      const n = h.count(id);
      if (n) out.set(id, n);
    }
    return out;
  }

  async findBy(resourceName: string, fieldName: string, value: unknown): Promise<Row[]> {
    const t = this.table(resourceName);
    if (fieldName === 'tags') return [...(t.tags?.get(value as string) ?? [])].map((s) => t.row(s)!);
    const h = t.hashOf(fieldName);
    if (h) return [...(h.get(value as string) ?? [])].map((s) => t.row(s)!);
    return [...t.all()].filter((r) => r[fieldName] === value);
  }

  async find(resourceName: string, plan: Plan, page: Page, opts: FindOptions = {}): Promise<FindResult> {
    const t = this.table(resourceName);
    return runStepwise(() => evaluateSteps(t, plan, page, this, true, opts.noCount), this.stepControl(opts.signal));
  }

  scan(resourceName: string, plan: Plan, ordering: readonly OrderKey[], opts: ScanOptions): AsyncIterable<Row[]> {
    return scanTable(this.table(resourceName), this, plan, ordering, opts, this.stepControl(opts.signal));
  }

  async explain(resourceName: string, plan: Plan, page?: Page): Promise<unknown> {
    const t = this.table(resourceName);
    return runStepwise(() => explainSteps(t, plan, this, page), this.stepControl());
  }

  private stepControl(signal?: AbortSignal) {
    return { budgetMs: this.opts.queryTimeoutMs ?? 0, version: () => this.gens.any, signal };
  }

  async serverVersion(): Promise<null> {
    return null;
  }

  async coveredSpans(
    resource: 'prefix' | 'ip_address',
    block: NetBlock,
    max: number,
    from?: AddrHex,
  ): Promise<CoveredSpans> {
    return tableCoveredSpans(this.table(resource), resource === 'ip_address', block, max, from);
  }

  /** The index's walk costs one step per run of touching children: no hints needed. */
  async allocationHint(): Promise<null> {
    return null;
  }
  async saveAllocationHint(): Promise<void> {}

  /** Indexes are always current; this only sorts now what the first query would otherwise sort. */
  async afterBulkLoad(): Promise<void> {
    for (const t of this.tables.values()) t.flushIndexes();
  }

  async apply(ops: readonly WriteOp[], opts: ApplyOptions = {}): Promise<ApplyResult> {
    while (this.compacting) await this.compacting;
    // Numbered, applied and journaled with no await in between: batches take numbers in the order they commit.
    let batch = withChangeRecords(ops, opts);
    const { count, carried } = toNumber(batch);
    const base = Math.max(this.lastSeq, carried);
    if (count) batch = numberChanges(batch, base + 1, new Date().toISOString());
    // The checks and the writes with no await in between: no other batch falls between them.
    this.check(opts.checks, 'before');
    const undo = this.applySync(batch);
    try {
      this.check(opts.checks, 'after');
      this.journal?.append(batch);
    } catch (e) {
      undo();
      throw e;
    }
    this.lastSeq = base + count;
    const seq = count ? this.lastSeq : null;
    noteSeq(seq);
    if (seq !== null) noteCommitted(seq, { store: this, types: typesWritten(batch) });
    return { seq };
  }

  async changeSeq(): Promise<number> {
    return this.lastSeq;
  }

  /** Every read is answered from memory, at the generation of its resource (read-generations.ts). */
  memoryRead(resource?: string): MemoryReadState {
    return { gen: this.gens.of(resource), tag: `m${this.epoch}.${this.gens.of(resource)}` };
  }

  /** The last change seq handed out: the highest record held (retention always keeps the newest). */
  private lastSeq = 0;

  private highestSeq(): number {
    let max = 0;
    for (const row of this.table(CHANGE_RESOURCE).all()) if ((row.seq as number) > max) max = row.seq as number;
    return max;
  }

  /** Empties every table (a replica's reload). */
  clear(): void {
    this.gens.moved();
    for (const r of RESOURCES) this.tables.set(r.name, new IndexedTable(r, this.style));
  }

  /**
   * A replica's load and its following: rows as the authority holds them, put in place with no
   * checks (the database checked them) and no change records or journal (the database logged them).
   * `row: null` removes the object.
   */
  mirror(changes: readonly { readonly resource: string; readonly id: string; readonly row: Row | null }[]): void {
    this.gens.moved(changes);
    for (const c of changes) {
      const t = this.table(c.resource);
      if (c.row === null) {
        t.remove(c.id);
        continue;
      }
      if (t.has(c.id)) t.replace(c.row);
      else t.insert(c.row);
    }
  }

  /** One process owns a memory store: an in-process lock serialises. */
  serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
    return this.locks.run(key, fn);
  }
  private readonly locks = new KeyedLock();

  private check(checks: ApplyOptions['checks'], when: RowCheck['when']): void {
    for (const c of checks ?? [])
      if (c.when === when && !allMatch(this.table(c.resource), c.plan, this, c.ids)) throw new CheckFailed(c);
  }

  /** Apply all ops or none; returns a function that reverts them. */
  private applySync(ops: readonly WriteOp[]): () => void {
    this.gens.moved(ops);
    const undo = new UndoLog();
    // References found to exist, per target resource: a bulk load names the same few sites or
    // tags row after row. Only a delete can make one disappear, and it empties the memo.
    const seen = new Map<string, Set<unknown>>();
    try {
      for (const op of ops) {
        const t = this.table(op.resource);
        if (op.op === 'delete') {
          const old = t.get(op.id);
          if (!old) continue;
          if (op.expectVersion !== undefined && versionOf(old) !== op.expectVersion)
            throw new StorageConflict('version', MSG.versionChanged(versionOf(old), op.expectVersion));
          this.checkNoReferences(op.resource, op.id);
          t.remove(op.id);
          seen.clear();
          undo.removed(t, old);
        } else if (op.op === 'create') {
          // The store finds a taken id in the same probe that places a free one; the row's other
          // checks follow (a taken id is reported first, as a database's primary key does).
          if (!t.add(op.row)) throw new StorageConflict('id', MSG.idExists);
          undo.created(t, op.row.id);
          this.newIdSource.saw(op.resource, op.row.id);
          this.checkRow(t, op.row, seen);
        } else {
          const old = t.get(op.row.id);
          if (!old) throw new StorageConflict('id', MSG.notFound);
          if (op.expectVersion !== undefined && versionOf(old) !== op.expectVersion)
            throw new StorageConflict('version', MSG.versionChanged(versionOf(old), op.expectVersion));
          this.checkRow(t, op.row, seen);
          t.replace(op.row);
          undo.replaced(t, old);
        }
      }
    } catch (e) {
      undo.revert();
      throw e;
    }
    return () => undo.revert();
  }

  /**
   * A journaled batch put back at a start: it passed applySync's checks when it was written, on the
   * very state the snapshot and the records before it give back, so they are not made again (a
   * third of a replay's time); nor is an undo log kept (a start that fails drops the store). A run
   * of creates is stored from its columns, no object made per row.
   */
  private replaySync(ops: PackedBatch, read: number): void {
    this.gens.moved();
    for (const op of ops) {
      if (isRun(op)) {
        // The rest of the journal is guessed to hold this table's rows as densely as what was read.
        const t = this.table(op.rows);
        t.insertRun(op.keys, op.values, read > 0 ? Math.ceil((t.size + op.values.length) / read) : 0);
        this.newIdSource.sawRun(op.rows, op.keys, op.values);
        continue;
      }
      const t = this.table(op.resource);
      if (op.op === 'delete') t.remove(op.id);
      else if (op.op === 'create') {
        t.insert(op.row);
        this.newIdSource.saw(op.resource, op.row.id);
      } else if (!t.has(op.row.id)) throw new StorageConflict('id', MSG.notFound);
      else t.replace(op.row);
    }
  }

  /** Does a row of `target` with this id exist? Positive answers are kept in `seen`. */
  private exists(target: string, id: unknown, seen: Map<string, Set<unknown>>): boolean {
    let known = seen.get(target);
    if (known?.has(id)) return true;
    if (!this.table(target).has(id as string)) return false;
    if (!known) seen.set(target, (known = new Set()));
    known.add(id);
    return true;
  }

  private checkRow(t: IndexedTable, row: Row, seen: Map<string, Set<unknown>>): void {
    const c = this.checked.get(t.def.name)!;
    for (const u of c.unique) {
      // A group with an empty field never clashes, as in SQL.
      if (u.fields.some((n) => row[n] === null || row[n] === undefined)) continue;
      const also = u.rest.length ? (s: number) => u.rest.every((n) => t.value(s, n) === row[n]) : undefined;
      if (heldByOther(t, u.fields[0], row[u.fields[0]], row.id, also)) throw new StorageConflict(u.field, u.message);
    }
    for (const fk of c.fks) {
      const v = row[fk.field];
      if (v !== null && v !== undefined && !this.exists(fk.target, v, seen))
        throw new StorageConflict(fk.field, MSG.fkNotFound(String(v)));
    }
    if (c.tags)
      for (const tagId of (row[c.tags] as string[] | undefined) ?? [])
        if (!this.exists('tag', tagId, seen)) throw new StorageConflict(c.tags, MSG.fkNotFound(tagId));
  }

  private checkNoReferences(resourceName: string, id: string): void {
    for (const [r, fieldName] of this.inbound.get(resourceName) ?? []) {
      if (this.table(r.name).hashOf(fieldName)?.count(id))
        throw new StorageConflict(fieldName, MSG.referencedBy(r.label));
    }
    if (resourceName === 'tag')
      for (const t of this.tables.values()) if (t.tags?.count(id)) throw new StorageConflict('tags', MSG.tagAssigned);
  }
}
