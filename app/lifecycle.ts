// Lifecycle operations over any Storage: machines, entity creation, events with a compare-and-swap
// on the entity version (the state change and its history row in one atomic batch), idempotency.
import { createHash, randomUUID } from 'node:crypto';
import { latestVersion, transition, validateMachine, type MachineDef } from '../engine/lifecycle/index.js';
import { DEFAULT_MAX_STATES, type MachineLimits } from '../engine/lifecycle/machine-schema.js';
import { applyContextPatch, contextPatch } from '../engine/lifecycle/context-patch.js';
import type { Plan } from '../engine/plan/nodes.js';
import {
  entity as entityDef,
  history as historyDef,
  idempotency as idempotencyDef,
  machine as machineDef,
  type EntityRow,
  type HistoryRow,
  type MachineRow,
} from '../engine/schema/resources/lifecycle.js';
import { rowAs } from '../engine/schema/row-types.js';
import { KeyedLock } from '../storage/keyed-lock.js';
import {
  StorageConflict,
  type FindOptions,
  type FindResult,
  type Page,
  type Row,
  type Storage,
  type WriteOp,
} from '../storage/types.js';
import { refused, type RefusalKind } from './errors.js';
import type {
  EntityCreate,
  EntityEvent,
  EntityOutcome,
  EntityResult,
  HistoryEntry,
  InstallResult,
  KeptAnswer,
  KeyedCall,
  LcRefused,
} from './lifecycle-results.js';

export type * from './lifecycle-results.js';

/** Largest entity context, as JSON bytes (MAX_CONTEXT_BYTES). */
export const DEFAULT_MAX_CONTEXT_BYTES = 1024 * 1024;

const MAX_CAS_RETRIES = 50;

const fail = (kind: RefusalKind, code: string, detail: string, facts: Record<string, unknown> = {}): LcRefused =>
  refused(kind, { detail, code, ...facts });

/** Whole contexts of history rows in sequence order, from the rows' whole contexts and patches. */
function foldContexts(rows: readonly HistoryRow[]): Record<string, unknown>[] {
  let cur: Record<string, unknown> = {};
  return rows.map((r) => {
    cur =
      r.context_patch !== null && r.context_patch !== undefined
        ? applyContextPatch(cur, r.context_patch)
        : (r.context ?? {});
    return cur;
  });
}

/**
 * The stored key of an Idempotency-Key: the operation, the entity and the client's key as one JSON
 * tuple, hashed to a fixed length. (Joined with ':' they were ambiguous: entity `x:y` with key `k`
 * and entity `x` with key `y:k` met, and the second caller got the first one's answer.)
 */
function idempotencyKey(op: 'create' | 'event', entityId: string, keyed: KeyedCall | null): string | null {
  const key = keyed?.key;
  return key
    ? `${op}:${createHash('sha256')
        .update(JSON.stringify([op, entityId, key]))
        .digest('hex')}`
    : null;
}

export class Lifecycle {
  /** name@version -> definition; safe to cache in every process: a stored version never changes. */
  private readonly defs = new Map<string, MachineDef>();
  private readonly entityLocks = new KeyedLock();

  constructor(
    private readonly storage: Storage,
    private readonly limits: MachineLimits & { readonly maxContextBytes: number } = {
      maxStates: DEFAULT_MAX_STATES,
      maxContextBytes: DEFAULT_MAX_CONTEXT_BYTES,
    },
  ) {}

  /** Validate and store a definition. Same name and version: identical is a no-op, different a conflict. */
  async installMachine(raw: unknown): Promise<InstallResult> {
    const v = validateMachine(raw, this.limits);
    if (!v.ok)
      return fail('invalid', 'invalid_machine', 'The machine definition is invalid.', { problems: v.problems });
    const m = v.machine;
    const key = `${m.meta.machine_name}@${m.meta.version}`;
    // Identical to a stored version: a no-op (also when another process stored it a moment ago).
    const stored = async (): Promise<InstallResult | null> => {
      const [existing] = await this.storage.findBy('machine', 'key', key);
      if (!existing) return null;
      if (JSON.stringify(existing.definition) === JSON.stringify(raw)) return { ok: true, created: false, machine: m };
      return fail(
        'conflict',
        'machine_exists',
        `Machine ${m.meta.machine_name} version ${m.meta.version} already exists.`,
      );
    };
    const before = await stored();
    if (before) return before;
    const now = new Date().toISOString();
    try {
      await this.storage.apply([
        {
          op: 'create',
          resource: 'machine',
          row: {
            id: randomUUID(),
            created: now,
            last_updated: now,
            key,
            machine_name: m.meta.machine_name,
            version: m.meta.version,
            definition: raw,
          },
        },
      ]);
    } catch (e) {
      if (e instanceof StorageConflict)
        return (
          (await stored()) ??
          fail('conflict', 'machine_exists', `Machine ${m.meta.machine_name} version ${m.meta.version} already exists.`)
        );
      throw e;
    }
    this.defs.set(key, m);
    return { ok: true, created: true, machine: m };
  }

