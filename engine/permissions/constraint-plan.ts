// NetBox's object-permission constraints -> the engine's plan (engine/plan/nodes.ts), as NetBox
// evaluates them (utilities/permissions.py, qs_filter_from_constraints): an object is an AND of
// `path__lookup: value` pairs (a Django filter), a list is an OR of such objects, `"$user"` as a value
// or a list item is the requesting user's id; null, `{}`, `[]` or an empty object in the list
// constrain nothing. Paths cross foreign keys as Django's inner joins do (a null reference on the way
// matches nothing), except `isnull: true` (and `exact: null`), which a null reference on the way
// satisfies too (Django's outer join). Pure: the caller caches the plan per permission and user.
import type { IdStyle } from '../schema/id-style.js';
import { UUID_IDS } from '../schema/id-style.js';
import type { CustomFieldDef, ResourceDef } from '../schema/types.js';
import { and, FALSE, isNull, not, or, TRUE, via, type Plan } from '../plan/nodes.js';
import type { ConstraintLookup } from './constraint-lookups.js';
import { endOps, type Built, type EndOps } from './constraint-ends.js';
import { KeyResolver, type Hop } from './constraint-paths.js';

/** The token NetBox replaces with the requesting user's id (users.constants.CONSTRAINT_TOKEN_USER). */
export const USER_TOKEN = '$user';

export interface ConstraintOptions {
  /** The requesting user's id (`$user`); null: none (then `$user` is null, as NetBox's anonymous user's id). */
  readonly userId: string | number | null;
  /** Custom field definitions (any resource's: those whose `content_types` name the resource apply). */
  readonly customFields: readonly CustomFieldDef[];
  /** The store's id style (default UUIDs): which values are ids. */
  readonly ids?: IdStyle;
}

/** `path`: the key (`tenant__group__slug`), after `[i].` for an item of a list. */
export interface ConstraintError {
  readonly path: string;
  readonly message: string;
}

export type ConstraintPlan = { ok: true; plan: Plan } | { ok: false; errors: ConstraintError[] };

/** A JSON scalar as the text a filter parameter carries, or null when it is not one. */
function textOf(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return null;
}
const NOT_SCALAR = 'expected a text, a number or a boolean';

/** A leaf: its plan, and whether a null reference on the way satisfies it too (Django's outer join). */
type Leaf = { plan: Plan; viaNull: boolean } | string[];
const leaf = (b: Built, viaNull = false): Leaf => (Array.isArray(b) ? b : { plan: b, viaNull });

function texts(values: readonly unknown[]): string[] | { bad: string } {
  const out: string[] = [];
  for (const v of values) {
    const t = textOf(v);
    if (t === null) return { bad: NOT_SCALAR };
    out.push(t);
  }
  return out;
}

function flag(value: unknown, name: string): boolean | string {
  return typeof value === 'boolean' ? value : `${name} takes true or false`;
}

/** One pair's lookup applied to its (token-replaced) value at the path's end. */
function lookupLeaf(ops: EndOps, lk: ConstraintLookup, name: string, value: unknown): Leaf {
  switch (lk.does) {
    case 'cmp': {
      if (lk.list) {
        if (!Array.isArray(value)) return [`${name} takes a list`];
        // Django's `in` drops None; with nothing left it matches nothing.
        const t = texts(value.filter((v) => v !== null));
        if (!Array.isArray(t)) return [t.bad];
        return t.length ? leaf(ops.cmp(lk.op, lk.ci, t)) : { plan: FALSE, viaNull: false };
      }
      // `exact: null` is `isnull: true` (Django); no other lookup takes null.
      const none = value === null && lk.op === 'eq' && !lk.ci ? ops.none() : null;
      if (value === null) return none ? leaf(none, true) : [`${name} does not take null here`];
      const t = textOf(value);
      return t === null ? [NOT_SCALAR] : leaf(ops.cmp(lk.op, lk.ci, [t]));
    }
    case 'range': {
      const t = Array.isArray(value) && value.length === 2 ? texts(value) : { bad: 'range takes [low, high]' };
      if (!Array.isArray(t)) return [t.bad];
      const low = ops.cmp('gte', false, [t[0]]);
      const high = ops.cmp('lte', false, [t[1]]);
      const bad = [...(Array.isArray(low) ? low : []), ...(Array.isArray(high) ? high : [])];
      return bad.length ? bad : leaf(and([low as Plan, high as Plan]));
    }
    case 'isnull':
    case 'empty': {
      const f = flag(value, name);
      const none = ops.none();
      if (typeof f === 'string' || !none) return [typeof f === 'string' ? f : `${name} does not apply here`];
      if (lk.does === 'isnull') return f ? leaf(none, true) : leaf(not(none));
      return leaf(f ? ops.emptyText() : and([not(none), not(ops.emptyText())]));
    }
    case 'net': {
      if (lk.list && !Array.isArray(value)) return [`${name} takes a list`];
      const t = texts(lk.list ? (value as unknown[]) : [value]);
      if (!Array.isArray(t)) return [t.bad];
      return t.length ? leaf(ops.net(lk.op, t)) : { plan: FALSE, viaNull: false };
    }
  }
}

