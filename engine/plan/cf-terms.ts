// Custom field filter terms, their lookup resolved in the catalogue (CF_LOOKUPS). Loose text
// matches case-insensitive contains, exact a full match; `__n` always exact; without a lookup one
// value only.
import type { FilterTerm } from '../query/ast.js';
import type { CmpLookup } from '../filters/lookups.js';
import { MSG } from '../schema/messages.js';
import { normalizeDate, toBoolean, toInteger } from '../schema/normalize.js';
import type { CustomFieldDef, CustomFieldType } from '../schema/types.js';
import { regexError } from '../text/regex.js';
import { cf, not, or, type CfNode, type Plan, type Scalar } from './nodes.js';

const VALUE_TYPE: Record<CustomFieldType, CfNode['valueType']> = {
  text: 'string',
  url: 'string',
  select: 'string',
  integer: 'number',
  date: 'string',
  'multi-select': 'list',
  boolean: 'boolean',
  json: 'string',
};

function parseValue(type: CustomFieldType, raw: string): { v: Scalar } | string {
  switch (type) {
    case 'integer': {
      const n = toInteger(raw);
      return n === null ? MSG.wholeNumber : { v: n };
    }
    case 'date':
      return normalizeDate(raw) ? { v: raw } : MSG.date(raw);
    case 'boolean': {
      const b = toBoolean(raw);
      return b === null ? MSG.filterChoice(raw) : { v: b };
    }
    case 'json': {
      // A scalar JSON value compares with a stored scalar; anything else compares as text.
      try {
        const j = JSON.parse(raw);
        return typeof j === 'object' ? { v: raw } : { v: j as Scalar };
      } catch {
        return { v: raw };
      }
    }
    default:
      return { v: raw };
  }
}

/** The field is missing or null. */
export function cfAbsent(def: CustomFieldDef): Plan {
  return not(cf(def.name, VALUE_TYPE[def.type], 'present', false, []));
}

/** The field holds the empty text. */
export function cfEmptyText(def: CustomFieldDef): Plan {
  return cf(def.name, 'string', 'eq', false, ['']);
}

/** `bare`: the parameter names no lookup (`lookup` is then the catalogue's EXACT row). */
export function cfTermPlan(def: CustomFieldDef, lookup: CmpLookup, bare: boolean, t: FilterTerm): Plan | string[] {
  if (bare && t.values.length > 1) return [MSG.oneValue];
  // The literal `null`, without a lookup or with `__n`, stands for a missing or null value (as it
  // does for a foreign key), whatever the field's type.
  const nullable = bare || (lookup.negate && lookup.op === 'eq');
  const wantsNull = nullable && t.values.some((v) => v.kind === 'null');
  const errors: string[] = [];
  const values: Scalar[] = [];
  for (const { raw, kind } of t.values) {
    if (wantsNull && kind === 'null') continue;
    if (lookup.op === 'regex') {
      const e = regexError(raw);
      if (e) {
        errors.push(MSG.regex(e));
        continue;
      }
      values.push(raw);
      continue;
    }
    const isText =
      lookup.op !== 'eq' && lookup.op !== 'lt' && lookup.op !== 'lte' && lookup.op !== 'gt' && lookup.op !== 'gte';
    const r = isText ? { v: raw } : parseValue(def.type, raw);
    if (typeof r === 'string') errors.push(r);
    else values.push(r.v);
  }
  if (errors.length) return errors;
  const vt = VALUE_TYPE[def.type];
  const loose = bare && def.filter_logic === 'loose' && vt === 'string' && def.type !== 'date';
  // `__n` is always an exact match, whatever the filter logic.
  const [op, ci]: [CfNode['op'], boolean] =
    def.type === 'multi-select' ? ['has', false] : loose ? ['contains', true] : [lookup.op, lookup.ci];
  const positive = or([
    ...(values.length ? [cf(def.name, vt, op, ci, values)] : []),
    ...(wantsNull ? [cfAbsent(def)] : []),
  ]);
  return lookup.negate ? not(positive) : positive;
}
