// Inventory operations over any Storage: validation from the registry, reference resolution,
// cascades, and one atomic batch per request.
import type { Plan } from '../engine/plan/nodes.js';
import { resource, RESOURCES } from '../engine/schema/registry.js';
import { MSG } from '../engine/schema/messages.js';
import { uniqueGroups } from '../engine/schema/unique-groups.js';
import { ROW_CHECKS } from '../engine/schema/row-checks.js';
import { idStyleOf } from '../engine/schema/id-style.js';
import type { CustomFieldDef, ResourceDef } from '../engine/schema/types.js';
import { validateInput, type FieldErrors, type ValidInput } from '../engine/schema/validate-input.js';
import { DeleteBatch } from './delete-batch.js';
import { uniqueClashes, wouldLoop } from './row-clashes.js';
import { resolveRefs } from './references.js';
import {
  CheckFailed,
  StorageConflict,
  versionOf,
  type RowCheck,
  type FindOptions,
  type FindResult,
  type Page,
  type Row,
  type Storage,
  type WriteOp,
} from '../storage/types.js';
import { faultAt } from '../storage/fault-points.js';
import { WriteKeys, type KeyedWrite } from './write-keys.js';
import { CustomFieldDefs, customFieldNames, definitionsWritten } from './custom-field-defs.js';
import type { Refused, WriteErrors } from './errors.js';
import { DEFAULT_TOKEN_RECHECK_MS } from './tokens.js';
import type { Principal } from './principal.js';
import { WriteScope, type Visible } from './write-scope.js';
import { forbidden, kept, keyTaken, stale } from './write-refusals.js';

export type WriteResult<T> = { ok: true; value: T } | Refused<WriteErrors>;

/** The versions a client's If-Match accepts; null when it sent none (or `*`). */
export type Precondition = readonly number[] | null;

const nowIso = () => new Date().toISOString();

/**
 * How often a read-modify-write is tried again after another writer changed a row it read. Each
 * try reads anew, so two clients changing different fields of one object both keep their change.
 */
const WRITE_ATTEMPTS = 20;

/** Another writer got there first: read again and redo (or, under If-Match, refuse: precondition_failed). */
const STALE = Symbol('stale');

export { KEY_TAKEN } from './write-refusals.js';

/** Default time to live of an Idempotency-Key (IDEMPOTENCY_TTL_S). */
const KEY_TTL_MS = 24 * 3600_000;

/**
 * A check of a row, by resource, that needs this process's settings or I/O (a webhook's target:
 * WEBHOOK_ALLOWED_HOSTS).
 */
export type RowPolicy = (row: Row) => Promise<FieldErrors>;

export class Inventory {
  private readonly cfDefs: CustomFieldDefs;

  /** Idempotency-Key rows of inventory writes, written in the batch of the write each answers. */
  readonly keys: WriteKeys;
  /** Checks of a resource's rows beyond the registry's (a webhook's target against WEBHOOK_ALLOWED_HOSTS). */
  readonly policies: Readonly<Record<string, RowPolicy>>;

  /** `recheckMs`: how long another process's change of a definition may go unseen (TOKEN_RECHECK_MS). */
  constructor(
    readonly storage: Storage,
    opts: {
      readonly keyTtlMs?: number;
      readonly policies?: Readonly<Record<string, RowPolicy>>;
      readonly recheckMs?: number;
    } = {},
  ) {
    this.keys = new WriteKeys(storage, opts.keyTtlMs ?? KEY_TTL_MS);
    this.policies = opts.policies ?? {};
    this.cfDefs = new CustomFieldDefs(storage, opts.recheckMs ?? DEFAULT_TOKEN_RECHECK_MS);
  }

  /** Custom field definitions (custom-field-defs.ts). `again`: read them anew. */
  customFields(again = false): Promise<CustomFieldDef[]> {
    return this.cfDefs.all(again);
  }

  /** Stops following the change log for definitions. */
  close(): void {
    this.cfDefs.close();
  }

  /** A resource's custom field definitions; `named`: fields the request names (read anew when one is missing). */
  customFieldsFor(r: ResourceDef, named: Iterable<string> = []): Promise<CustomFieldDef[]> {
    return this.cfDefs.of(r, named);
  }

  /** What `who`'s object permissions let a write touch (write-scope.ts); null: a write of the system's. */
  private async scope(who: Principal | undefined): Promise<WriteScope | null> {
    if (!who || who.permissions.includes('*')) return null; // `*`: every object, nothing to test
    return new WriteScope(this.storage, who, await this.customFields());
  }

  get(r: ResourceDef, id: string): Promise<Row | null> {
    const known = idStyleOf(r, this.storage.ids).parse(id);
    return known !== null ? this.storage.get(r.name, known) : Promise.resolve(null);
  }