/** The leaf reached through the hops, nearest last; a null key on the way satisfies it only when `viaNull`. */
function throughHops(hops: readonly Hop[], l: { plan: Plan; viaNull: boolean }): Plan {
  let p = l.plan;
  for (let i = hops.length - 1; i >= 0; i--) {
    const h = hops[i];
    p = l.viaNull ? or([isNull(h.field), via(h.field, h.target, p)]) : via(h.field, h.target, p);
  }
  return p;
}

const replaceToken = (v: unknown, user: string | number | null): unknown => (v === USER_TOKEN ? user : v);

class Translation {
  readonly errors: ConstraintError[] = [];
  private readonly keys: KeyResolver;
  constructor(private readonly opts: ConstraintOptions) {
    this.keys = new KeyResolver(opts.customFields);
  }

  /** One object of the constraint: the AND of its pairs; null and `{}` are no condition. */
  object(r: ResourceDef, obj: unknown, at: string): Plan {
    if (obj === null || obj === undefined) return TRUE;
    if (typeof obj !== 'object' || Array.isArray(obj)) {
      this.errors.push({ path: at || '(constraints)', message: 'expected an object of path__lookup: value pairs' });
      return FALSE;
    }
    const parts: Plan[] = [];
    // Django reads two conditions on one object's tags as one tag satisfying both; each here would
    // test a tag of its own, admitting more than NetBox: refused instead.
    const tagged = new Set<string>();
    for (const [key, raw] of Object.entries(obj)) {
      const path = at ? `${at}.${key}` : key;
      const fail = (message: string) => {
        this.errors.push({ path, message });
        return FALSE;
      };
      const k = this.keys.resolve(r, key);
      if (typeof k === 'string') {
        parts.push(fail(k));
        continue;
      }
      const tagsAt = k.end.kind === 'tag' ? k.hops.map((h) => h.field).join('__') : null;
      if (tagsAt !== null && tagged.has(tagsAt)) {
        parts.push(fail('one condition on the tags of an object (NetBox would read two as one tag holding both)'));
        continue;
      }
      if (tagsAt !== null) tagged.add(tagsAt);
      const user = this.opts.userId;
      const value = Array.isArray(raw) ? raw.map((v) => replaceToken(v, user)) : replaceToken(raw, user);
      const ops = endOps(k.end, { r: k.r, ids: this.opts.ids ?? UUID_IDS });
      const l = lookupLeaf(ops, k.lookup, k.lookupName, value);
      if (Array.isArray(l)) for (const m of new Set(l)) parts.push(fail(m));
      else parts.push(throughHops(k.hops, l));
    }
    return and(parts);
  }
}

/**
 * The plan of a permission's constraints on resource `def` for one user, or every error, each naming
 * its path (an unknown field or lookup, a bad value): what a save answers 400 with.
 */
export function constraintPlan(def: ResourceDef, constraints: unknown, opts: ConstraintOptions): ConstraintPlan {
  const t = new Translation(opts);
  let plan: Plan;
  if (Array.isArray(constraints))
    plan = constraints.length ? or(constraints.map((c, i) => t.object(def, c, `[${i}]`))) : TRUE;
  else plan = t.object(def, constraints, '');
  return t.errors.length ? { ok: false, errors: t.errors } : { ok: true, plan };
}

/** Several permissions' plans OR-ed: an object any of them admits (none: nothing). */
export function anyOf(plans: readonly Plan[]): Plan {
  return or(plans);
}

/** Whether the constraints name `$user` (else one plan serves every user). */
export function usesUserToken(constraints: unknown): boolean {
  const items = Array.isArray(constraints) ? constraints : [constraints];
  return items.some(
    (o) =>
      o !== null &&
      typeof o === 'object' &&
      Object.values(o).some((v) => v === USER_TOKEN || (Array.isArray(v) && v.includes(USER_TOKEN))),
  );
}

/** The errors as lines `path: message` (an API's 400 body under `constraints`). */
export const errorLines = (errors: readonly ConstraintError[]): string[] =>
  errors.map((e) => `${e.path}: ${e.message}`);
