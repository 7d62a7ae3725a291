// NetBox's generic references (a GenericForeignKey: an IP address's `assigned_object`), declared on a
// resource as `generic` over fks it has. Served as `<name>_type` (the content type of the set fk's
// target), `<name>_id` (that fk's value) and `<name>` (the object's brief form); written as
// `<name>_type` + `<name>_id`, which set that fk and clear the others. Validation, serializers,
// OPTIONS, OpenAPI and the generated docs all derive from what is worked out here.
import { contentType, resource, RESOURCES } from './registry.js';
import type { FieldDef, ResourceDef } from './types.js';

export interface GenericRef {
  readonly name: string; // 'assigned_object'
  readonly label: string;
  readonly typeKey: string; // 'assigned_object_type'
  readonly idKey: string; // 'assigned_object_id'
  /** The fks, in declared order: the first one set is the object served. */
  readonly fields: readonly FieldDef[];
  /** Content type ('dcim.interface') -> the fk holding objects of it. */
  readonly byType: ReadonlyMap<string, FieldDef>;
  /** Fk name -> the content type of its target. */
  readonly typeOf: ReadonlyMap<string, string>;
}

/** Messages as NetBox words them (its ContentTypeField and the GenericForeignKey check of its models). */
export const GENERIC_MSG = {
  typeShape: "Invalid value. Specify a content type as '<app_label>.<model_name>'.",
  type: (v: string) => `Invalid content type: ${v}`,
  notNull: 'This field cannot be null.',
  notFound: (v: string) => `Related object not found using the provided value: ${v}.`,
  conflict: (g: GenericRef) =>
    `${g.typeKey} and ${g.idKey} name another object than ${g.fields.map((f) => f.name).join(' / ')} in the same ` +
    'request: give one of them, or the same object in both.',
} as const;

const BUILT = new WeakMap<ResourceDef, readonly GenericRef[]>();

/** A resource's generic references, worked out (and checked) once. */
export function genericRefs(r: ResourceDef): readonly GenericRef[] {
  let got = BUILT.get(r);
  if (!got) BUILT.set(r, (got = (r.generic ?? []).map((g) => built(r, g))));
  return got;
}

function built(r: ResourceDef, g: NonNullable<ResourceDef['generic']>[number]): GenericRef {
  const fields = g.fields.map((n) => {
    const f = r.fields.find((x) => x.name === n);
    if (f?.kind !== 'fk' || !f.nullable) throw new Error(`schema: ${r.name}.${g.name}: ${n} is no nullable fk`);
    return f;
  });
  const typeOf = new Map(fields.map((f) => [f.name, contentType(resource(f.target!))]));
  const byType = new Map(fields.map((f) => [typeOf.get(f.name)!, f]));
  if (byType.size !== fields.length) throw new Error(`schema: ${r.name}.${g.name}: two fks of one content type`);
  return { name: g.name, label: g.label, typeKey: `${g.name}_type`, idKey: `${g.name}_id`, fields, byType, typeOf };
}

/** The keys a generic reference is served under, in NetBox's order. */
export const genericKeys = (g: GenericRef): readonly string[] => [g.typeKey, g.idKey, g.name];

/** Every key the generic references of `r` are served under. */
export const allGenericKeys = (r: ResourceDef): readonly string[] => genericRefs(r).flatMap(genericKeys);

export interface Assigned {
  readonly field: FieldDef;
  readonly type: string;
  readonly id: string;
}

/** The object a row's generic reference names: its first fk that is set (null when none is). */
export function assignedOf(g: GenericRef, row: Readonly<Record<string, unknown>>): Assigned | null {
  for (const f of g.fields) {
    const v = row[f.name];
    if (typeof v === 'string') return { field: f, type: g.typeOf.get(f.name)!, id: v };
  }
  return null;
}

// Checked at load, as the registry is: a wrong declaration stops the start naming resource and field.
for (const r of RESOURCES) genericRefs(r);
