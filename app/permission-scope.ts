// What a principal may see or change of a resource, as a plan: reads AND it in, writes check the object
// against it before and after the change. TRUE: every object (an unconstrained permission, `*`);
// FALSE: none (no permission, or only constraints that no longer translate, e.g. naming a custom field
// since deleted: granting nothing is the safe reading). Translated once per principal, action, resource
// and set of custom field definitions: a principal is dropped when a token, user, group or object
// permission changes (app/tokens.ts), and a change of the definitions brings a new array.
import { anyOf, constraintPlan } from '../engine/permissions/constraint-plan.js';
import { permissionFor } from '../engine/schema/model-permissions.js';
import type { IdStyle } from '../engine/schema/id-style.js';
import type { CustomFieldDef, ResourceDef } from '../engine/schema/types.js';
import { FALSE, TRUE, type Plan } from '../engine/plan/nodes.js';
import type { Principal } from './principal.js';

type Cache = WeakMap<readonly CustomFieldDef[], Map<string, Plan>>;
const cache = new WeakMap<Principal, Cache>();

function translate(
  p: Principal,
  r: ResourceDef,
  permission: string,
  customFields: readonly CustomFieldDef[],
  ids: IdStyle,
): Plan {
  if (p.permissions.includes('*') || p.constraints['*'] === null) return TRUE;
  const granted = p.constraints[permission];
  if (granted === null) return TRUE;
  if (granted === undefined || granted.length === 0) return FALSE;
  const plans: Plan[] = [];
  for (const c of granted) {
    const got = constraintPlan(r, c, { userId: p.userId, customFields, ids });
    if (got.ok) plans.push(got.plan);
  }
  return plans.length ? anyOf(plans) : FALSE;
}

/** The objects of `r` the principal may take `action` on (`view`, `change`, a custom action…). */
export function scopeOf(
  p: Principal,
  r: ResourceDef,
  action: string,
  customFields: readonly CustomFieldDef[],
  ids: IdStyle,
): Plan {
  let byDefs = cache.get(p);
  if (!byDefs) cache.set(p, (byDefs = new WeakMap()));
  let plans = byDefs.get(customFields);
  if (!plans) byDefs.set(customFields, (plans = new Map()));
  const permission = permissionFor(r, action);
  let plan = plans.get(permission);
  if (plan === undefined) plans.set(permission, (plan = translate(p, r, permission, customFields, ids)));
  return plan;
}

/** Whether the plan admits every object (reads need not AND anything in). */
export const unconstrained = (plan: Plan): boolean => plan.kind === 'const' && plan.value === true;
