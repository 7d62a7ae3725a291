// What a caller may read of each resource: its view scope (app/permission-scope.ts) ANDed into the REST
// reads of inventory resources (issue #39 point 2): lists and their counts, exports, details, related
// counts, a prefix's parent and children. An object outside the scope is absent, never forbidden.
// Each combined plan is made once per filter plan and scope (both cached), so a database compiles it
// once and a constrained list costs what the same filter does.
import { and, cmp, FALSE, fk, TRUE, type Plan } from '../engine/plan/nodes.js';
import { permissionFor } from '../engine/schema/model-permissions.js';
import { resource } from '../engine/schema/registry.js';
import type { CountDef, ResourceDef } from '../engine/schema/types.js';
import type { Row, Storage } from '../storage/types.js';
import type { Inventory } from './inventory.js';
import { scopeOf, unconstrained } from './permission-scope.js';
import type { Principal } from './principal.js';

/** A caller's view scope of a resource, by name. */
export type Scopes = (resourceName: string) => Plan;

const ALL: Scopes = () => TRUE;
const constrainedOnes = new WeakMap<Principal, boolean>();

/** Whether some permission of the principal is limited by constraints (else nothing needs translating). */
function hasConstraints(p: Principal): boolean {
  let got = constrainedOnes.get(p);
  if (got === undefined) constrainedOnes.set(p, (got = Object.values(p.constraints).some((c) => c !== null)));
  return got;
}

/**
 * Whether the principal may view every object of `r`: a reader that does not AND scopes in yet (GraphQL,
 * the change stream) serves a resource only then.
 */
export function viewsAll(p: Principal | undefined, r: Pick<ResourceDef, 'app' | 'name'>): boolean {
  if (!p) return false;
  const name = permissionFor(r, 'view');
  return p.permissions.includes('*') || (p.permissions.includes(name) && (p.constraints[name] ?? null) === null);
}

/**
 * The principal's view scope of every resource (no principal: an internal read, which sees all): none of a
 * resource it may not view, all of one it views without constraints, else its constraints' objects.
 */
export async function viewScopes(inventory: Inventory, p: Principal | undefined): Promise<Scopes> {
  if (!p || p.permissions.includes('*')) return ALL;
  const defs = hasConstraints(p) ? await inventory.customFields() : null;
  return (name) => {
    const r = resource(name);
    if (!p.permissions.includes(permissionFor(r, 'view'))) return FALSE;
    return defs ? scopeOf(p, r, 'view', defs, inventory.storage.ids) : TRUE;
  };
}

const joined = new WeakMap<Plan, WeakMap<Plan, Plan>>();

/** The filter's plan limited to the scope; the same plan object for the same pair (compiled once). */
export function within(plan: Plan, scope: Plan): Plan {
  if (unconstrained(scope)) return plan;
  let byScope = joined.get(plan);
  if (!byScope) joined.set(plan, (byScope = new WeakMap()));
  let got = byScope.get(scope);
  if (!got) byScope.set(scope, (got = and([plan, scope])));
  return got;
}

const ONE = { limit: 1, offset: 0, ordering: [] };

/** The object with this id when it lies in the scope, else null (a detail's 404). */
export async function visibleRow(inventory: Inventory, r: ResourceDef, id: string, scope: Plan): Promise<Row | null> {
  const row = await inventory.get(r, id);
  if (!row || unconstrained(scope)) return row;
  const plan = and([cmp('id', 'string', 'eq', false, [row.id]), scope]);
  return (await inventory.find(r, plan, ONE, { noCount: true })).rows.length ? row : null;
}

/** SQL's LIMIT takes no Infinity. */
const EVERY = { limit: Number.MAX_SAFE_INTEGER, offset: 0, ordering: [] };

/** How many objects of `c.resource` inside the scope refer to each of `ids` (objects of `target`). */
async function countWithin(
  storage: Storage,
  target: string,
  c: CountDef,
  ids: readonly string[],
  scope: Plan,
): Promise<ReadonlyMap<string, number>> {
  const out = new Map<string, number>();
  if (scope.kind === 'const') return out; // FALSE: none (TRUE takes the counting path)
  const plan = and([fk(c.field, target, ids, false, true), scope]);
  for (const row of (await storage.find(c.resource, plan, EVERY, { noCount: true })).rows) {
    const k = String(row[c.field]);
    out.set(k, (out.get(k) ?? 0) + 1);
  }
  return out;
}

/**
 * Related counts of `ids` (objects of `target`), one map per count in order: the store counts those the
 * caller sees whole in one go; a count of a resource seen in part reads the referring objects inside it.
 */
export async function relatedCounts(
  storage: Storage,
  target: string,
  wanted: readonly CountDef[],
  ids: readonly string[],
  scopes: Scopes = ALL,
): Promise<readonly ReadonlyMap<string, number>[]> {
  const plans = wanted.map((c) => scopes(c.resource));
  const open = wanted.filter((_, i) => unconstrained(plans[i]));
  const whole = open.length
    ? (storage.countRefsOf?.(open, ids) ?? Promise.all(open.map((c) => storage.countRefs(c.resource, c.field, ids))))
    : Promise.resolve([]);
  const part = Promise.all(
    wanted.map((c, i) => (unconstrained(plans[i]) ? null : countWithin(storage, target, c, ids, plans[i]))),
  );
  const [w, p] = await Promise.all([whole, part]);
  let k = 0;
  return wanted.map((_, i) => p[i] ?? w[k++]);
}
