// NetBox 4's lookup names and the REST lookup each runs as. A NetBox lookup lists the REST forms that
// can answer it, in order of preference; a filter takes the first its own REST lookup table has
// (engine/filters/lookups.ts via the planner's resolveLookup), so no field or resource is listed here.
import type { FilterSpec } from '../../../engine/filters/filter-set.js';
import { resolveLookup } from '../../../engine/plan/planner.js';

export const NB_LOOKUPS = [
  'exact',
  'i_exact',
  'contains',
  'i_contains',
  'starts_with',
  'i_starts_with',
  'ends_with',
  'i_ends_with',
  'regex',
  'i_regex',
  'gt',
  'gte',
  'lt',
  'lte',
  'in_list',
  'is_null',
] as const;
export type NbLookup = (typeof NB_LOOKUPS)[number];

/** How a NetBox lookup runs on REST: the parameter suffix (null: the bare name), and how a value is written. */
export interface RestForm {
  readonly suffix: string | null;
  /** The value as the REST lookup reads it (a regular expression built from the text, for `re`). */
  readonly write: (text: string) => string;
}

/** A literal text inside a regular expression that RE2, PostgreSQL and MySQL all read the same. */
export function escapeRegex(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

const as = (text: string) => text;
const re = (pre: string, post: string) => (text: string) => pre + escapeRegex(text) + post;
const form = (suffix: string | null, write = as): RestForm => ({ suffix, write });
/** A regular-expression form on either of the catalogue's names (`re` on text, `regex` on an address). */
const reForms = (ci: boolean, pre: string, post: string): RestForm[] =>
  (ci ? ['ire', 'iregex'] : ['re', 'regex']).map((s) => form(s, re(pre, post)));

/** Each NetBox lookup's REST forms, the first one a filter has being the one it runs as. */
export const REST_FORMS: Readonly<Record<NbLookup, readonly RestForm[]>> = {
  exact: [form(null)],
  i_exact: [form('ie'), form('iexact')],
  // The case-sensitive substring lookups have no REST lookup of their own: `re` on the escaped text.
  contains: reForms(false, '', ''),
  i_contains: [form('ic'), ...reForms(true, '', '')],
  starts_with: [form('startswith'), ...reForms(false, '^', '')],
  i_starts_with: [form('isw'), form('istartswith'), ...reForms(true, '^', '')],
  ends_with: [form('endswith'), ...reForms(false, '', '$')],
  i_ends_with: [form('iew'), form('iendswith'), ...reForms(true, '', '$')],
  regex: [form('re'), form('regex')],
  i_regex: [form('ire'), form('iregex')],
  gt: [form('gt')],
  gte: [form('gte')],
  lt: [form('lt')],
  lte: [form('lte')],
  // A list is the repeated bare parameter (any of the values).
  in_list: [form(null)],
  is_null: [form('isnull')],
};

/** The NetBox lookups a REST filter answers, each with the REST form it runs as. */
export function restFormsOf(spec: FilterSpec): ReadonlyMap<NbLookup, RestForm> {
  const out = new Map<NbLookup, RestForm>();
  for (const nb of NB_LOOKUPS) {
    const f = REST_FORMS[nb].find((c) => resolveLookup(spec, c.suffix) !== null);
    if (f) out.set(nb, f);
  }
  return out;
}

/** The REST parameter name of a form on a filter: `name__ic`, or `name` for the bare form. */
export const restParam = (filter: string, f: RestForm): string => (f.suffix ? `${filter}__${f.suffix}` : filter);
