// Validation of guard data. Reports problems into a shared list (so the whole
// machine's problems come back at once) and returns a fresh normalised copy
// of the guard when it is well-formed.
import { CHECK_OPS, type CheckOp, type Guard } from './types.js';
import { cloneJson, isJsonValue, isPlainObject, renderValue } from './json.js';
import { pathProblems } from './paths.js';
import { compilePattern } from './regex.js';

/** Deeper nesting is refused so evaluation recursion stays shallow. */
export const MAX_GUARD_DEPTH = 32;

const KIND_KEYS = ['field', 'all', 'any', 'not'] as const;
const CHECK_KEYS = ['field', 'op', 'value'];

export function validateGuard(
  raw: unknown,
  at: string,
  problems: string[],
  depth = 0,
): Guard | undefined {
  if (depth > MAX_GUARD_DEPTH) {
    problems.push(`${at}: guard nesting deeper than ${MAX_GUARD_DEPTH} levels`);
    return undefined;
  }
  if (!isPlainObject(raw)) {
    problems.push(`${at}: must be an object (a field check or one of all/any/not)`);
    return undefined;
  }
  const kinds = KIND_KEYS.filter((k) => Object.prototype.hasOwnProperty.call(raw, k));
  if (kinds.length === 0) {
    problems.push(`${at}: must have one of "field", "all", "any", "not"`);
    return undefined;
  }
  if (kinds.length > 1) {
    problems.push(`${at}: has more than one of ${kinds.map((k) => `"${k}"`).join(', ')}`);
    return undefined;
  }
  const kind = kinds[0];
  if (kind === 'field') return validateCheck(raw, at, problems);

  const before = problems.length;
  for (const key of Object.keys(raw)) {
    if (key !== kind) problems.push(`${at}.${key}: unknown key in "${kind}" guard`);
  }
  if (kind === 'not') {
    const inner = validateGuard(raw.not, `${at}.not`, problems, depth + 1);
    return inner && problems.length === before ? { not: inner } : undefined;
  }
  const list = raw[kind];
  if (!Array.isArray(list) || list.length === 0) {
    problems.push(`${at}.${kind}: must be a non-empty list of guards`);
    return undefined;
  }
  const children = list.map((g, i) => validateGuard(g, `${at}.${kind}[${i}]`, problems, depth + 1));
  if (problems.length !== before) return undefined;
  return kind === 'all' ? { all: children as Guard[] } : { any: children as Guard[] };
}

function validateCheck(raw: Record<string, unknown>, at: string, problems: string[]): Guard | undefined {
  const before = problems.length;
  for (const key of Object.keys(raw)) {
    if (!CHECK_KEYS.includes(key)) problems.push(`${at}.${key}: unknown key in field check`);
  }
  const field = raw.field;
  if (typeof field !== 'string') {
    problems.push(`${at}.field: must be a string`);
  } else {
    for (const p of pathProblems(field)) problems.push(`${at}.field: ${p}`);
  }

  const op = raw.op;
  if (op === undefined) {
    problems.push(`${at}.op: required (one of ${CHECK_OPS.join(', ')})`);
    return undefined;
  }
  if (typeof op !== 'string' || !(CHECK_OPS as readonly string[]).includes(op)) {
    problems.push(`${at}.op: unknown op ${renderValue(op)} (expected one of ${CHECK_OPS.join(', ')})`);
    return undefined;
  }
  const hasValue = Object.prototype.hasOwnProperty.call(raw, 'value');
  const valueProblem = checkValue(op as CheckOp, hasValue, raw.value);
  if (valueProblem) problems.push(`${at}.value: ${valueProblem}`);

  if (problems.length !== before) return undefined;
  const check: Guard = { field: field as string, op: op as CheckOp };
  if (hasValue) check.value = cloneJson(raw.value);
  return check;
}

/** Why `value` does not suit `op`, or undefined when it does. */
function checkValue(op: CheckOp, hasValue: boolean, value: unknown): string | undefined {
  switch (op) {
    case 'exists':
      return !hasValue || typeof value === 'boolean'
        ? undefined
        : `op "exists" takes an optional boolean, got ${renderValue(value)}`;
    case 'eq':
    case 'ne':
      if (!hasValue) return `required for op "${op}"`;
      return isJsonValue(value) ? undefined : `must be a JSON value for op "${op}"`;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      if (!hasValue) return `required for op "${op}"`;
      if (typeof value === 'string') return undefined;
      if (typeof value === 'number' && Number.isFinite(value)) return undefined;
      return `must be a finite number or a string for op "${op}", got ${renderValue(value)}`;
    case 'in':
    case 'not_in':
      if (!hasValue) return `required for op "${op}"`;
      if (!Array.isArray(value)) return `must be a list for op "${op}", got ${renderValue(value)}`;
      return isJsonValue(value) ? undefined : `must be a list of JSON values for op "${op}"`;
    case 'matches': {
      if (!hasValue) return `required for op "matches"`;
      if (typeof value !== 'string') return `must be a pattern string for op "matches", got ${renderValue(value)}`;
      const compiled = compilePattern(value);
      return compiled.ok ? undefined : `pattern does not compile in RE2: ${compiled.error}`;
    }
  }
}
