// AST + resource -> plan. Applies every filter rule: AND across names, OR within a name,
// negation as complement (null foreign keys kept), tag AND, trees, custom fields, networks, q.
import type { FilterTerm, ParsedQuery, ParsedValue } from '../query/ast.js';
import { cfFilterSpec, filtersOf, type CfFilterSpec, type FilterSpec } from '../filters/filter-set.js';
import { EXACT, ownLookup, type CmpLookup, type LookupSpec, type NetLookup } from '../filters/lookups.js';
import { MSG } from '../schema/messages.js';
import { normalizeDateTime, normalizeMac, toBoolean, toInteger } from '../schema/normalize.js';
import { idStyleOf, UUID_IDS, type IdStyle } from '../schema/id-style.js';
import { resource } from '../schema/registry.js';
import type { CustomFieldDef, ResourceDef } from '../schema/types.js';
import { regexError } from '../text/regex.js';
import { and, cmp, fk, isNull, not, or, tag, via, type Plan, type Scalar } from './nodes.js';
import { netPlan, parseNetValue, type NetValue } from './net-terms.js';
import { cfAbsent, cfEmptyText, cfTermPlan } from './cf-terms.js';

export type FilterErrors = Record<string, string[]>;

export interface PlanResult {
  readonly plan: Plan;
  readonly errors: FilterErrors;
  readonly ignored: readonly string[]; // unknown parameters dropped when filtering is not strict
}

export interface PlanOptions {
  readonly strict: boolean;
  readonly customFields: readonly CustomFieldDef[]; // those defined for this resource
  /** The store's id style (default UUIDs): which values of `id` and reference filters are ids. */
  readonly ids?: IdStyle;
}

/** What a term is planned for: the resource and the store's id style. */
export interface Ctx {
  readonly r: ResourceDef;
  readonly ids: IdStyle;
}

type TermResult = Plan | string[];

const raws = (t: FilterTerm) => t.values.map((v) => v.raw);

/** Parse each value, or collect one message per bad value. */
type Parsed<T> = { ok: true; values: T[] } | { ok: false; errors: string[] };
function parseValues<T>(values: readonly ParsedValue[], parse: (v: ParsedValue) => { v: T } | string): Parsed<T> {
  const out: T[] = [],
    errs: string[] = [];
  for (const v of values) {
    const r = parse(v);
    if (typeof r === 'string') errs.push(r);
    else out.push(r.v);
  }
  return errs.length ? { ok: false, errors: errs } : { ok: true, values: out };
}

type Spec = FilterSpec | CfFilterSpec;
type SpecOf<T extends Spec['type']> = Extract<Spec, { type: T }>;

/** A row the catalogue never gives this kind of filter: a mistake in filter-set.ts, not in a request. */
function misfit(spec: Spec, lookup: LookupSpec): never {
  throw new Error(`filter ${spec.name} (${spec.type}) has a '${lookup.does}' lookup it cannot plan`);
}

function cmpRow(spec: Spec, lookup: LookupSpec): CmpLookup {
  return lookup.does === 'cmp' ? lookup : misfit(spec, lookup);
}

/** One value of a scalar filter, parsed as the field takes it (permission constraints use it too), or why not. */
export function scalarValue(spec: SpecOf<'scalar'>, lookup: CmpLookup, raw: string, ctx: Ctx): { v: Scalar } | string {
  if (lookup.op === 'regex') {
    const e = regexError(raw);
    return e === null ? { v: raw } : MSG.regex(e);
  }
  const textual = lookup.op !== 'eq';
  const when = <T extends Scalar>(x: T | null, msg: string) => (x === null ? msg : { v: x });
  switch (spec.parse) {
    case 'string':
      return { v: raw };
    // A whole value is a MAC address, as a written one must be; lookups take any text.
    case 'mac':
      return textual ? { v: raw } : when(normalizeMac(raw), MSG.mac(raw));
    case 'choice':
      if (textual || lookup.ci) return { v: raw };
      return spec.choices!.some((c) => c.value === raw) ? { v: raw } : MSG.filterChoice(raw);
    case 'integer':
      return when(toInteger(raw), MSG.wholeNumber);
    case 'datetime':
      return when(normalizeDateTime(raw), MSG.dateTime(raw));
    case 'boolean':
      return when(toBoolean(raw), MSG.filterChoice(raw));
    case 'uuid': {
      const ids = idStyleOf(ctx.r, ctx.ids);
      return when(ids.parse(raw), ids.invalid(raw));
    }
    case 'family':
      return when(raw === '4' || raw === '6' ? Number(raw) : null, MSG.family);
  }
}

function scalarTerm(spec: SpecOf<'scalar'>, lookup: CmpLookup, t: FilterTerm, ctx: Ctx): TermResult {
  const parsed = parseValues<Scalar>(t.values, (v) => scalarValue(spec, lookup, v.raw, ctx));
  if (!parsed.ok) return parsed.errors;
  const node = cmp(spec.field, spec.valueType, lookup.op, lookup.ci, parsed.values);
  return lookup.negate ? not(node) : node;
}

