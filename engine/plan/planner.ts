// AST + resource -> plan. Applies every filter rule: AND across names, OR within a name,
// negation as complement (null foreign keys kept), tag AND, trees, custom fields, networks, q.
import type { FilterTerm, ParsedQuery, ParsedValue } from '../query/ast.js';
import { filtersOf, type FilterSpec } from '../filters/filter-set.js';
import { ADDRESS_TEXT_LOOKUPS, NET_LOOKUPS, ownLookup, type LookupSpec, type NetLookup } from '../filters/lookups.js';
import { MSG } from '../schema/messages.js';
import { normalizeDateTime, normalizeMac, normalizeUuid, toBoolean, toInteger, UUID_RE } from '../schema/normalize.js';
import type { CustomFieldDef, ResourceDef } from '../schema/types.js';
import { regexError } from '../text/regex.js';
import { and, cmp, fk, isNull, not, or, tag, via, type Plan, type Scalar } from './nodes.js';
import { netPlan, parseNetValue, type NetValue } from './net-terms.js';
import { cfTermPlan } from './cf-terms.js';

export type FilterErrors = Record<string, string[]>;

export interface PlanResult {
  readonly plan: Plan;
  readonly errors: FilterErrors;
  readonly ignored: readonly string[];   // unknown parameters dropped when filtering is not strict
}

export interface PlanOptions {
  readonly strict: boolean;
  readonly customFields: readonly CustomFieldDef[];  // those defined for this resource
}

type TermResult = Plan | string[];

const raws = (t: FilterTerm) => t.values.map((v) => v.raw);

/** Parse each value, or collect one message per bad value. */
type Parsed<T> = { ok: true; values: T[] } | { ok: false; errors: string[] };
function parseValues<T>(values: readonly ParsedValue[], parse: (v: ParsedValue) => { v: T } | string): Parsed<T> {
  const out: T[] = [], errs: string[] = [];
  for (const v of values) {
    const r = parse(v);
    if (typeof r === 'string') errs.push(r); else out.push(r.v);
  }
  return errs.length ? { ok: false, errors: errs } : { ok: true, values: out };
}

function scalarValue(spec: Extract<FilterSpec, { type: 'scalar' }>, lookup: LookupSpec | null, raw: string): { v: Scalar } | string {
  if (lookup?.op === 'regex') { const e = regexError(raw); return e === null ? { v: raw } : MSG.regex(e); }
  const textual = lookup !== null && lookup.op !== 'eq';
  const when = <T extends Scalar>(x: T | null, msg: string) => (x === null ? msg : { v: x });
  switch (spec.parse) {
    case 'string': return { v: raw };
    // A whole value is a MAC address, as a written one must be; lookups take any text.
    case 'mac': return textual ? { v: raw } : when(normalizeMac(raw), MSG.mac(raw));
    case 'choice':
      if (textual || lookup?.ci) return { v: raw };
      return spec.choices!.some((c) => c.value === raw) ? { v: raw } : MSG.filterChoice(raw);
    case 'integer': return when(toInteger(raw), MSG.wholeNumber);
    case 'datetime': return when(normalizeDateTime(raw), MSG.dateTime(raw));
    case 'boolean': return when(toBoolean(raw), MSG.filterChoice(raw));
    case 'uuid': return when(normalizeUuid(raw), MSG.uuid(raw));
    case 'family': return when(raw === '4' || raw === '6' ? Number(raw) : null, MSG.family);
  }
}

function scalarTerm(spec: Extract<FilterSpec, { type: 'scalar' }>, t: FilterTerm): TermResult {
  const lookup = t.lookup === null ? null : ownLookup(spec.lookups, t.lookup);
  if (t.lookup !== null && !lookup) return [MSG.unknownFilter];
  const parsed = parseValues<Scalar>(t.values, (v) => scalarValue(spec, lookup, v.raw));
  if (!parsed.ok) return parsed.errors;
  const node = cmp(spec.field, spec.valueType, lookup?.op ?? 'eq', lookup?.ci ?? false, parsed.values);
  return lookup?.negate ? not(node) : node;
}

function fkTerm(spec: Extract<FilterSpec, { type: 'fk' }>, t: FilterTerm): TermResult {
  if (t.lookup !== null && t.lookup !== 'n') return [MSG.unknownFilter];
  const refs = t.values.filter((v) => v.kind !== 'null').map((v) => v.raw);
  const wantsNull = refs.length !== t.values.length;
  const positive = or([...(refs.length ? [fk(spec.field, spec.target, refs.map((r) => (UUID_RE.test(r) ? r.toLowerCase() : r)), spec.tree)] : []), ...(wantsNull ? [isNull(spec.field)] : [])]);
  return t.lookup === 'n' ? not(positive) : positive;
}

/**
 * A related resource's foreign-key filter, through the relation's foreign keys. `null` also holds
 * when a key on the way is null (as SQL's outer join in Nautobot gives it: a prefix without a site
 * has no region); `__n` is the complement.
 */
