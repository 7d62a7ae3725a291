// A constraint's key (`tenant__group__slug__in`) read as Django's ORM reads it: as many segments as
// name fields, each foreign key a hop to its target (`tenant`, then `group`), then at most one lookup.
// Names are the registry's, the names a field is served under (a device's `device_role`), `<fk>_id`,
// `id`/`pk`, `tags`, custom fields (`custom_field_data__<name>`, `cf_<name>`) and NetBox's own
// names where they differ (netbox-names.ts). Hidden fields and fields without a filter are unknown.
import { filtersOf, type FilterSpec } from '../filters/filter-set.js';
import { contentType, netPartField, resource, servedNames } from '../schema/registry.js';
import type { CustomFieldDef, FieldDef, ResourceDef } from '../schema/types.js';
import {
  constraintLookup,
  IMPLICIT_LOOKUP,
  NET_TRANSFORMS,
  type ConstraintLookup,
  type ValueClass,
} from './constraint-lookups.js';
import { netboxName } from './netbox-names.js';

export interface Hop {
  readonly field: string;
  readonly target: string;
}

type ScalarSpec = Extract<FilterSpec, { type: 'scalar' }>;

/** What a key ends on, in the resource the hops reach. */
export type PathEnd =
  /** A scalar field (or the id) with its REST filter spec, which says how values parse. */
  | {
      readonly kind: 'value';
      readonly spec: ScalarSpec;
      readonly cls: 'text' | 'number' | 'datetime' | 'boolean' | 'id';
    }
  /** A foreign key, compared by the target's id. */
  | { readonly kind: 'ref'; readonly field: string; readonly target: string }
  /** A prefix's or an address's network: `text` is the field holding its text. */
  | { readonly kind: 'net'; readonly role: 'network' | 'host'; readonly text: string }
  /** A tag the object carries, by slug or id. */
  | { readonly kind: 'tag'; readonly by: 'slug' | 'id' }
  | { readonly kind: 'cf'; readonly def: CustomFieldDef };

export interface ResolvedKey {
  readonly r: ResourceDef;
  readonly hops: readonly Hop[];
  readonly end: PathEnd;
  readonly lookupName: string;
  readonly lookup: ConstraintLookup;
}

/** Most foreign keys a key follows (`parent__parent__…` on a tree): a bound on the plan's depth. */
export const MAX_HOPS = 8;

const CF_CLASS: Record<CustomFieldDef['type'], ValueClass> = {
  text: 'text',
  url: 'text',
  select: 'text',
  json: 'text',
  date: 'datetime',
  integer: 'number',
  boolean: 'boolean',
  'multi-select': 'list',
};

export function classOf(end: PathEnd): ValueClass {
  switch (end.kind) {
    case 'value':
      return end.cls;
    case 'cf':
      return CF_CLASS[end.def.type];
    default:
      return end.kind;
  }
}

/** A field by any name it is known under; hidden fields and fields without a filter are not. */
function fieldNamed(r: ResourceDef, name: string): { f: FieldDef; idForm: boolean } | null {
  for (const f of r.fields) {
    if (f.hidden || (f.filter === false && f.kind !== 'prefix' && f.kind !== 'address')) continue;
    if (servedNames(f).includes(name)) return { f, idForm: false };
    if (f.kind === 'fk' && servedNames(f).some((n) => `${n}_id` === name)) return { f, idForm: true };
  }
  return null;
}

function scalarSpec(r: ResourceDef, field: string): ScalarSpec | null {
  for (const s of filtersOf(r).values()) if (s.type === 'scalar' && s.field === field) return s;
  return null;
}

const VALUE_CLASS: Partial<Record<FieldDef['kind'], Extract<PathEnd, { kind: 'value' }>['cls']>> = {
  uuid: 'id',
  string: 'text',
  slug: 'text',
  choice: 'text',
  mac: 'text',
  integer: 'number',
  datetime: 'datetime',
  boolean: 'boolean',
};

/** Resolution so far: the resource reached, the hops taken, and the segments left. */
interface Walk {
  r: ResourceDef;
  hops: Hop[];
  at: number;
}

type Step = { end: PathEnd; used: number } | { hop: Hop } | string;

export class KeyResolver {
  constructor(private readonly customFields: readonly CustomFieldDef[]) {}

  private cfDef(r: ResourceDef, name: string): CustomFieldDef | null {
    const type = contentType(r);
    return this.customFields.find((d) => d.name === name && d.content_types.includes(type)) ?? null;
  }

