// Guard evaluation: guards are plain data interpreted here (no eval, no
// new Function, no JS RegExp on user patterns). Never throws, even on a
// guard that skipped validation: a malformed guard simply fails.
import type { Guard, GuardResult } from './types.js';
import { deepEqual, isPlainObject, renderValue } from './json.js';
import { lookupPath, type Lookup } from './paths.js';
import { compilePattern } from './regex.js';
import { describeGuard, MAX_GUARD_DEPTH } from './describe-guard.js';

export { describeGuard };

export function evaluateGuard(guard: Guard, context: Record<string, unknown>): GuardResult {
  return evaluateGuardList([guard], context);
}

/** Evaluate a list of guards that must all pass; reports the first failure. A lone guard is a list of one. */
export function evaluateGuards(guards: Guard[] | Guard, context: Record<string, unknown>): GuardResult {
  return evaluateGuardList(Array.isArray(guards) ? guards : [guards], context);
}

// Internal result: `malformed` marks a guard that could not be evaluated at
// all. It is never inverted by `not` nor rescued by `any`, so a broken guard
// can only ever block a transition.
type Outcome = GuardResult & { malformed?: true };

const fail = (failed: Guard, description: string): Outcome => ({ pass: false, failed, description });
const malformed = (failed: Guard, why: string): Outcome => ({
  pass: false,
  failed,
  description: `${describeGuard(failed)} (malformed: ${why})`,
  malformed: true,
});

function evaluateGuardList(guards: Guard[], context: unknown): GuardResult {
  for (const guard of guards) {
    const { malformed: _, ...result } = evaluate(guard, context, 0);
    if (!result.pass) return result;
  }
  return { pass: true };
}

function evaluate(guard: Guard, context: unknown, depth: number): Outcome {
  if (depth > MAX_GUARD_DEPTH) return malformed(guard, `nested deeper than ${MAX_GUARD_DEPTH} levels`);
  if (!isPlainObject(guard)) return malformed(guard, 'not an object');
  const g = guard as Record<string, unknown>;
  if (Array.isArray(g.all)) {
    // report the innermost failing check: it is the one a caller can fix
    for (const child of g.all) {
      const r = evaluate(child as Guard, context, depth + 1);
      if (!r.pass) return r;
    }
    return { pass: true };
  }
  if (Array.isArray(g.any)) {
    const reasons: string[] = [];
    let passed = false;
    for (const child of g.any) {
      const r = evaluate(child as Guard, context, depth + 1);
      if (!r.pass && r.malformed) return r;
      if (r.pass) passed = true;
      else reasons.push(r.description);
    }
    return passed ? { pass: true } : fail(guard, `${describeGuard(guard)} (none passed: ${reasons.join('; ')})`);
  }
  if ('not' in g) {
    const r = evaluate(g.not as Guard, context, depth + 1);
    if (!r.pass) return r.malformed ? r : { pass: true };
    return fail(guard, `${describeGuard(guard)} (inner check passed)`);
  }
  if (typeof g.field !== 'string') return malformed(guard, 'field is not a string');
  const found = lookupPath(context, g.field);
  const verdict = checkPasses(g, found);
  if (verdict === true) return { pass: true };
  if (verdict !== false) return malformed(guard, verdict);
  return fail(guard, `${describeGuard(guard)} (${found.found ? `was ${renderValue(found.value)}` : 'was missing'})`);
}

/**
 * true when the check passes, false when it fails, a reason string when it cannot be evaluated. The op and value
 * are read as they came (a guard that skipped validation may hold any), so an unknown op is a reason, not a throw.
 */
function checkPasses(check: { readonly op?: unknown; readonly value?: unknown }, found: Lookup): boolean | string {
  const actual = found.found ? found.value : undefined;
  const expected = check.value;
  switch (check.op) {
    case 'exists': {
      // null counts as absent: a JSON null serial is no serial
      const present = found.found && actual !== null;
      return present === (expected === undefined ? true : expected === true);
    }
    case 'eq':
      return found.found && deepEqual(actual, expected);
    case 'ne':
      return !(found.found && deepEqual(actual, expected));
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return compare(check.op, actual, expected);
    case 'in':
      if (!Array.isArray(expected)) return 'malformed list';
      return found.found && expected.some((v) => deepEqual(actual, v));
    case 'not_in':
      if (!Array.isArray(expected)) return 'malformed list';
      return !(found.found && expected.some((v) => deepEqual(actual, v)));
    case 'matches': {
      if (typeof expected !== 'string') return 'malformed pattern';
      const compiled = compilePattern(expected);
      if (!compiled.ok) return `pattern does not compile in RE2: ${compiled.error}`;
      return typeof actual === 'string' && compiled.re.test(actual);
    }
    default:
      return `unknown op ${renderValue(check.op)}`;
  }
}

/** Numbers with numbers, strings with strings; anything else is false. */
function compare(op: 'gt' | 'gte' | 'lt' | 'lte', a: unknown, b: unknown): boolean {
  const sameKind =
    (typeof a === 'number' && typeof b === 'number' && !Number.isNaN(a) && !Number.isNaN(b)) ||
    (typeof a === 'string' && typeof b === 'string');
  if (!sameKind) return false;
  const x = a as number | string;
  const y = b as number | string;
  switch (op) {
    case 'gt':
      return x > y;
    case 'gte':
      return x >= y;
    case 'lt':
      return x < y;
    case 'lte':
      return x <= y;
  }
}