  find(r: ResourceDef, plan: Plan, page: Page, opts?: FindOptions): Promise<FindResult> {
    return this.storage.find(r.name, plan, page, opts);
  }

  /** `who`: the caller, whose object permissions the rows must satisfy once written (none: the system's write). */
  async create(
    r: ResourceDef,
    bodies: readonly unknown[],
    key?: KeyedWrite,
    who?: Principal,
  ): Promise<WriteResult<Row[]>> {
    const scope = await this.scope(who);
    const cfDefs = await this.customFieldsFor(r, customFieldNames(bodies));
    const rows: Row[] = [];
    const allErrors: FieldErrors[] = [];
    const now = nowIso(); // one write, one time: its rows are created together
    const checked = bodies.map((body) =>
      validateInput(r, body, { partial: false, creating: true, customFields: cfDefs, ids: this.storage.ids }),
    );
    // Ids only for bodies that may be written: an integer store's counter is not spent on refused ones.
    const ids = await this.storage.newIds(r.name, checked.filter((v) => v.ok).length);
    let next = 0;
    for (const v of checked) {
      if (!v.ok) {
        allErrors.push(v.errors);
        continue;
      }
      const row: Row = { id: ids[next++], created: now, last_updated: now, ...v.input.values, version: 1 };
      const errs = await this.checkRow(r, row, v.input, scope?.visible);
      allErrors.push(errs);
      // Derived in place: the row is this loop's own, and a spread into a new object cost ~5× as much (a bulk
      // create's rows).
      rows.push(r.derive ? Object.assign(row, r.derive(row)) : row);
    }
    if (allErrors.some((e) => Object.keys(e).length)) return { ok: false, kind: 'invalid', errors: allErrors };
    // Uniqueness is the store's own check (a key or unique index): only a refused write is looked
    // at again to say which row clashes with what (one round trip per unique field saved per create).
    const out = await this.write(
      rows.map((row) => ({ op: 'create', resource: r.name, row })),
      rows,
      key && { key, ids: rows.map((x) => x.id) },
      scope?.checks(r, 'add', rows, ['after']),
      'add',
    );
    if (out === STALE) return kept;
    if (!out.ok && out.kind === 'invalid' && uniqueGroups(r).some((g) => g.field in (out.errors as FieldErrors))) {
      const uniq = await uniqueClashes(this.storage, r, rows);
      if (uniq.some((e) => Object.keys(e).length)) return { ok: false, kind: 'invalid', errors: uniq };
    }
    return out;
  }

  /**
   * PUT / PATCH: read, merge, write back only if the row is still the version read (else read again).
   * A parent link of a tree is changed under the tree's lock, so two moves cannot close a loop.
   */
  async update(
    r: ResourceDef,
    id: string,
    body: unknown,
    partial: boolean,
    ifMatch: Precondition = null,
    key?: KeyedWrite,
    who?: Principal,
  ): Promise<WriteResult<Row>> {
    const out = await this.updateMany(r, [{ id, body }], partial, ifMatch, key, who);
    if (out.ok) return { ok: true, value: out.value[0] };
    if (!Array.isArray(out.errors)) return out;
    // The one object is missing (the only error an update reports under `id`): not found, as a read.
    return out.errors[0].id
      ? { ok: false, kind: 'not_found', errors: { detail: 'Not found.' } }
      : { ...out, errors: out.errors[0] };
  }

  /**
   * Several PUT / PATCH bodies applied as one batch (bulk updates on a list URL): all or none. Errors
   * come back per item, in the order given ({} for an item without any).
   */
  async updateMany(
    r: ResourceDef,
    items: readonly { readonly id: string; readonly body: unknown }[],
    partial: boolean,
    ifMatch: Precondition = null,
    key?: KeyedWrite,
    who?: Principal,
  ): Promise<WriteResult<Row[]>> {
    const moves = !!r.tree && items.some(({ body }) => typeof body === 'object' && body !== null && r.tree! in body);
    const scope = await this.scope(who);
    const attempt = () => this.retried(ifMatch, () => this.updateOnce(r, items, partial, ifMatch, key, scope));
    return moves ? this.storage.serialized(`tree:${r.name}`, attempt) : attempt();
  }

