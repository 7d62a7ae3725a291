// What a memory store checks on a write of one resource (unique fields and groups, references),
// in plain lists built once from the registry.
import type { IndexedTable } from '../../engine/memory/indexed-table.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import { uniqueGroups, type UniqueGroup } from '../../engine/schema/unique-groups.js';

/** Does a row other than `id` hold this value of the field (and pass `also`, when given)? */
export function heldByOther(
  t: IndexedTable,
  field: string,
  value: unknown,
  id: string,
  also?: (slot: number) => boolean,
): boolean {
  for (const s of t.hashOf(field)?.get(value as string) ?? []) if (t.idOf(s) !== id && (!also || also(s))) return true;
  return false;
}

/**
 * What a write of one resource checks, in plain lists of one shape each: the registry's field
 * definitions differ in shape from field to field, and reading them row after row in a bulk load
 * cost more than the checks themselves.
 */
export interface WriteChecks {
  /** Unique fields and groups; `rest`: a group's fields after the first (looked up by index). */
  readonly unique: readonly (UniqueGroup & { readonly rest: readonly string[] })[];
  readonly fks: readonly { readonly field: string; readonly target: string }[];
  /** The tags field, if the resource has one. */
  readonly tags: string | null;
}

export function writeChecks(r: ResourceDef): WriteChecks {
  return {
    unique: uniqueGroups(r).map((g) => ({ ...g, rest: g.fields.slice(1) })),
    fks: r.fields.filter((f) => f.kind === 'fk').map((f) => ({ field: f.name, target: f.target! })),
    tags: r.fields.find((f) => f.kind === 'tags')?.name ?? null,
  };
}
