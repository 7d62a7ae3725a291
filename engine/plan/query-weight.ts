// Which list queries are heavy (MAX_HEAVY_QUERIES), told from the plan alone so that every backend
// caps the same queries: a regular expression or a case-insensitive text lookup anywhere (no
// index serves them everywhere), or filters none of which narrows the rows through an index
// (only negations, substrings and the like: every row is read). A list with no filter at all is
// not heavy: it reads one page in key order.
import type { Plan } from './nodes.js';

/** Lookups that no index serves on every backend. */
function scansText(p: Plan): boolean {
  switch (p.kind) {
    case 'and':
    case 'or':
      return p.children.some(scansText);
    case 'not':
      return scansText(p.child);
    case 'via':
      return scansText(p.plan);
    case 'cmp':
    case 'cf':
      return p.op === 'regex' || (p.ci && p.valueType === 'string');
    default:
      return false;
  }
}

const RANGE = new Set(['lt', 'lte', 'gt', 'gte']);

/** Does the plan limit the rows through an index: values, ranges, references, tags, networks? */
function narrows(p: Plan): boolean {
  switch (p.kind) {
    case 'and':
      return p.children.some(narrows);
    case 'or':
      return p.children.every(narrows);
    case 'not':
      return false;
    case 'const':
      return !p.value;
    case 'cmp':
      return !p.ci && (p.op === 'eq' || RANGE.has(p.op));
    case 'cf':
      return p.op === 'eq' || p.op === 'has' || RANGE.has(p.op);
    case 'null':
    case 'fk':
    case 'via':
    case 'tag':
    case 'net':
      return true;
  }
}

const known = new WeakMap<Plan, boolean>(); // plans are cached and immutable: decided once each

export function isHeavy(plan: Plan): boolean {
  let h = known.get(plan);
  if (h === undefined) known.set(plan, (h = scansText(plan) || (plan.kind !== 'const' && !narrows(plan))));
  return h;
}
