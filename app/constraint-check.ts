// HOOK for the constraint translator (issue #39 point 2, engine/permissions/): an object permission's
// constraints are stored as given; their shape is checked here (an object, a list of objects, or
// null). Whether each `path__lookup` names a field and a lookup of every object type is the
// translator's to say: it is to be called from this function, its messages returned as the
// `constraints` field's 400.
import { OBJECT_TYPES } from '../engine/schema/model-permissions.js';

const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why `constraints` cannot be saved for `objectTypes` (an empty list: it can). */
export function constraintProblems(objectTypes: readonly string[], constraints: unknown): string[] {
  if (constraints === null) return [];
  if (!isObject(constraints) && !(Array.isArray(constraints) && constraints.every(isObject)))
    return ['Constraints must be a JSON object, a list of JSON objects, or null.'];
  void objectTypes.filter((t) => OBJECT_TYPES.has(t)); // the translator checks paths per object type here
  return [];
}
