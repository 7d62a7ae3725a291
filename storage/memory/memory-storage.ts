// The embedded store: indexed tables in memory, optionally journaled to a directory.
// A batch is checked and applied synchronously with an undo log, so it is all or nothing.
import type { Plan } from '../../engine/plan/nodes.js';
import { IndexedTable } from '../../engine/memory/indexed-table.js';
import { evaluateSteps, explainSteps } from '../../engine/memory/evaluate.js';
import { runStepwise } from './stepwise.js';
import { RESOURCES, resource } from '../../engine/schema/registry.js';
import type { FieldDef, ResourceDef } from '../../engine/schema/types.js';
import { StorageConflict, type FindOptions, type FindResult, type Page, type Row, type Storage, type StorageOptions, type WriteOp } from '../types.js';
import { Journal, type Snapshot } from './journal.js';

export class MemoryStorage implements Storage {
  readonly kind = 'memory' as const;
  private readonly tables = new Map<string, IndexedTable>();
  private readonly journal: Journal | null;
  /** Foreign keys pointing at each resource: [referencing resource, field]. */
  private readonly inbound = new Map<string, [ResourceDef, string][]>();
  /** Applied batches so far: a query that paused sees whether the data moved under it. */
  private writes = 0;
  /** Per resource, the fields a write checks (unique, foreign keys, tags), in declaration order. */
  private readonly checked = new Map<string, readonly FieldDef[]>();

  constructor(dir: string | null, private readonly opts: StorageOptions = {}) {
    for (const r of RESOURCES) this.tables.set(r.name, new IndexedTable(r));
    for (const r of RESOURCES) this.checked.set(r.name, r.fields.filter((f) => f.unique || f.kind === 'fk' || f.kind === 'tags'));
    for (const r of RESOURCES) for (const f of r.fields) if (f.kind === 'fk') {
      const list = this.inbound.get(f.target!) ?? [];
      list.push([r, f.name]);
      this.inbound.set(f.target!, list);
    }
    this.journal = dir ? new Journal(dir) : null;
  }

  table(name: string): IndexedTable {
    const t = this.tables.get(name);
    if (!t) throw new Error(`unknown resource ${name}`);
    return t;
  }

  async open(): Promise<void> {
    if (!this.journal) return;
    const { snapshot, batches } = this.journal.load();
    for (const r of RESOURCES) for (const row of snapshot[r.name] ?? []) this.table(r.name).insert(row);
    for (const b of batches) this.applySync(b);
    const state: Snapshot = {};
    for (const r of RESOURCES) state[r.name] = [...this.table(r.name).all()];
    this.journal.compact(state);
    await this.afterBulkLoad();
  }

  async close(): Promise<void> { this.journal?.close(); }

  async get(resourceName: string, id: string): Promise<Row | null> {
    return this.table(resourceName).get(id) ?? null;
  }

  async getMany(resourceName: string, ids: readonly string[]): Promise<Row[]> {
    const t = this.table(resourceName);
    return ids.map((id) => t.get(id)).filter((r): r is Row => !!r);
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
    return runStepwise(() => evaluateSteps(t, plan, page, this), this.stepControl(opts.signal));
  }

  async explain(resourceName: string, plan: Plan, page?: Page): Promise<unknown> {
    const t = this.table(resourceName);
    return runStepwise(() => explainSteps(t, plan, this, page), this.stepControl());
  }

  private stepControl(signal?: AbortSignal) {
    return { budgetMs: this.opts.queryTimeoutMs ?? 0, version: () => this.writes, signal };
  }

  /** Indexes are always current; this only sorts now what the first query would otherwise sort. */
  async afterBulkLoad(): Promise<void> {
    for (const t of this.tables.values()) t.flushIndexes();
  }

  async apply(ops: readonly WriteOp[]): Promise<void> {
    const undo = this.applySync(ops);
    if (!this.journal) return;
    try {
      this.journal.append(ops);
    } catch (e) {
      undo();
      throw e;
    }
  }

  /** Apply all ops or none; returns a function that reverts them. */
  private applySync(ops: readonly WriteOp[]): () => void {
    this.writes++;
    const undos: (() => void)[] = [];
    const revert = () => { for (const u of undos.reverse()) u(); };
    try {
      for (const op of ops) {
        const t = this.table(op.resource);
        if (op.op === 'delete') {
          const old = t.get(op.id);
          if (!old) continue;
          this.checkNoReferences(op.resource, op.id);
          t.remove(op.id);
          undos.push(() => t.insert(old));
        } else {
          // A create needs only to know the id is free; an update needs the old row for its undo.
          if (op.op === 'create' && t.has(op.row.id)) throw new StorageConflict('id', 'An object with this id already exists.');
          const old = op.op === 'create' ? undefined : t.get(op.row.id);
          if (op.op === 'update' && !old) throw new StorageConflict('id', 'Not found.');
          if (op.op === 'update' && op.expectVersion !== undefined && old!.version !== op.expectVersion)
            throw new StorageConflict('version', `The object changed meanwhile (version ${String(old!.version)}, expected ${op.expectVersion}).`);
          this.checkRow(t, op.row);
          if (old) { t.replace(op.row); undos.push(() => t.replace(old)); }
          else { t.insert(op.row); undos.push(() => t.remove(op.row.id)); }
        }
      }
    } catch (e) {
      revert();
      throw e;
    }
    return revert;
  }

  private checkRow(t: IndexedTable, row: Row): void {
    const def = t.def;
    const others = (field: string, value: unknown) =>
      [...(t.hashOf(field)?.get(value as string) ?? [])].filter((s) => t.idOf(s) !== row.id);
    for (const f of this.checked.get(def.name)!) {
      const v = row[f.name];
      if (f.unique && v !== null && v !== undefined && others(f.name, v).length)
        throw new StorageConflict(f.name, `${resource(def.name).label} with this ${f.label.toLowerCase()} already exists.`);
      if (f.kind === 'fk' && v !== null && v !== undefined && !this.table(f.target!).has(v as string))
        throw new StorageConflict(f.name, `Related object not found using the provided ID: ${v}`);
      if (f.kind === 'tags') for (const tagId of (v as string[] | undefined) ?? [])
        if (!this.table('tag').has(tagId)) throw new StorageConflict(f.name, `Related object not found using the provided ID: ${tagId}`);
    }
    for (const group of def.uniqueTogether ?? []) {
      const [first, ...rest] = group;
      const clash = others(first, row[first]).some((s) => rest.every((n) => t.value(s, n) === row[n]));
      if (clash) throw new StorageConflict(group[group.length - 1], `${def.label} with this ${group.join(' and ')} already exists.`);
    }
  }

  private checkNoReferences(resourceName: string, id: string): void {
    for (const [r, fieldName] of this.inbound.get(resourceName) ?? []) {
      if (this.table(r.name).hashOf(fieldName)?.count(id))
        throw new StorageConflict(fieldName, `Cannot delete: referenced by ${r.label.toLowerCase()} objects.`);
    }
    if (resourceName === 'tag') for (const t of this.tables.values())
      if (t.tags?.count(id)) throw new StorageConflict('tags', 'Cannot delete: tag is still assigned.');
  }
}