  /** The end or hop segment `segs[at]` names on `r` (`used`: segments taken beyond it), or why not. */
  private step(r: ResourceDef, segs: readonly string[], at: number): Step {
    const seg = segs[at];
    const next = segs[at + 1];
    if (seg === 'custom_field_data' || seg.startsWith('cf_')) {
      const name = seg === 'custom_field_data' ? next : seg.slice(3);
      if (!name) return `custom_field_data names no custom field`;
      const def = r.fields.some((f) => f.kind === 'custom_fields') ? this.cfDef(r, name) : null;
      return def
        ? { end: { kind: 'cf', def }, used: seg === 'custom_field_data' ? 1 : 0 }
        : `unknown custom field "${name}" on ${r.name}`;
    }
    if (seg === 'tags' && r.fields.some((f) => f.kind === 'tags')) {
      if (next === 'slug') return { end: { kind: 'tag', by: 'slug' }, used: 1 };
      if (next === 'id' || next === 'pk') return { end: { kind: 'tag', by: 'id' }, used: 1 };
      if (next !== undefined && !constraintLookup(next)) return `tags are matched by slug or id, not "${next}"`;
      return { end: { kind: 'tag', by: 'id' }, used: 0 };
    }
    const found = fieldNamed(r, seg);
    if (!found) return `unknown field "${seg}" on ${r.name}`;
    const { f, idForm } = found;
    if (f.kind === 'fk') {
      const target = resource(f.target!);
      if (idForm || next === 'id' || next === 'pk')
        return { end: { kind: 'ref', field: f.name, target: f.target! }, used: idForm ? 0 : 1 };
      // A name of the target is followed (Django resolves fields before lookups); else a lookup on the key.
      // A name that is no lookup either is the target's unknown field, named as such by the next step.
      if (next !== undefined && (fieldNamed(target, next) || isSpecialName(target, next) || !constraintLookup(next)))
        return { hop: { field: f.name, target: f.target! } };
      return { end: { kind: 'ref', field: f.name, target: f.target! }, used: 0 };
    }
    if (f.kind === 'prefix' || f.kind === 'address' || f.netRole) {
      const role = f.netRole ?? r.fields.find((x) => x.netRole)?.netRole;
      if (!role) return `no lookups on ${f.name}`;
      const part =
        next !== undefined && Object.prototype.hasOwnProperty.call(NET_TRANSFORMS, next)
          ? NET_TRANSFORMS[next as keyof typeof NET_TRANSFORMS]
          : null;
      if (part) {
        const spec = scalarSpec(r, netPartField(r, part) ?? '');
        return spec ? { end: { kind: 'value', spec, cls: 'number' }, used: 1 } : `no ${next} on ${f.name}`;
      }
      return { end: { kind: 'net', role, text: f.name }, used: 0 };
    }
    const cls = VALUE_CLASS[f.kind];
    const spec = cls && scalarSpec(r, f.name);
    return cls && spec ? { end: { kind: 'value', spec, cls }, used: 0 } : `no lookups on ${f.name}`;
  }

  /** The key resolved, or a message naming the segment that is wrong. */
  resolve(root: ResourceDef, key: string): ResolvedKey | string {
    const segs = key.split('__');
    if (segs.some((s) => s === '')) return `not a field path`;
    const w: Walk = { r: root, hops: [], at: 0 };
    for (;;) {
      // NetBox's name for a path of the product's (a prefix's `_region` is its site's region).
      const alias = netboxName(w.r, segs[w.at]);
      if (alias) segs.splice(w.at, 1, ...alias);
      const s = this.step(w.r, segs, w.at);
      if (typeof s === 'string') return s;
      if ('hop' in s) {
        if (w.hops.length >= MAX_HOPS) return `more than ${MAX_HOPS} references in one path`;
        w.hops.push(s.hop);
        w.r = resource(s.hop.target);
        w.at++;
        continue;
      }
      const rest = segs.slice(w.at + 1 + s.used);
      if (rest.length > 1) return `unknown lookup "${rest.join('__')}"`;
      const lookupName = rest[0] ?? IMPLICIT_LOOKUP;
      const lookup = constraintLookup(lookupName);
      if (!lookup) return `unknown lookup "${lookupName}"`;
      if (!lookup.on.includes(classOf(s.end))) return `lookup "${lookupName}" does not apply to ${segs[w.at]}`;
      return { r: w.r, hops: w.hops, end: s.end, lookupName, lookup };
    }
  }
}

const isSpecialName = (r: ResourceDef, name: string) =>
  name === 'tags' || name === 'custom_field_data' || name.startsWith('cf_') || netboxName(r, name) !== null;
