// Custom field data checked against the definitions for one content type.
import { MSG } from './messages.js';
import { normalizeDate, toInteger, URL_RE } from './normalize.js';
import type { CustomFieldDef } from './types.js';

type Result = { ok: true; value: Record<string, unknown> } | { ok: false; errors: string[] };

export function checkOne(d: CustomFieldDef, v: unknown): string | { value: unknown } {
  if (v === null) return { value: null };
  switch (d.type) {
    case 'text':
      return typeof v === 'string' ? { value: v } : MSG.cfType(d.name, 'text');
    case 'url':
      return typeof v === 'string' && (v === '' || URL_RE.test(v)) ? { value: v } : MSG.url(String(v));
    case 'integer': {
      const n = toInteger(v);
      return n === null ? MSG.cfType(d.name, 'integer') : { value: n };
    }
    case 'boolean':
      return typeof v === 'boolean' ? { value: v } : MSG.cfType(d.name, 'boolean');
    case 'date':
      return typeof v === 'string' && normalizeDate(v) ? { value: v } : MSG.date(String(v));
    case 'select':
      return typeof v === 'string' && d.choices.includes(v) ? { value: v } : MSG.cfChoice(d.name, String(v));
    case 'multi-select': {
      if (!Array.isArray(v)) return MSG.cfType(d.name, 'list');
      const badOne = v.find((x) => typeof x !== 'string' || !d.choices.includes(x));
      return badOne === undefined ? { value: [...v] } : MSG.cfChoice(d.name, String(badOne));
    }
    case 'json':
      return { value: v };
  }
}

/**
 * `creating`: missing keys take their default, and required ones must be present.
 * On update, given keys are merged into `existing` (a key set to null is kept as null).
 */
export function validateCustomFieldData(
  defs: readonly CustomFieldDef[],
  data: unknown,
  creating: boolean,
  existing: Record<string, unknown> | undefined,
): Result {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { ok: false, errors: [MSG.object] };
  const errors: string[] = [];
  const byName = new Map(defs.map((d) => [d.name, d]));
  const out: Record<string, unknown> = creating ? {} : { ...(existing ?? {}) };
  for (const [k, v] of Object.entries(data)) {
    const d = byName.get(k);
    if (!d) {
      errors.push(MSG.cfUnknown(k));
      continue;
    }
    const r = checkOne(d, v);
    if (typeof r === 'string') errors.push(r);
    else out[k] = r.value;
    // An update may change a required field, not empty it.
    if (!creating && d.required && v === null) errors.push(MSG.cfRequiredEmpty(k));
  }
  if (creating)
    for (const d of defs) {
      if (out[d.name] === undefined && d.default !== null && d.default !== undefined) out[d.name] = d.default;
      if (d.required && (out[d.name] === undefined || out[d.name] === null)) errors.push(MSG.cfRequired(d.name));
    }
  return errors.length ? { ok: false, errors } : { ok: true, value: out };
}
