// What one GraphQL request carries through its resolvers: the store, who asks, the limits, the objects
// read so far (GRAPHQL_MAX_OBJECTS counts them as they are read), and its batches (batch.ts), so that each
// nested level is one read for all its parents.
import { GraphQLError } from 'graphql';
import { and, cmp, TRUE, type Plan } from '../../engine/plan/nodes.js';
import type { PlanCache } from '../../engine/plan/plan-cache.js';
import type { Page } from '../../engine/plan/page.js';
import type { CustomFieldDef, ResourceDef } from '../../engine/schema/types.js';
import type { Row, Storage } from '../../storage/types.js';
import type { GraphqlLimits, GraphqlViewer } from './contract.js';
import { Batch } from './batch.js';
import { AheadAnswers } from './read-ahead.js';

export const MAX_OBJECTS_SETTING = 'GRAPHQL_MAX_OBJECTS';

/** Thrown once the answer holds more objects than GRAPHQL_MAX_OBJECTS: the whole answer is this error. */
export class TooManyObjects extends GraphQLError {
  constructor(max: number) {
    super(`${MAX_OBJECTS_SETTING}: the answer would hold more than ${max} objects; narrow the query or add limit`, {
      extensions: { code: 'GRAPHQL_MAX_OBJECTS', setting: MAX_OBJECTS_SETTING, limit: max },
    });
  }
}

export class RequestScope {
  private read = 0;
  /** Set at the first object over the limit: every later read is refused, the answer is the error. */
  overflow: TooManyObjects | null = null;
  /** Batches by what they answer (a nested list's field node, a target resource). */
  readonly batches = new Map<unknown, Batch<unknown, unknown>>();
  /** What the read-ahead (read-ahead.ts) read for the levels below a root list. */
  readonly ahead = new AheadAnswers();
  /** The resource of each object a generic reference answered (the union's resolveType reads it). */
  readonly kinds = new WeakMap<object, ResourceDef>();

  constructor(
    readonly storage: Storage,
    readonly viewer: GraphqlViewer,
    readonly limits: GraphqlLimits,
    readonly customFields: (r: ResourceDef) => readonly CustomFieldDef[],
    readonly signal: AbortSignal | undefined,
    readonly plans: PlanCache,
    /** Every custom field definition, as the viewer's scopes are translated with them. */
    readonly allCustomFields: readonly CustomFieldDef[] = [],
  ) {}

  /** The viewer with its scopes bound to this request's custom field definitions. */
  readonly seen: GraphqlViewer = {
    canView: (r) => this.viewer.canView(r),
    scope: (r) => this.view(r),
  };

  /** The objects of `r` the viewer may see (TRUE: all): ANDed into every read of `r`. */
  view(r: ResourceDef): Plan {
    return this.viewer.scope?.(r, this.allCustomFields) ?? TRUE;
  }

  /** How many more objects may be read; throws once over. */
  remaining(): number {
    if (this.overflow) throw this.overflow;
    return this.limits.maxObjects - this.read;
  }

  /** Counts rows read; over the limit, the request stops here. */
  take<T>(rows: T[]): T[] {
    this.read += rows.length;
    if (this.read > this.limits.maxObjects) {
      this.overflow ??= new TooManyObjects(this.limits.maxObjects);
      throw this.overflow;
    }
    return rows;
  }

  /** Rows of `r` matching `plan` in the page's order, at most `limit` of them (and never past the budget). */
  async find(r: ResourceDef, plan: Plan, page: Page): Promise<Row[]> {
    const room = this.remaining();
    const limit = Math.min(page.limit, room + 1);
    const judged = this.viewer.rows?.judges(r) ? await this.viewer.rows.plan(r, plan) : TRUE;
    const where = and([plan, this.view(r), judged]);
    const { rows } = await this.storage.find(r.name, where, { ...page, limit }, { signal: this.signal, noCount: true });
    return this.take(rows as Row[]);
  }

  /** Rows of `r` by id (one read for them all) that the viewer may see, counted. */
  async getMany(r: ResourceDef, ids: readonly string[]): Promise<Row[]> {
    this.remaining();
    const view = this.view(r);
    if (view.kind === 'const' && !view.value) return [];
    if (view.kind === 'const' && !this.viewer.rows?.judges(r))
      return this.take(await this.storage.getMany(r.name, ids));
    // Constrained: the ids and the scope in one read, so the store's indexes (or SQL) answer both.
    const plan = cmp('id', 'string', 'eq', false, ids);
    return this.find(r, plan, { limit: ids.length, offset: 0, ordering: [] });
  }

  /** The batch answering `key`, made by `make` on first use. */
  batch<V, I = undefined>(key: unknown, make: () => Batch<V, I>): Batch<V, I> {
    let b = this.batches.get(key) as Batch<V, I> | undefined;
    if (!b) {
      b = make();
      this.batches.set(key, b as Batch<unknown, unknown>);
    }
    return b;
  }
}
