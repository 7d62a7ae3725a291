// An object permission's constraints, checked when it is saved: their shape (an object, a list of
// objects, or null), then each `path__lookup: value` against every object type the permission names,
// by the translator the reads will use (engine/permissions/constraint-plan.ts), as NetBox checks them
// (with user id 0 standing for `$user`). The messages are the `constraints` field's 400.
import { constraintPlan, errorLines } from '../engine/permissions/constraint-plan.js';
import { customFieldDefOf } from '../engine/schema/resources/custom-field.js';
import { contentType, RESOURCES } from '../engine/schema/registry.js';
import type { Storage } from '../storage/types.js';
import { allRows } from './principal.js';

const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);
const BY_TYPE = new Map(RESOURCES.map((r) => [contentType(r), r]));

/** Why `constraints` cannot be saved for `objectTypes` (an empty list: it can). */
export async function constraintProblems(
  storage: Storage,
  objectTypes: readonly string[],
  constraints: unknown,
): Promise<string[]> {
  if (constraints === null) return [];
  if (!isObject(constraints) && !(Array.isArray(constraints) && constraints.every(isObject)))
    return ['Constraints must be a JSON object, a list of JSON objects, or null.'];
  const types = objectTypes.filter((t) => BY_TYPE.has(t));
  if (!types.length) return [];
  const customFields = (await allRows(storage, 'custom_field')).map(customFieldDefOf);
  const problems: string[] = [];
  for (const t of types) {
    const got = constraintPlan(BY_TYPE.get(t)!, constraints, { userId: 0, customFields, ids: storage.ids });
    if (!got.ok) problems.push(...errorLines(got.errors).map((line) => (types.length > 1 ? `${t}: ${line}` : line)));
  }
  return problems;
}