function pathTerm(spec: Extract<FilterSpec, { type: 'path' }>, t: FilterTerm): TermResult {
  if (t.lookup !== null && t.lookup !== 'n') return [MSG.unknownFilter];
  const end = fkTerm(spec.end, { ...t, lookup: null });
  if (Array.isArray(end)) return end;
  const wantsNull = t.values.some((v) => v.kind === 'null');
  let p = end;
  for (let i = spec.via.length - 1; i >= 0; i--) p = or([via(spec.via[i].field, spec.via[i].target, p), ...(wantsNull ? [isNull(spec.via[i].field)] : [])]);
  return t.lookup === 'n' ? not(p) : p;
}

function tagTerm(t: FilterTerm): TermResult {
  if (t.lookup !== null && t.lookup !== 'n') return [MSG.unknownFilter];
  const nodes = raws(t).map((r) => tag(UUID_RE.test(r) ? r.toLowerCase() : r));
  return and(t.lookup === 'n' ? nodes.map(not) : nodes);
}

function netTerm(spec: Extract<FilterSpec, { type: 'net' | 'net_alias' }>, lookup: NetLookup | 'contains_any', t: FilterTerm): TermResult {
  if (lookup === 'family') {
    const bad = raws(t).filter((r) => r !== '4' && r !== '6');
    return bad.length ? [MSG.family] : cmp(spec.family, 'number', 'eq', false, raws(t).map(Number));
  }
  const parsed = parseValues<NetValue>(t.values, (v) => { const r = parseNetValue(v.raw); return typeof r === 'string' ? r : { v: r }; });
  return parsed.ok ? netPlan(spec.field, lookup, parsed.values) : parsed.errors;
}

function netLookupTerm(spec: Extract<FilterSpec, { type: 'net' }>, t: FilterTerm): TermResult {
  const lk = t.lookup;
  const l = lk === null ? null : ownLookup(ADDRESS_TEXT_LOOKUPS, lk);
  if (l) {
    if (l.op === 'regex') {
      const errs = raws(t).map(regexError).filter((e): e is string => e !== null);
      if (errs.length) return errs.map(MSG.regex);
    }
    return cmp(spec.field, 'string', l.op, l.ci, raws(t));
  }
  if (lk !== null && !(NET_LOOKUPS as readonly string[]).includes(lk)) return [MSG.unknownFilter];
  return netTerm(spec, (lk ?? 'base') as NetLookup, t);
}

function searchTerm(spec: Extract<FilterSpec, { type: 'q' }>, t: FilterTerm): TermResult {
  if (t.lookup !== null) return [MSG.unknownFilter];
  const vals = raws(t).filter((v) => v.trim() !== '');
  if (!vals.length) return and([]);
  return or(spec.fields.map((f) => cmp(f, 'string', 'contains', true, vals.map((v) => v.trim()))));
}

function termPlan(spec: FilterSpec, t: FilterTerm): TermResult {
  switch (spec.type) {
    case 'scalar': return scalarTerm(spec, t);
    case 'fk': return fkTerm(spec, t);
    case 'tag': return tagTerm(t);
    case 'net': return netLookupTerm(spec, t);
    case 'net_alias': return t.lookup !== null ? [MSG.unknownFilter] : netTerm(spec, spec.lookup, t);
    case 'q': return searchTerm(spec, t);
    case 'path': return pathTerm(spec, t);
  }
}

export function planQuery(r: ResourceDef, q: ParsedQuery, opts: PlanOptions): PlanResult {
  const errors: FilterErrors = Object.create(null); // keys are user-given parameter names
  const ignored: string[] = [];
  const parts: Plan[] = [];
  const unknown = (param: string) => { if (opts.strict) (errors[param] ??= []).push(MSG.unknownFilter); else ignored.push(param); };
  for (const e of q.errors) {
    if (e.message === MSG.unknownFilter) unknown(e.param); else (errors[e.param] ??= []).push(e.message);
  }
  const filters = filtersOf(r);
  const cfByName = new Map(opts.customFields.filter((d) => d.filter_logic !== 'disabled').map((d) => [d.name, d]));
  for (const given of q.terms) {
    // An empty value filters nothing (as in django-filter): `name=` lists everything, and
    // `region=&region=eu` is `region=eu`. The lookup is still checked.
    const kept = given.values.filter((v) => v.raw !== '');
    const t = kept.length === given.values.length ? given : { ...given, values: kept };
    let res: TermResult;
    if (t.cf) {
      const def = cfByName.get(t.field);
      if (!def) { unknown(t.param); continue; }
      res = cfTermPlan(def, t);
    } else {
      const spec = filters.get(t.field);
      if (!spec) { unknown(t.param); continue; }
      res = termPlan(spec, t);
    }
    if (Array.isArray(res)) {
      if (res.length === 1 && res[0] === MSG.unknownFilter) unknown(t.param);
      else (errors[t.param] ??= []).push(...new Set(res));
    } else if (kept.length) parts.push(res);
  }
  return { plan: and(parts), errors, ignored };
}