  private async updateOnce(
    r: ResourceDef,
    items: readonly { readonly id: string; readonly body: unknown }[],
    partial: boolean,
    ifMatch: Precondition,
    key: KeyedWrite | undefined,
    scope: WriteScope | null,
  ): Promise<WriteResult<Row[]> | typeof STALE> {
    const cfDefs = await this.customFieldsFor(r, customFieldNames(items.map((i) => i.body)));
    const read = new Map<string, Row>();
    const named: (string | undefined)[] = []; // each item's object, as stored
    const rows: Row[] = [];
    const errors: FieldErrors[] = [];
    for (const { id, body } of items) {
      const old = await this.get(r, id);
      named.push(old?.id);
      if (!old) {
        errors.push({ id: [MSG.objectNotFound(id)] });
        continue;
      }
      if (read.has(old.id)) {
        errors.push({ id: [MSG.listedTwice] });
        continue;
      }
      read.set(old.id, old);
      const v = versionOf(old);
      if (ifMatch && !ifMatch.includes(v)) return stale(v);
      const checked = validateInput(r, body, {
        partial,
        creating: false,
        customFields: cfDefs,
        existingCustomFields: old.custom_fields as Record<string, unknown> | undefined,
        ids: this.storage.ids,
        existing: old,
      });
      if (!checked.ok) {
        errors.push(checked.errors);
        continue;
      }
      const row: Row = { ...old, ...checked.input.values, id: old.id, last_updated: nowIso(), version: v + 1 };
      errors.push(await resolveRefs(this.storage, r, row, checked.input, scope?.visible));
      rows.push(row);
    }
    // Objects outside the caller's change scope: missing when it may not view them, else a 403.
    const outside = (await scope?.outside(r, 'change', [...read.values()])) ?? new Set();
    if (!(outside instanceof Set)) return outside;
    named.forEach(
      (id, i) => id !== undefined && outside.has(id) && (errors[i] = { id: [MSG.objectNotFound(items[i].id)] }),
    );
    // A refusal may come from what another writer changed after the read (a reference it set to
    // null by deleting its target): then this write is redone on the new versions.
    const refused = async (out: WriteResult<never>) => {
      for (const [id, old] of read)
        if (versionOf((await this.get(r, id)) ?? { id, version: -1 }) !== versionOf(old)) return STALE;
      return out;
    };
    if (errors.some((e) => Object.keys(e).length)) return refused({ ok: false, kind: 'invalid', errors });
    // Rows checked against each other: a loop may close through two moves of one batch.
    const batch = new Map(rows.map((row) => [row.id, row]));
    const checks: FieldErrors[] = [];
    for (const row of rows) checks.push(await this.rowChecks(r, row, batch));
    const derived = rows.map((row) => this.derive(r, row));
    const all = checks.some((e) => Object.keys(e).length) ? checks : await uniqueClashes(this.storage, r, derived);
    if (all.some((e) => Object.keys(e).length)) return refused({ ok: false, kind: 'invalid', errors: all });
    const out = await this.write(
      derived.map((row) => ({
        op: 'update',
        resource: r.name,
        row,
        expectVersion: versionOf(read.get(row.id)!),
        before: read.get(row.id)!,
      })),
      derived,
      key && { key, ids: derived.map((x) => x.id) },
      scope?.checks(r, 'change', derived, ['before', 'after']),
    );
    return out === STALE || out.ok ? out : refused(out);
  }

  async delete(
    r: ResourceDef,
    id: string,
    ifMatch: Precondition = null,
    key?: KeyedWrite,
    who?: Principal,
  ): Promise<WriteResult<null>> {
    return this.deleteMany(r, [id], ifMatch, key, who);
  }

  /** Deletes several objects (with their cascades) as one batch: all or none. */
  async deleteMany(
    r: ResourceDef,
    ids: readonly string[],
    ifMatch: Precondition = null,
    key?: KeyedWrite,
    who?: Principal,
  ): Promise<WriteResult<null>> {
    const scope = await this.scope(who);
    return this.retried(ifMatch, async () => {
      const batch = new DeleteBatch();
      const missing: string[] = [];
      const found: (Row | null)[] = [];
      for (const id of ids) found.push(await this.get(r, id));
      const outside = (await scope?.outside(r, 'delete', found)) ?? new Set();
      if (!(outside instanceof Set)) return outside;
      for (const [i, id] of ids.entries()) {
        const old = found[i];
        if (!old || outside.has(old.id)) {
          missing.push(id);
          continue;
        }
        const v = versionOf(old);
        if (ifMatch && !ifMatch.includes(v)) return stale(v);
        const problem = await this.planDelete(r, old, batch, v);
        if (problem) return { ok: false, kind: 'conflict', errors: { detail: problem } };
      }
      if (missing.length)
        return {
          ok: false,
          kind: 'not_found',
          errors: {
            detail: ids.length === 1 ? 'Not found.' : `Not found: ${missing.join(', ')}. Nothing was deleted.`,
          },
        };
      const checks = scope?.checks(r, 'delete', found as Row[], ['before']);
      return this.write(batch.writes(), null, key && { key, ids: [] }, checks, 'delete');
    });
  }

