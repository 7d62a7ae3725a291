// limit / offset / ordering / brief: the non-filter parameters of list endpoints.
import type { ResourceDef } from '../../engine/schema/types.js';
import { defaultOrdering } from '../../engine/plan/page.js';
import type { OrderKey, Page } from '../../storage/types.js';

export const DEFAULT_LIMIT = 50;

const ORDERABLE = new Set(['uuid', 'string', 'slug', 'integer', 'boolean', 'choice', 'mac', 'ip', 'prefix', 'address', 'datetime']);

export function parsePage(r: ResourceDef, control: Readonly<Record<string, readonly string[]>>, maxPageSize: number): { page: Page; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = Object.create(null);
  const int = (name: string, fallback: number): number => {
    const raw = control[name]?.[0];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d{1,12}$/.test(raw)) { errors[name] = ['Enter a whole number of 0 or more.']; return fallback; }
    return Number(raw);
  };
  let limit = int('limit', DEFAULT_LIMIT);
  if (limit === 0 || limit > maxPageSize) limit = maxPageSize;
  const offset = int('offset', 0);
  let ordering = defaultOrdering(r);
  const raw = control.ordering?.[0];
  if (raw) {
    ordering = [];
    for (const part of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
      const desc = part.startsWith('-');
      const name = desc ? part.slice(1) : part;
      const f = r.fields.find((x) => x.name === name && !x.hidden);
      if (!f || !ORDERABLE.has(f.kind)) (errors.ordering ??= []).push(`Invalid ordering field: ${name}`);
      else ordering.push({ field: name, desc });
    }
  }
  return { page: { limit, offset, ordering }, errors };
}

export const isTrue = (v: readonly string[] | undefined): boolean => !!v && ['true', '1', 'True', 'yes'].includes(v[0]);
