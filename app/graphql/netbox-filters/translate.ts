// NetBox 4's `filters` value -> a plan. Each (field, lookup, value) is written as the REST parameter it
// runs as (lookups.ts) and planned by the REST planner, so values, semantics and errors are REST's;
// the leaves are combined as NetBox 4.3 combines them: an object's fields AND together, `AND: {...}`
// ands its object, `NOT: {...}` negates its object, `OR: {...}` ors its object with all the rest.
// An object that gives no condition at all is no condition (as Django's empty Q).
import { parseQuery } from '../../../engine/query/index.js';
import { and, FALSE, not, or, TRUE, via, type Plan } from '../../../engine/plan/nodes.js';
import { planQuery, type PlanOptions } from '../../../engine/plan/planner.js';
import { resource } from '../../../engine/schema/registry.js';
import type { ResourceDef } from '../../../engine/schema/types.js';
import { VIEW_ALL, type GraphqlViewer } from '../contract.js';
import { nbFieldsOf, type NbField } from './fields.js';
import { restParam, type NbLookup } from './lookups.js';

export type FiltersPlan = { ok: true; plan: Plan } | { ok: false; message: string };

/** Most filter objects nested in one another (AND/OR/NOT, references): a plan the stores compile recursively. */
export const MAX_NESTING = 16;

/** A plan, or null when the object gave no condition. */
type Planned = Plan | null;

class Translation {
  readonly errors: string[] = [];
  constructor(private readonly viewer: GraphqlViewer) {}

  private fail(path: string, message: string): null {
    this.errors.push(`${path}: ${message}`);
    return null;
  }

  /** One REST parameter (its values repeated) planned as the REST list plans it. */
  private rest(r: ResourceDef, path: string, param: string, values: readonly string[], opts: PlanOptions): Planned {
    const res = planQuery(r, parseQuery(values.map((v) => [param, v] as const)), { ...opts, strict: true });
    const messages = Object.values(res.errors).flat();
    return messages.length ? this.fail(path, [...new Set(messages)].join(' ')) : res.plan;
  }

  object(r: ResourceDef, value: unknown, path: string, opts: PlanOptions): Planned {
    if (value === null || value === undefined) return null;
    if (typeof value !== 'object' || Array.isArray(value)) return this.fail(path, 'expected an input object');
    // Each object below `filters` adds one step to its path (`filters.OR.site`).
    if (path.split('.').length - 1 > MAX_NESTING) return this.fail(path, `nested more than ${MAX_NESTING} levels`);
    const fields = nbFieldsOf(r);
    const parts: Plan[] = [];
    const logic: Partial<Record<'AND' | 'OR' | 'NOT', Planned>> = {};
    for (const [key, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const at = `${path}.${key}`;
      if (key === 'AND' || key === 'OR' || key === 'NOT') {
        logic[key] = this.object(r, v, at, opts);
        continue;
      }
      const f = fields.get(key);
      const p = f ? this.field(r, f, v, at, opts) : this.fail(at, `no filter ${key} on ${r.plural}`);
      if (p) parts.push(p);
    }
    if (logic.AND) parts.push(logic.AND);
    if (logic.NOT) parts.push(not(logic.NOT));
    const rest = parts.length ? and(parts) : null;
    if (!logic.OR) return rest;
    return rest ? or([rest, logic.OR]) : logic.OR;
  }

  private field(r: ResourceDef, f: NbField, v: unknown, path: string, opts: PlanOptions): Planned {
    switch (f.kind) {
      case 'id':
        // `site_id: null` is REST's `site_id=null`: no reference.
        return this.rest(r, path, f.rest, [v === null ? 'null' : text(v)], opts);
      case 'ref': {
        // A type the viewer may not view is not filtered on either (its names would leak through the answers).
        const target = resource(f.target);
        if (!this.viewer.canView(target)) return this.fail(path, `you may not view ${target.plural}`);
        // The referenced object's own filter; its custom fields are not this resource's.
        const sub = this.object(target, v, path, { ...opts, customFields: [] });
        // Only the related objects the viewer may see are filtered on (their scope, issue #39).
        return sub && via(f.field, f.target, and([sub, this.viewer.scope?.(target, []) ?? TRUE]));
      }
      case 'lookups':
        return this.lookups(r, f, v, path, opts);
      case 'tags':
        return this.tags(r, f, v, path, opts);
    }
  }

  /** A tag filter by slug or id, each exact or in a list: any of the tags given (REST's `tag`, one value each). */
  private tags(r: ResourceDef, f: Extract<NbField, { kind: 'tags' }>, v: unknown, path: string, opts: PlanOptions) {
    if (v === null || typeof v !== 'object') return null;
    const parts: Plan[] = [];
    for (const [key, lookups] of Object.entries(v)) {
      if (lookups === null || lookups === undefined) continue;
      if (key !== 'slug' && key !== 'id') {
        this.fail(`${path}.${key}`, `${f.name} filter by slug or id only`);
        continue;
      }
      for (const [lookup, given] of Object.entries(lookups as object)) {
        if (given === null || given === undefined) continue;
        const at = `${path}.${key}.${lookup}`;
        if (lookup !== 'exact' && lookup !== 'in_list') {
          this.fail(at, `${f.name} filter by ${key} exact or in_list only`);
          continue;
        }
        const any = (Array.isArray(given) ? given : [given]).map((x) => this.rest(r, at, f.rest, [text(x)], opts));
        if (any.every((p): p is Plan => p !== null)) parts.push(or(any));
      }
    }
    return parts.length ? and(parts) : null;
  }

  private lookups(
    r: ResourceDef,
    f: Extract<NbField, { kind: 'lookups' }>,
    v: unknown,
    path: string,
    opts: PlanOptions,
  ) {
    if (v === null) return null;
    if (typeof v !== 'object' || Array.isArray(v)) return this.fail(path, 'expected a lookup object');
    const parts: Plan[] = [];
    for (const [lookup, given] of Object.entries(v)) {
      if (given === null || given === undefined) continue; // a lookup given null is no condition
      const at = `${path}.${lookup}`;
      const form = f.forms.get(lookup as NbLookup);
      if (!form) {
        this.fail(at, `the ${f.name} filter has no ${lookup} lookup`);
        continue;
      }
      const values = Array.isArray(given) ? given.map(text) : [text(given)];
      // An empty in_list matches nothing (NetBox's `__in=[]`), where an absent REST parameter filters nothing.
      const p = values.length ? this.rest(r, at, restParam(f.rest, form), values.map(form.write), opts) : FALSE;
      if (p) parts.push(p);
    }
    return parts.length ? and(parts) : null;
  }
}

/** A value as the text REST would read: strings as given, numbers and booleans written out. */
const text = (v: unknown): string => (typeof v === 'string' ? v : String(v));

/** `filters`' value (variables already coerced) as a plan, or every error, each naming its path. */
export function translateFilters(
  r: ResourceDef,
  filters: unknown,
  opts: PlanOptions,
  viewer: GraphqlViewer = VIEW_ALL,
): FiltersPlan {
  const t = new Translation(viewer);
  const plan = t.object(r, filters, 'filters', opts);
  return t.errors.length ? { ok: false, message: t.errors.join('; ') } : { ok: true, plan: plan ?? and([]) };
}