  /** fn again while another writer changed what it read; under If-Match that is refused instead. */
  private async retried<T>(
    ifMatch: Precondition,
    fn: () => Promise<WriteResult<T> | typeof STALE>,
  ): Promise<WriteResult<T>> {
    for (let i = 0; i < WRITE_ATTEMPTS; i++) {
      const out = await fn();
      if (out !== STALE) return out;
      if (ifMatch) return stale();
      // Writers that collided try again at different moments.
      await new Promise((res) => setTimeout(res, Math.random() * (1 + i) * 2));
    }
    return kept;
  }

  /** Dependents first (cascade deletes, set-null updates), then the object; protect refuses. */
  private async planDelete(
    r: ResourceDef,
    row: Row,
    batch: DeleteBatch,
    expectVersion?: number,
  ): Promise<string | null> {
    const id = row.id;
    if (batch.isDeleting(r.name, id)) return null;
    batch.markDeleting(r.name, id);
    for (const other of RESOURCES)
      for (const f of other.fields) {
        if (f.kind !== 'fk' || f.target !== r.name) continue;
        const deps = batch.notDeleting(other.name, await this.storage.findBy(other.name, f.name, id));
        if (!deps.length) continue;
        if (f.onDelete === 'protect')
          return (
            `Cannot delete this ${r.label.toLowerCase()}: ${deps.length} ${other.label.toLowerCase()} ` +
            `object(s) refer to it through ${f.name}.`
          );
        for (const d of deps) {
          if (f.onDelete === 'cascade') {
            const p = await this.planDelete(other, d, batch);
            if (p) return p;
            // Fields derived from the reference follow it (a device's primary_ip when its primary_ip6 goes).
          } else
            batch.change(other.name, d, (cur) => ({
              ...this.derive(other, { ...cur, [f.name]: null }),
              last_updated: nowIso(),
            }));
        }
      }
    if (r.name === 'tag')
      for (const other of RESOURCES.filter((x) => x.fields.some((f) => f.kind === 'tags'))) {
        for (const d of await this.storage.findBy(other.name, 'tags', id))
          if (!batch.isDeleting(other.name, d.id))
            batch.change(other.name, d, (row) => ({ tags: (row.tags as string[]).filter((t) => t !== id) }));
      }
    batch.delete(r.name, row, expectVersion);
    return null;
  }

  private derive(r: ResourceDef, row: Row): Row {
    return r.derive ? { ...row, ...r.derive(row) } : row;
  }

  /** The row as it would be stored: its references resolved, then the resource's own row checks. */
  private async checkRow(r: ResourceDef, row: Row, input: ValidInput, visible?: Visible): Promise<FieldErrors> {
    const errors = await resolveRefs(this.storage, r, row, input, visible);
    return Object.keys(errors).length ? errors : this.rowChecks(r, row, new Map());
  }

  /**
   * Checks of a row whose references are resolved: no loop in a tree (through `batch`'s rows too), the resource's
   * own.
   */
  private async rowChecks(r: ResourceDef, row: Row, batch: ReadonlyMap<string, Row>): Promise<FieldErrors> {
    const errors: FieldErrors = {};
    if (r.tree && (await wouldLoop(this.storage, r, row, batch))) (errors[r.tree] ??= []).push(MSG.treeCycle);
    for (const [k, msgs] of Object.entries(ROW_CHECKS[r.name]?.(row) ?? {})) (errors[k] ??= []).push(...msgs);
    for (const [k, msgs] of Object.entries((await this.policies[r.name]?.(row)) ?? {}))
      (errors[k] ??= []).push(...msgs);
    return errors;
  }

  /**
   * Applies the batch (with the Idempotency-Key row that answers it, when keyed). Once apply has
   * resolved the write has committed: nothing after it may fail the write.
   */
  private async write<T>(
    ops: WriteOp[],
    value: T,
    keyed?: { readonly key: KeyedWrite; readonly ids: readonly string[] },
    checks: readonly RowCheck[] = [],
    action = 'change',
  ): Promise<WriteResult<T> | typeof STALE> {
    try {
      const all = keyed ? [...ops, ...this.keys.opsFor(keyed.key, keyed.ids)] : ops;
      await this.storage.apply(all, checks.length ? { checks } : undefined);
    } catch (e) {
      // The caller's permission did not reach an object as the transaction found it.
      if (e instanceof CheckFailed) return forbidden(action, resource(e.check.resource));
      if (e instanceof StorageConflict && e.field === 'version') return STALE;
      if (keyed && e instanceof StorageConflict && e.field === 'key') return keyTaken;
      if (e instanceof StorageConflict) return { ok: false, kind: 'invalid', errors: { [e.field]: [e.message] } };
      throw e;
    }
    if (ops.some((o) => o.resource === 'custom_field')) definitionsWritten();
    const fault = faultAt('after-commit');
    if (fault) await fault;
    return { ok: true, value };
  }
}
