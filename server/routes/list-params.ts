// limit / offset / ordering / brief / fields / omit: the non-filter parameters of list endpoints.
import type { ResourceDef } from '../../engine/schema/types.js';
import { defaultOrdering } from '../../engine/plan/page.js';
import { servedNames } from '../../engine/schema/registry.js';
import { allGenericKeys } from '../../engine/schema/generic-refs.js';
import type { OrderKey, Page } from '../../storage/types.js';
import type { IdStyle } from '../../engine/schema/id-style.js';
import { hasPrefixTree, PREFIX_TREE_FIELDS } from '../prefix-tree.js';

export const DEFAULT_LIMIT = 50;

/** Field kinds a list can be ordered by (and the OpenAPI document's `ordering` parameter names). */
export const ORDERABLE_KINDS: ReadonlySet<string> = new Set([
  'uuid',
  'string',
  'slug',
  'integer',
  'boolean',
  'choice',
  'mac',
  'ip',
  'prefix',
  'address',
  'datetime',
]);

/**
 * The page a list request asks for. Paging is never a reason to refuse a request (as in Nautobot
 * and NetBox): a limit or offset that is not a whole number falls back to its default, and
 * ordering terms naming no orderable field are dropped (DRF's ordering filter does the same).
 * `ignored` names what was dropped, for the log.
 */
export function parsePage(
  r: ResourceDef,
  control: Readonly<Record<string, readonly string[]>>,
  maxPageSize: number,
): { page: Page; ignored: string[] } {
  const ignored: string[] = [];
  const int = (name: string, fallback: number): number => {
    const raw = control[name]?.[0];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d{1,12}$/.test(raw)) {
      ignored.push(`${name}=${raw}`);
      return fallback;
    }
    return Number(raw);
  };
  let limit = int('limit', DEFAULT_LIMIT);
  if (limit === 0 || limit > maxPageSize) limit = maxPageSize;
  const offset = int('offset', 0);
  const ordering: OrderKey[] = [];
  for (const part of (control.ordering?.[0] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const desc = part.startsWith('-');
    const name = desc ? part.slice(1) : part;
    const f = r.fields.find((x) => x.name === name && !x.hidden);
    if (f && ORDERABLE_KINDS.has(f.kind)) ordering.push({ field: name, desc });
    else ignored.push(`ordering=${part}`);
  }
  return { page: { limit, offset, ordering: ordering.length ? ordering : defaultOrdering(r) }, ignored };
}

/** The page of a list that takes no filters (machines, history, tokens): limit and offset only,
 * in the list's own order. */
export function plainPage(r: ResourceDef, query: Readonly<Record<string, unknown>>, maxPageSize: number): Page {
  const control = Object.fromEntries(
    ['limit', 'offset'].map((k) => [k, query[k] === undefined ? [] : [String(query[k])]]),
  );
  return parsePage(r, control, maxPageSize).page;
}

export const isTrue = (v: readonly string[] | undefined): boolean => !!v && ['true', '1', 'True', 'yes'].includes(v[0]);

/** Which keys of each object an answer carries: brief, or the whole form narrowed by `fields=` / `omit=` (NetBox 4). */
export interface Shape {
  readonly brief: boolean;
  readonly keep: ReadonlySet<string> | null;
}

/** Keys every object keeps whatever `fields` or `omit` say. */
const ALWAYS = ['id', 'url'];

const listOf = (values: readonly string[] | undefined) =>
  (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * The shape asked by `brief`, `fields` and `omit` (comma lists, repeatable), or the 400 body naming
 * unknown names. `fields` with `brief` is refused; `id` and `url` are always kept.
 */
export function parseShape(
  r: ResourceDef,
  control: Readonly<Record<string, readonly string[]>>,
): { ok: true; shape: Shape } | { ok: false; errors: Record<string, string[]> } {
  const brief = isTrue(control.brief);
  const fields = listOf(control.fields),
    omit = listOf(control.omit);
  if (!fields.length && !omit.length) return { ok: true, shape: { brief, keep: null } };
  const known = new Set([
    'id',
    'url',
    'display',
    ...r.fields.filter((f) => !f.hidden).flatMap(servedNames),
    ...(r.servedNull ?? []).map((c) => c.name),
    ...allGenericKeys(r),
    ...(hasPrefixTree(r) ? Object.keys(PREFIX_TREE_FIELDS) : []),
    ...(r.counts ?? []).map((c) => c.name),
  ]);
  const errors: Record<string, string[]> = {};
  for (const [param, names] of [
    ['fields', fields],
    ['omit', omit],
  ] as const) {
    const unknown = names.filter((n) => !known.has(n));
    if (unknown.length) errors[param] = unknown.map((n) => `Unknown field: "${n}".`);
  }
  if (brief && fields.length) (errors.fields ??= []).push('fields cannot be combined with brief.');
  if (Object.keys(errors).length) return { ok: false, errors };
  const keep = new Set(fields.length ? [...ALWAYS, ...fields] : known);
  for (const n of omit) if (!ALWAYS.includes(n)) keep.delete(n);
  return { ok: true, shape: { brief, keep } };
}

/**
 * Cursor paging (NetBox 4.6): `start=<id>` lists objects in id order from that id on (inclusive).
 * null when not asked; a 400 body when the value is not an id, or comes with offset or ordering.
 */
export function parseStart(
  pairs: readonly (readonly [string, string])[],
  ids: IdStyle,
): { ok: true; start: string | null } | { ok: false; errors: Record<string, string[]> } {
  const last = (name: string) =>
    pairs
      .filter(([k]) => k === name)
      .map(([, v]) => v)
      .filter((v) => v !== '')
      .pop();
  const start = last('start');
  if (start === undefined) return { ok: true, start: null };
  const problems: string[] = [];
  const id = ids.parse(start);
  if (id === null) problems.push(`"${start}" is not an object id.`);
  if (last('offset') !== undefined) problems.push('start cannot be combined with offset.');
  if (last('ordering') !== undefined) problems.push('start pages in id order: it cannot be combined with ordering.');
  return problems.length ? { ok: false, errors: { start: problems } } : { ok: true, start: id };
}