/** Objects referenced by id or text reference (`byId`: by id only), or `null` for no reference. */
function fkTerm(spec: SpecOf<'fk'>, lookup: CmpLookup, t: FilterTerm, ctx: Ctx): TermResult {
  const wantsNull = t.values.some((v) => v.kind === 'null');
  const ids = idStyleOf(resource(spec.target), ctx.ids);
  const parsed = parseValues<string>(
    t.values.filter((v) => v.kind !== 'null'),
    ({ raw }) => {
      if (!spec.byId) return { v: ids.refIsId(raw) ? ids.parse(raw)! : raw };
      const id = ids.parse(raw);
      return id === null ? ids.invalid(raw) : { v: id };
    },
  );
  if (!parsed.ok) return parsed.errors;
  const refs = parsed.values;
  // A store whose ids are never written as text references (integers) reads a plain reference as one.
  const refOnly = !spec.byId && ids !== UUID_IDS;
  const positive = or([
    ...(refs.length ? [fk(spec.field, spec.target, refs, spec.tree, spec.byId, refOnly)] : []),
    ...(wantsNull ? [isNull(spec.field)] : []),
  ]);
  return lookup.negate ? not(positive) : positive;
}

/**
 * A related resource's foreign-key filter, through the relation's foreign keys. `null` also holds
 * when a key on the way is null (as SQL's outer join in Nautobot gives it: a prefix without a site
 * has no region); `__n` is the complement.
 */
function pathTerm(spec: SpecOf<'path'>, lookup: CmpLookup, t: FilterTerm, ctx: Ctx): TermResult {
  const end = fkTerm(spec.end, EXACT, t, ctx);
  if (Array.isArray(end)) return end;
  const wantsNull = t.values.some((v) => v.kind === 'null');
  let p = end;
  for (let i = spec.via.length - 1; i >= 0; i--)
    p = or([via(spec.via[i].field, spec.via[i].target, p), ...(wantsNull ? [isNull(spec.via[i].field)] : [])]);
  return lookup.negate ? not(p) : p;
}

/**
 * A generic reference's filter: objects whose set fk is of one of the content types given (the first fk
 * set is the one served), or whose fks hold one of the ids given (any of them, as NetBox matches the id
 * whatever the type); `null`: none is set.
 */
function genericTerm(spec: SpecOf<'generic'>, lookup: CmpLookup, t: FilterTerm, ctx: Ctx): TermResult {
  const given = { ...t, values: t.values.filter((v) => v.kind !== 'null') };
  const none = t.values.length > given.values.length ? [and(spec.ends.map((e) => isNull(e.field)))] : [];
  let some: Plan[];
  if (spec.part === 'id') {
    const ends = given.values.length ? spec.ends.map((e) => fkTerm(e, EXACT, given, ctx)) : [];
    const bad = ends.find((e) => Array.isArray(e));
    if (bad) return bad;
    some = ends as Plan[];
  } else {
    const parsed = parseValues<number>(given.values, ({ raw }) => {
      const i = spec.types.indexOf(raw);
      return i < 0 ? MSG.filterChoice(raw) : { v: i };
    });
    if (!parsed.ok) return parsed.errors;
    some = [...new Set(parsed.values)].map((i) =>
      and([not(isNull(spec.ends[i].field)), ...spec.ends.slice(0, i).map((e) => isNull(e.field))]),
    );
  }
  const positive = or([...some, ...none]);
  return lookup.negate ? not(positive) : positive;
}

function tagTerm(lookup: CmpLookup, t: FilterTerm, ctx: Ctx): TermResult {
  const ids = idStyleOf(resource('tag'), ctx.ids);
  const nodes = raws(t).map((r) => tag(ids.refIsId(r) ? ids.parse(r)! : r));
  return and(lookup.negate ? nodes.map(not) : nodes);
}

function netTerm(spec: SpecOf<'net' | 'net_alias'>, lookup: NetLookup, t: FilterTerm): TermResult {
  const parsed = parseValues<NetValue>(t.values, (v) => {
    const r = parseNetValue(v.raw);
    return typeof r === 'string' ? r : { v: r };
  });
  return parsed.ok ? netPlan(spec.field, lookup, parsed.values) : parsed.errors;
}

function familyTerm(spec: SpecOf<'net' | 'net_alias'>, t: FilterTerm): TermResult {
  const bad = raws(t).filter((r) => r !== '4' && r !== '6');
  return bad.length ? [MSG.family] : cmp(spec.family, 'number', 'eq', false, raws(t).map(Number));
}

/** A network filter: a network lookup, the family, or a string lookup on the address text. */
function networkTerm(spec: SpecOf<'net' | 'net_alias'>, lookup: LookupSpec, t: FilterTerm): TermResult {
  switch (lookup.does) {
    case 'net':
      return netTerm(spec, lookup.op, t);
    case 'family':
      return familyTerm(spec, t);
    case 'cmp': {
      if (lookup.op === 'regex') {
        const errs = raws(t)
          .map(regexError)
          .filter((e): e is string => e !== null);
        if (errs.length) return errs.map(MSG.regex);
      }
      const node = cmp(spec.field, 'string', lookup.op, lookup.ci, raws(t));
      return lookup.negate ? not(node) : node;
    }
    default:
      return misfit(spec, lookup);
  }
}