  /** The stored versions of one machine. */
  async machineRows(name: string): Promise<MachineRow[]> {
    return (await this.storage.findBy('machine', 'machine_name', name)).map((r) => rowAs(machineDef, r));
  }

  /** One page of every stored definition, by name and version. */
  machinePage(limit: number, offset: number): Promise<FindResult> {
    return this.storage.find(
      'machine',
      { kind: 'const', value: true },
      {
        limit,
        offset,
        ordering: [
          { field: 'machine_name', desc: false },
          { field: 'version', desc: false },
        ],
      },
    );
  }

  /** A machine by name and version; the highest version (semantic order) when none is given. */
  async machine(name: string, version?: string): Promise<MachineDef | null> {
    if (version === undefined) {
      const versions = (await this.machineRows(name)).map((r) => r.version);
      const latest = latestVersion(versions);
      if (!latest) return null;
      version = latest;
    }
    const key = `${name}@${version}`;
    let def = this.defs.get(key);
    if (!def) {
      const [row] = await this.storage.findBy('machine', 'key', key);
      if (!row) return null;
      const v = validateMachine(row.definition);
      if (!v.ok) return null;
      this.defs.set(key, (def = v.machine));
    }
    return def;
  }

  async entityRow(entityId: string): Promise<EntityRow | null> {
    const [row] = await this.storage.findBy('entity', 'entity_id', entityId);
    return row ? rowAs(entityDef, row) : null;
  }

  findEntities(plan: Plan, page: Page, opts?: FindOptions) {
    return this.storage.find('entity', plan, page, opts);
  }

  /**
   * One page of an entity's history, each row with its whole context: the rows before the page are
   * read too (a row stores what changed since the one before it), in sequence order.
   */
  async history(
    entityId: string,
    page: { limit: number; offset: number },
  ): Promise<{ count: number; rows: HistoryEntry[] }> {
    const upTo = await this.storage.find(
      'history',
      { kind: 'cmp', field: 'entity_id', valueType: 'string', op: 'eq', ci: false, values: [entityId] },
      { limit: page.offset + page.limit, offset: 0, ordering: [{ field: 'seq', desc: false }] },
    );
    const contexts = foldContexts(upTo.rows.map((r) => rowAs(historyDef, r)));
    return {
      count: upTo.count,
      rows: upTo.rows.slice(page.offset).map((row, i) => ({ row, context: contexts[page.offset + i] })),
    };
  }

  /** A context over MAX_CONTEXT_BYTES as JSON: refused. */
  private tooLarge(context: Record<string, unknown>): LcRefused | null {
    const bytes = Buffer.byteLength(JSON.stringify(context));
    return bytes > this.limits.maxContextBytes
      ? fail(
          'too_large',
          'context_too_large',
          `The entity's context would be ${bytes} bytes as JSON, over MAX_CONTEXT_BYTES ` +
            `(${this.limits.maxContextBytes}).`,
        )
      : null;
  }

  /** Creates an entity at its machine's initial state; the body was checked against EntityCreate. */
  async create(entityId: string, body: EntityCreate, keyed: KeyedCall | null): Promise<EntityResult> {
    const { machine_name, machine_version, context } = body;
    return this.idempotent(idempotencyKey('create', entityId, keyed), keyed, body, async () => {
      const def = await this.machine(machine_name, machine_version);
      if (!def)
        return fail(
          'not_found',
          'machine_not_found',
          machine_version
            ? `Machine ${machine_name} version ${machine_version} not found.`
            : `Machine ${machine_name} not found.`,
        );
      const exists = () => fail('conflict', 'entity_exists', `Entity ${entityId} already exists.`);
      if (await this.entityRow(entityId)) return exists();
      const now = new Date().toISOString();
      const ctx = context ?? {};
      const big = this.tooLarge(ctx);
      if (big) return big;
      const row: Row = {
        id: randomUUID(),
        created: now,
        last_updated: now,
        entity_id: entityId,
        machine_name,
        machine_version: def.meta.version,
        state: def.initial_state,
        context: ctx,
        version: 1,
      };
      const hist: Row = {
        id: randomUUID(),
        created: now,
        last_updated: now,
        entity_id: entityId,
        seq: 1,
        trigger: '__entity_created__',
        source_state: null,
        target_state: def.initial_state,
        context: ctx,
        context_patch: null,
      };
      return {
        ops: [
          { op: 'create', resource: 'entity', row },
          { op: 'create', resource: 'history', row: hist },
        ],
        outcome: { kind: 'created', entity: row },
        conflict: exists,
      };
    });
  }

