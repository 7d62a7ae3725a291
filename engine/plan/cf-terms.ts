// Custom field filter terms. Lookups by type; loose text matches case-insensitive contains,
// exact a full match; `__n` always exact; without a lookup one value only.
import type { FilterTerm } from '../query/ast.js';
import { NEGATION_ONLY, NUMERIC_LOOKUPS, ownLookup, STRING_LOOKUPS, type LookupTable } from '../filters/lookups.js';
import { MSG } from '../schema/messages.js';
import { normalizeDate, toBoolean, toInteger } from '../schema/normalize.js';
import type { CustomFieldDef, CustomFieldType } from '../schema/types.js';
import { regexError } from '../text/regex.js';
import { cf, not, or, type CfNode, type Plan, type Scalar } from './nodes.js';

export const CF_LOOKUPS: Record<CustomFieldType, LookupTable> = {
  text: STRING_LOOKUPS, url: STRING_LOOKUPS, select: STRING_LOOKUPS,
  integer: NUMERIC_LOOKUPS, date: NUMERIC_LOOKUPS,
  'multi-select': NEGATION_ONLY,
  boolean: {}, json: {},
};

const VALUE_TYPE: Record<CustomFieldType, CfNode['valueType']> = {
  text: 'string', url: 'string', select: 'string', integer: 'number', date: 'string', 'multi-select': 'list', boolean: 'boolean', json: 'string',
};

function parseValue(type: CustomFieldType, raw: string): { v: Scalar } | string {
  switch (type) {
    case 'integer': { const n = toInteger(raw); return n === null ? MSG.wholeNumber : { v: n }; }
    case 'date': return normalizeDate(raw) ? { v: raw } : MSG.date(raw);
    case 'boolean': { const b = toBoolean(raw); return b === null ? MSG.filterChoice(raw) : { v: b }; }
    case 'json': {
      // A scalar JSON value compares with a stored scalar; anything else compares as text.
      try { const j = JSON.parse(raw); return typeof j === 'object' ? { v: raw } : { v: j as Scalar }; } catch { return { v: raw }; }
    }
    default: return { v: raw };
  }
}

export function cfTermPlan(def: CustomFieldDef, t: FilterTerm): Plan | string[] {
  const lookups = CF_LOOKUPS[def.type];
  const lookup = t.lookup === null ? null : ownLookup(lookups, t.lookup);
  if (t.lookup !== null && !lookup) return [MSG.unknownFilter];
  if (lookup === null && t.values.length > 1) return [MSG.oneValue];
  // The literal `null`, without a lookup or with `__n`, stands for a missing or null value (as it
  // does for a foreign key), whatever the field's type.
  const nullable = lookup === null || (lookup.negate && lookup.op === 'eq');
  const wantsNull = nullable && t.values.some((v) => v.kind === 'null');
  const errors: string[] = [];
  const values: Scalar[] = [];
  for (const { raw, kind } of t.values) {
    if (wantsNull && kind === 'null') continue;
    if (lookup?.op === 'regex') { const e = regexError(raw); if (e) { errors.push(MSG.regex(e)); continue; } values.push(raw); continue; }
    const isText = lookup !== null && lookup.op !== 'eq' && lookup.op !== 'lt' && lookup.op !== 'lte' && lookup.op !== 'gt' && lookup.op !== 'gte';
    const r = isText ? { v: raw } : parseValue(def.type, raw);
    if (typeof r === 'string') errors.push(r); else values.push(r.v);
  }
  if (errors.length) return errors;
  const vt = VALUE_TYPE[def.type];
  const loose = lookup === null && def.filter_logic === 'loose' && vt === 'string' && def.type !== 'date';
  // `__n` is always an exact match, whatever the filter logic.
  const [op, ci]: [CfNode['op'], boolean] = def.type === 'multi-select' ? ['has', false] : loose ? ['contains', true] : [lookup?.op ?? 'eq', lookup?.ci ?? false];
  const positive = or([...(values.length ? [cf(def.name, vt, op, ci, values)] : []), ...(wantsNull ? [not(cf(def.name, vt, 'present', false, []))] : [])]);
  return lookup?.negate ? not(positive) : positive;
}
