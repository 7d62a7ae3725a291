// Guards, walked one at a time (machine-schema.ts says why ajv does not recurse into them): how
// deep they nest, exactly one kind key, each against its kind's schema, and the rules no schema
// says: a field path's segments and a check's value against its op.
import { CHECK_OPS, type CheckOp, type FieldCheck, type Guard } from './types.js';
import { cloneJson, isJsonValue, isPlainObject, renderValue } from './json.js';
import { GUARD_KINDS, MAX_GUARD_DEPTH, type GuardKind, type SchemaChecks } from './machine-schema.js';
import { pathProblems } from './paths.js';
import { compilePattern } from './regex.js';
import { schemaProblems } from './schema-problems.js';

/** Reports one problem at a location ("transitions[0].guards[1].value"). */
export type Report = (at: string, message: string) => void;

const has = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);
const KINDS = Object.keys(GUARD_KINDS) as GuardKind[];
const quoted = (keys: readonly string[]): string => keys.map((k) => `"${k}"`).join(', ');
const NO_KIND = `must have one of ${quoted(KINDS)}`;

export function checkGuard(raw: unknown, at: string, checks: SchemaChecks, report: Report, depth = 0): void {
  if (depth > MAX_GUARD_DEPTH) {
    report(at, `guard nesting deeper than ${MAX_GUARD_DEPTH} levels`);
    return;
  }
  if (!isPlainObject(raw)) {
    report(at, `must be an object: a field check or one of all, any and not, got ${renderValue(raw)}`);
    return;
  }
  const kinds = KINDS.filter((k) => has(raw, k));
  if (kinds.length !== 1) {
    report(at, kinds.length ? `has more than one of ${quoted(kinds)}` : NO_KIND);
    return;
  }
  const kind = kinds[0];
  for (const [where, message] of schemaProblems(checks.guard[kind](raw), checks.schemas, at)) report(where, message);
  if (kind === 'field') fieldRules(raw, at, report);
  else if (kind === 'not') checkGuard(raw.not, `${at}.not`, checks, report, depth + 1);
  else if (Array.isArray(raw[kind])) {
    (raw[kind] as unknown[]).forEach((g, i) => checkGuard(g, `${at}.${kind}[${i}]`, checks, report, depth + 1));
  }
}

/** A field check's path segments, and its value against its op. */
function fieldRules(raw: Record<string, unknown>, at: string, report: Report): void {
  if (typeof raw.field === 'string' && raw.field !== '') {
    const bad = pathProblems(raw.field);
    if (bad.length) report(`${at}.field`, bad.join('; '));
  }
  if (typeof raw.op === 'string' && (CHECK_OPS as readonly string[]).includes(raw.op)) {
    const problem = checkValue(raw.op as CheckOp, has(raw, 'value'), raw.value);
    if (problem) report(`${at}.value`, problem);
  }
}

/** A fresh copy of a guard that passed every check. */
export function copyGuard(g: Guard): Guard {
  if ('all' in g) return { all: g.all.map(copyGuard) };
  if ('any' in g) return { any: g.any.map(copyGuard) };
  if ('not' in g) return { not: copyGuard(g.not) };
  const check: FieldCheck = { field: g.field, op: g.op };
  if (has(g, 'value')) check.value = cloneJson(g.value);
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
