// The schema registry: the one list of resources, checked once at load.
import type { FieldDef, ResourceDef } from './types.js';
import { dependencyOrder } from './resource-order.js';
import { withCounts } from './counted-references.js';
import { DECLARED } from './declared.js';

/** In dependency order: a resource comes after every resource it references (but through a deferred
 * reference), with the related counts the references marked `counted` give it. */
export const RESOURCES: readonly ResourceDef[] = withCounts(dependencyOrder(DECLARED));

const byName = new Map(RESOURCES.map((r) => [r.name, r]));

export function resource(name: string): ResourceDef {
  const r = byName.get(name);
  if (!r) throw new Error(`unknown resource ${name}`);
  return r;
}

export function findResource(name: string): ResourceDef | undefined {
  return byName.get(name);
}

export function field(r: ResourceDef, name: string): FieldDef | undefined {
  return r.fields.find((f) => f.name === name);
}

/** 'dcim.site' */
export function contentType(r: ResourceDef): string {
  return `${r.app}.${r.name}`;
}

export function resourcePath(r: ResourceDef): string {
  return `/api/${r.app}/${r.plural}/`;
}

const briefCache = new Map<string, readonly string[]>();

/** Fields a nested (brief) representation carries besides id, url and display: the name, the slug,
 * the reference field and the display field (a device type's `model`), where the resource shows them. */
export function briefFields(r: ResourceDef): readonly string[] {
  let names = briefCache.get(r.name);
  if (!names) {
    names = [...new Set(['name', 'slug', r.refField, r.displayField])].filter((n) =>
      r.fields.some((f) => f.name === n && !f.hidden),
    );
    briefCache.set(r.name, names);
  }
  return names;
}

/** The references a brief form nests (`briefNests`), each with the resource it names; a name that is
 * not a foreign key is an error. */
export function briefNestTargets(r: ResourceDef): readonly { readonly field: string; readonly target: ResourceDef }[] {
  return (r.briefNests ?? []).map((field) => {
    const f = r.fields.find((x) => x.name === field && x.kind === 'fk');
    if (!f?.target) throw new Error(`${r.name}.briefNests: ${field} is not a foreign key of ${r.name}`);
    return { field, target: resource(f.target) };
  });
}

/** Name of the field derived from the network field as this part (its length, its family). */
export function netPartField(r: ResourceDef, part: NonNullable<FieldDef['netPart']>): string | undefined {
  return r.fields.find((f) => f.netPart === part)?.name;
}

export const isTaggable = (r: ResourceDef): boolean => r.fields.some((f) => f.kind === 'tags');
export const hasCustomFields = (r: ResourceDef): boolean => r.fields.some((f) => f.kind === 'custom_fields');

/** Resources that carry custom fields, by content type: what `content_types` of a custom field may name. */
export const CUSTOM_FIELD_CONTENT_TYPES: readonly string[] = RESOURCES.filter(hasCustomFields).map(contentType);

/** Resources whose writes leave change records, by content type: what `content_types` of a webhook may name. */
export const LOGGED_CONTENT_TYPES: readonly string[] = RESOURCES.filter((r) => r.logged !== false).map(contentType);

// Checked at load: a mistake in a resource stops the start, naming resource and field.
function check(): void {
  for (const r of RESOURCES) {
    const names = new Set<string>();
    for (const f of r.fields) {
      if (names.has(f.name)) throw new Error(`schema: ${r.name}.${f.name} declared twice`);
      names.add(f.name);
      if (f.kind === 'fk' && (!f.target || !byName.has(f.target)))
        throw new Error(`schema: ${r.name}.${f.name} has no known target`);
      if (f.kind === 'choice' && !f.choices?.length) throw new Error(`schema: ${r.name}.${f.name} has no choices`);
      if (f.writeOnly && (!f.hidden || f.readOnly))
        throw new Error(`schema: ${r.name}.${f.name} is write-only: it must be hidden and writable`);
    }
    for (const c of r.counts ?? []) {
      const ref = byName.get(c.resource)?.fields.find((f) => f.name === c.field);
      if (ref?.kind !== 'fk' || ref.target !== r.name)
        throw new Error(
          `schema: ${r.name}.${c.name} counts ${c.resource}.${c.field}, which is no reference to ${r.name}`,
        );
      if (names.has(c.name)) throw new Error(`schema: ${r.name}.${c.name} is both a field and a count`);
    }
    for (const key of [r.refField, r.displayField, r.tree].filter(Boolean) as string[])
      if (!names.has(key)) throw new Error(`schema: ${r.name} names unknown field ${key}`);
    for (const group of r.uniqueTogether ?? [])
      for (const n of group)
        if (!names.has(n)) throw new Error(`schema: ${r.name} unique group names unknown field ${n}`);
  }
}
check();

export { servedNames } from './served-names.js';