  /** Applies an event to an entity (its machine's transition); the body was checked against EventRequest. */
  async event(entityId: string, body: EntityEvent, keyed: KeyedCall | null): Promise<EntityResult> {
    const { trigger, context, expected_state } = body;
    return this.entityLocks.run(entityId, () =>
      this.idempotent(idempotencyKey('event', entityId, keyed), keyed, body, async () => {
        const row = await this.entityRow(entityId);
        if (!row) return fail('not_found', 'entity_not_found', `Entity ${entityId} not found.`);
        if (expected_state !== undefined && row.state !== expected_state)
          return fail(
            'conflict',
            'state_mismatch',
            `Entity ${entityId} is at ${String(row.state)}, not ${expected_state}.`,
            { current_state: row.state },
          );
        const def = await this.machine(row.machine_name, row.machine_version);
        if (!def)
          return fail(
            'not_found',
            'machine_not_found',
            `Machine ${String(row.machine_name)} version ${String(row.machine_version)} not found.`,
          );
        const t = transition(
          def,
          {
            entity_id: entityId,
            machine_name: def.meta.machine_name,
            machine_version: def.meta.version,
            state: row.state,
            context: row.context ?? {},
            version: row.version,
          },
          { trigger, context },
        );
        if (!t.ok) {
          if (t.code === 'invalid_transition')
            return fail(
              'conflict',
              'invalid_transition',
              `No transition for trigger ${trigger} from state ${String(row.state)}.`,
              { current_state: row.state, available_triggers: t.available },
            );
          return fail('conflict', 'guard_rejected', `Guard rejected: ${t.description}`, {
            current_state: row.state,
            guard: t.guard,
          });
        }
        const big = this.tooLarge(t.context);
        if (big) return big;
        const now = new Date().toISOString();
        const version = row.version + 1;
        const next: Row = { ...row, state: t.target_state, context: t.context, version, last_updated: now };
        const patch = contextPatch(row.context ?? {}, t.context);
        const hist: Row = {
          id: randomUUID(),
          created: now,
          last_updated: now,
          entity_id: entityId,
          seq: version,
          trigger,
          source_state: t.source_state,
          target_state: t.target_state,
          context: patch ? null : t.context,
          context_patch: patch,
        };
        return {
          ops: [
            { op: 'update', resource: 'entity', row: next, expectVersion: row.version, before: row },
            { op: 'create', resource: 'history', row: hist },
          ],
          outcome: {
            kind: 'moved',
            entity: next,
            source_state: t.source_state,
            target_state: t.target_state,
            trigger,
          },
          conflict: null,
        };
      }),
    );
  }

  /**
   * Run `attempt` and apply its batch; a lost compare-and-swap re-runs it (re-reading the entity).
   * With an idempotency key the answer the server gives is kept in the same batch and given back for a repeat.
   */
  private async idempotent(
    key: string | null,
    keyed: KeyedCall | null,
    body: unknown,
    attempt: () => Promise<LcRefused | Attempt>,
  ): Promise<EntityResult> {
    const hash = createHash('sha256').update(JSON.stringify(body)).digest('hex');
    const replay = async (): Promise<EntityResult | null> => {
      if (!key) return null;
      const [found] = await this.storage.findBy('idempotency', 'key', key);
      if (!found) return null;
      const prev = rowAs(idempotencyDef, found);
      if (prev.request_hash !== hash)
        return fail(
          'key_reused',
          'idempotency_key_reused',
          'This Idempotency-Key was used with a different request body.',
        );
      return { ok: true, replayed: { status: prev.status, body: prev.response } };
    };
    for (let i = 0; i < MAX_CAS_RETRIES; i++) {
      const prior = await replay();
      if (prior) return prior;
      const r = await attempt();
      // A refusal may come from this request's own earlier attempt committing meanwhile (a client
      // retrying while it ran): its stored answer is what the client gets.
      if ('ok' in r) return (key && (await replay())) || r;
      const ops = [...r.ops];
      if (key && keyed) ops.push(keptAnswer(key, hash, keyed.answer(r.outcome)));
      try {
        await this.storage.apply(ops);
        return { ok: true, outcome: r.outcome };
      } catch (e) {
        if (!(e instanceof StorageConflict)) throw e;
        if (e.field === 'key') continue; // a concurrent request with the same key won: replay it
        if (e.field === 'version') continue; // lost the compare-and-swap: read again
        // With a key, the write that got there first may be this request's own earlier attempt (a
        // client retrying while it runs): its stored answer is committed with it, so look again.
        if (key && i === 0) continue;
        if (r.conflict) return r.conflict();
        throw e;
      }
    }
    return fail('conflict', 'too_much_contention', 'The entity kept changing; try again.');
  }
}

/** What one attempt of a create or an event would write, and the refusal its losing a race means. */
interface Attempt {
  readonly ops: WriteOp[];
  readonly outcome: EntityOutcome;
  readonly conflict: (() => LcRefused) | null;
}

/** The row that keeps a keyed call's answer, written in its batch. */
function keptAnswer(key: string, hash: string, answer: KeptAnswer): WriteOp {
  const now = new Date().toISOString();
  return {
    op: 'create',
    resource: 'idempotency',
    row: {
      id: randomUUID(),
      created: now,
      last_updated: now,
      key,
      request_hash: hash,
      status: answer.status,
      response: answer.body,
    },
  };
}
