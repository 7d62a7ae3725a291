// Guards in words, as error messages and diagrams say them (`amount gt 0`). No other import than
// JSON rendering: the web UI bundles this file to show guards the way the API words them.
import type { Guard } from './types.js';
import { isPlainObject, renderValue } from './json.js';

/** Nesting depth of all/any/not a guard may have. */
export const MAX_GUARD_DEPTH = 32;

/** Human rendering of a guard, e.g. `amount lte 1000` or `any(a eq 1, not(b exists))`. */
export function describeGuard(guard: Guard, depth = 0): string {
  if (depth > MAX_GUARD_DEPTH || !isPlainObject(guard)) return '<malformed guard>';
  const g = guard as Record<string, unknown>;
  if (Array.isArray(g.all)) return `all(${g.all.map((c) => describeGuard(c as Guard, depth + 1)).join(', ')})`;
  if (Array.isArray(g.any)) return `any(${g.any.map((c) => describeGuard(c as Guard, depth + 1)).join(', ')})`;
  if ('not' in g) return `not(${describeGuard(g.not as Guard, depth + 1)})`;
  const field = typeof g.field === 'string' ? g.field : renderValue(g.field);
  const op = typeof g.op === 'string' ? g.op : renderValue(g.op);
  if (op === 'exists') return g.value === false ? `${field} exists false` : `${field} exists`;
  return `${field} ${op} ${renderValue(g.value)}`;
}
