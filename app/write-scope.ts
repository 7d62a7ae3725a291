// What a caller's object permissions let a write touch (issue #39): an object changed or deleted
// must be in the action's scope before the write, one created or changed must be in it after the
// write. The store tests both inside the write's transaction (RowCheck), with references as the
// batch leaves them, so no other writer's commit can fall between the test and the write; the
// reads before it only choose the answer (404 for an object the caller may not view, else 403).
// Objects a write names by their fields (a nested `{"name": …}`, a tag's slug or name) must be viewable.
import { and, cmp, type Plan } from '../engine/plan/nodes.js';
import type { CustomFieldDef, ResourceDef } from '../engine/schema/types.js';
import type { Row, RowCheck, Storage } from '../storage/types.js';
import type { Refused, WriteErrors } from './errors.js';
import { forbidden } from './write-refusals.js';
import { permissionFor } from '../engine/schema/model-permissions.js';
import { scopeOf, unconstrained } from './permission-scope.js';
import type { Principal } from './principal.js';

/** Among ids, those of objects the plan admits (every id when it admits everything). */
async function within(storage: Storage, r: ResourceDef, plan: Plan, ids: readonly string[]): Promise<Set<string>> {
  if (unconstrained(plan) || !ids.length) return new Set(ids);
  const found = await storage.find(r.name, and([cmp('id', 'string', 'eq', false, ids), plan]), {
    limit: ids.length,
    offset: 0,
    ordering: [],
  });
  return new Set(found.rows.map((x) => x.id));
}

/** Which objects a referenced-by write may name: those of `target` among ids the caller may view. */
export type Visible = (target: ResourceDef, ids: readonly string[]) => Promise<Set<string>>;

export class WriteScope {
  constructor(
    private readonly storage: Storage,
    private readonly who: Principal,
    private readonly defs: readonly CustomFieldDef[],
  ) {}

  /** The objects of `r` the caller may take `action` on. */
  of(r: ResourceDef, action: string): Plan {
    return scopeOf(this.who, r, action, this.defs, this.storage.ids);
  }

  /** The store's checks of a write of `rows`: in the action's scope before and/or after it (none: unconstrained). */
  checks(r: ResourceDef, action: string, rows: readonly Row[], when: readonly RowCheck['when'][]): RowCheck[] {
    const plan = this.of(r, action);
    if (unconstrained(plan) || !rows.length) return [];
    const ids = rows.map((x) => x.id);
    return when.map((w) => ({ resource: r.name, ids, plan, when: w }));
  }

  /** Ids among `ids` (all existing) the caller may view. */
  readonly visible: Visible = (target, ids) => within(this.storage, target, this.of(target, 'view'), ids);

  /**
   * Before a change or delete of existing objects: the ids the caller may not even view (answered as
   * missing), or a 403 when one it may view is outside the action's scope; an empty set when all are inside.
   */
  async outside(
    r: ResourceDef,
    action: string,
    rows: readonly (Row | null)[],
  ): Promise<Set<string> | Refused<WriteErrors>> {
    const ids = rows.flatMap((x) => (x ? [x.id] : []));
    const inside = await within(this.storage, r, this.of(r, action), ids);
    if (inside.size === new Set(ids).size) return new Set();
    const rest = ids.filter((id) => !inside.has(id));
    const seen = await this.visible(r, rest);
    const hidden = new Set(rest.filter((id) => !seen.has(id)));
    return hidden.size ? hidden : forbidden(action, r);
  }
}

/** Whether `who` holds `permission` only under constraints (paths that cannot apply them refuse it). */
export const onlyConstrained = (who: Principal | undefined, permission: string): boolean =>
  !!who && !who.permissions.includes('*') && Array.isArray(who.constraints[permission]);

export const constrainedFor = (who: Principal | undefined, r: ResourceDef, action: string): boolean =>
  onlyConstrained(who, permissionFor(r, action));