function searchTerm(spec: SpecOf<'q'>, lookup: CmpLookup, t: FilterTerm): TermResult {
  const vals = raws(t).filter((v) => v.trim() !== '');
  if (!vals.length) return and([]);
  return or(
    spec.fields.map((f) =>
      cmp(
        f,
        'string',
        lookup.op,
        lookup.ci,
        vals.map((v) => v.trim()),
      ),
    ),
  );
}

/** The test of "no value" on a filter's field: null (or, for a custom field, missing or null). */
function noValue(spec: Spec, lookup: LookupSpec): Plan {
  switch (spec.type) {
    case 'scalar':
    case 'fk':
      return isNull(spec.field);
    case 'cf':
      return cfAbsent(spec.def);
    default:
      return misfit(spec, lookup);
  }
}

/** The test of an empty text on a filter's field. */
function emptyText(spec: Spec, lookup: LookupSpec): Plan {
  switch (spec.type) {
    case 'scalar':
      return cmp(spec.field, 'string', 'eq', false, ['']);
    case 'cf':
      return cfEmptyText(spec.def);
    default:
      return misfit(spec, lookup);
  }
}

/** A lookup that takes booleans (`__isnull`, `__empty`): true is the test, false its complement. */
function flagTerm(test: Plan, t: FilterTerm): TermResult {
  const parsed = parseValues<boolean>(t.values, ({ raw }) => {
    const b = toBoolean(raw);
    return b === null ? MSG.boolean : { v: b };
  });
  if (!parsed.ok) return parsed.errors;
  return or([...new Set(parsed.values)].map((yes) => (yes ? test : not(test))));
}

/** The plan of one parameter, its lookup already resolved in its filter's table. */
function termPlan(spec: Spec, lookup: LookupSpec, t: FilterTerm, ctx: Ctx): TermResult {
  if (lookup.does === 'isnull') return flagTerm(noValue(spec, lookup), t);
  if (lookup.does === 'empty') return flagTerm(or([noValue(spec, lookup), emptyText(spec, lookup)]), t);
  switch (spec.type) {
    case 'scalar':
      return scalarTerm(spec, cmpRow(spec, lookup), t, ctx);
    case 'fk':
      return fkTerm(spec, cmpRow(spec, lookup), t, ctx);
    case 'tag':
      return tagTerm(cmpRow(spec, lookup), t, ctx);
    case 'net':
    case 'net_alias':
      return networkTerm(spec, lookup, t);
    case 'q':
      return searchTerm(spec, cmpRow(spec, lookup), t);
    case 'path':
      return pathTerm(spec, cmpRow(spec, lookup), t, ctx);
    case 'generic':
      return genericTerm(spec, cmpRow(spec, lookup), t, ctx);
    case 'cf':
      return cfTermPlan(spec.def, cmpRow(spec, lookup), t.lookup === null, t);
  }
}

/** A parameter's lookup in its filter's table (the base row for a bare name); null when unknown. */
export function resolveLookup(spec: Spec, lookup: string | null): LookupSpec | null {
  return lookup === null ? spec.base : ownLookup(spec.lookups, lookup);
}

export function planQuery(r: ResourceDef, q: ParsedQuery, opts: PlanOptions): PlanResult {
  const errors: FilterErrors = Object.create(null); // keys are user-given parameter names
  const ignored: string[] = [];
  const parts: Plan[] = [];
  const unknown = (param: string) => {
    if (opts.strict) (errors[param] ??= []).push(MSG.unknownFilter);
    else ignored.push(param);
  };
  for (const e of q.errors) {
    if (e.message === MSG.unknownFilter) unknown(e.param);
    else (errors[e.param] ??= []).push(e.message);
  }
  const filters = filtersOf(r);
  const ctx: Ctx = { r, ids: opts.ids ?? UUID_IDS };
  const cfByName = new Map(opts.customFields.filter((d) => d.filter_logic !== 'disabled').map((d) => [d.name, d]));
  for (const given of q.terms) {
    const def = given.cf ? cfByName.get(given.field) : undefined;
    const spec = given.cf ? def && cfFilterSpec(def) : filters.get(given.field);
    const lookup = spec && resolveLookup(spec, given.lookup);
    if (!spec || !lookup) {
      unknown(given.param);
      continue;
    }
    // An empty value filters nothing (as in django-filter): `name=` lists everything, and
    // `region=&region=eu` is `region=eu`. The name and the lookup are still checked.
    const kept = given.values.filter((v) => v.raw !== '');
    const t = kept.length === given.values.length ? given : { ...given, values: kept };
    const res = termPlan(spec, lookup, t, ctx);
    if (Array.isArray(res)) (errors[t.param] ??= []).push(...new Set(res));
    else if (kept.length) parts.push(res);
  }
  return { plan: and(parts), errors, ignored };
}
