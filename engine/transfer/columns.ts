// The columns of a resource's CSV / YAML form (NetBox's import headers), derived from the registry: its
// writable fields, references by their natural key (with the parent columns a key needs where a name is
// unique only within a parent), `tags` as slugs, `cf_<name>` per custom field. Pure: the I/O that reads
// referenced objects and writes imported ones lives in app/transfer/.
import { resource } from '../schema/registry.js';
import type { CustomFieldDef, FieldDef, ResourceDef } from '../schema/types.js';

/**
 * How a referenced object is named: its `field` (the target's refField) and, where that is unique only
 * within parents (a device's name within its site), each parent's column and key.
 */
export interface NaturalKey {
  readonly target: ResourceDef;
  readonly field: string;
  readonly parents: readonly { readonly fk: string; readonly column: string; readonly key: NaturalKey }[];
  /** Names one object whatever the data (else only where the export finds it does). */
  readonly strong: boolean;
}

export type Column =
  | { readonly kind: 'id'; readonly name: 'id' }
  | { readonly kind: 'value'; readonly name: string; readonly field: FieldDef }
  | { readonly kind: 'ref'; readonly name: string; readonly field: FieldDef; readonly key: NaturalKey }
  /** A parent's part of a reference's key (`site` beside `device`): filled and read with its reference. */
  | { readonly kind: 'parent'; readonly name: string; readonly field: FieldDef }
  | { readonly kind: 'tags'; readonly name: 'tags'; readonly field: FieldDef }
  | { readonly kind: 'cf'; readonly name: string; readonly def: CustomFieldDef };

const keys = new Map<string, NaturalKey>();

/**
 * How objects of `t` are named: by a unique refField; else by the refField within the parents of a unique group
 * that holds it (a device's name within its site). `strong` when that always names one object (every parent
 * required, each named strongly); else (a parent may be null, or no group holds the refField: a VLAN's name) the
 * key is used for an object only where it names that one (checked when exported), and the id otherwise.
 */
export function naturalKey(t: ResourceDef): NaturalKey {
  const known = keys.get(t.name);
  if (known) return known;
  const ref = t.fields.find((f) => f.name === t.refField)!;
  let key: NaturalKey = { target: t, field: ref.name, parents: [], strong: !!ref.unique };
  keys.set(t.name, key); // a cycle through parents stops here
  if (!ref.unique)
    for (const group of t.uniqueTogether ?? []) {
      if (!group.includes(ref.name)) continue;
      const parents = group.filter((n) => n !== ref.name).map((n) => t.fields.find((f) => f.name === n)!);
      if (!parents.every((p) => p.kind === 'fk' && p.target !== t.name)) continue; // a tree's parent: no key
      const named = parents.map((p) => ({ fk: p.name, column: p.name, key: naturalKey(resource(p.target!)) }));
      const strong = parents.every((p, i) => p.required && !p.nullable && named[i].key.strong);
      key = { target: t, field: ref.name, parents: named, strong };
      break;
    }
  keys.set(t.name, key);
  return key;
}

/** Fields a CSV carries: writable, shown (not the row version), not read-only. */
export const transferFields = (r: ResourceDef): readonly FieldDef[] =>
  r.fields.filter((f) => !f.readOnly && !f.hidden && f.kind !== 'custom_fields');

/** The parent columns a key adds, named by the parent's field unless taken (then `<child column>_<field>`). */
function parentColumns(key: NaturalKey, child: string, f: FieldDef, taken: Set<string>, out: Column[]): NaturalKey {
  const parents = key.parents.map((p) => {
    const column = taken.has(p.fk) ? `${child}_${p.fk}` : p.fk;
    taken.add(column);
    out.push({ kind: 'parent', name: column, field: f });
    return { ...p, column, key: parentColumns(p.key, column, f, taken, out) };
  });
  return { ...key, parents };
}

/** The columns of `r`, the id first; `customFields`: the resource's definitions (each a `cf_<name>`). */
export function columnsOf(r: ResourceDef, customFields: readonly CustomFieldDef[]): Column[] {
  const fields = transferFields(r);
  const taken = new Set(['id', ...fields.map((f) => f.name), ...customFields.map((d) => `cf_${d.name}`)]);
  const out: Column[] = [{ kind: 'id', name: 'id' }];
  for (const f of fields) {
    if (f.kind === 'tags') out.push({ kind: 'tags', name: 'tags', field: f });
    else if (f.kind !== 'fk') out.push({ kind: 'value', name: f.name, field: f });
    else {
      const at = out.length;
      const parents: Column[] = [];
      const key = naturalKey(resource(f.target!));
      const named = parentColumns(key, f.name, f, taken, parents);
      out.splice(at, 0, { kind: 'ref', name: f.name, field: f, key: named }, ...parents);
    }
  }
  if (r.fields.some((f) => f.kind === 'custom_fields'))
    for (const def of customFields) out.push({ kind: 'cf', name: `cf_${def.name}`, def });
  return out;
}

/** The columns `keep` names (a column goes with its field: a reference's parent columns with it); without `id`
 * when `noId`. */
export function keptColumns(all: readonly Column[], keep: ReadonlySet<string> | null, noId: boolean): Column[] {
  return all.filter((c) => {
    if (c.kind === 'id') return !noId;
    const name = c.kind === 'cf' ? 'custom_fields' : c.kind === 'parent' || c.kind === 'ref' ? c.field.name : c.name;
    return !keep || keep.has(name) || (c.kind === 'cf' && keep.has(c.name));
  });
}
