// A NetBox row -> the product's row, as a create writes it: every field (those NetBox has no column
// for in their empty forms, derived ones from the resource's `derive`), the id as canonical decimal
// text, `version: 1`, tags as the ids of the tags assigned to it, custom fields as NetBox holds them
// (only those of custom fields the import takes).
import { contentType, hasCustomFields, isTaggable, resource } from '../../engine/schema/registry.js';
import type { Row } from '../types.js';
import { SUPPORT_TABLES, TABLES } from './mapping.js';
import type { Losses } from './report.js';
import type { ImportSource, SourceRow } from './source.js';
import { fallback, type FieldStep, type TablePlan } from './table-plan.js';

/** What converting rows needs besides the row: tag assignments and the custom fields taken. */
export interface RowContext {
  /** Table -> object id -> tag ids (ascending). */
  readonly tags: ReadonlyMap<string, ReadonlyMap<string, string[]>>;
  /** Table -> names of the custom fields taken for it. */
  readonly customFields: ReadonlyMap<string, ReadonlySet<string>>;
  readonly losses: Losses;
  /** For rows NetBox holds no creation time for. */
  readonly now: string;
}

// The source gives times as ISO text already (table-plan.ts), a Date only where a layout's column is read as one.
const iso = (v: unknown): string | null => (v instanceof Date ? v.toISOString() : v ? String(v) : null);

/** NetBox's content type (`dcim.devicetype`) -> the product's resource for it, through the mapping's tables. */
export const TAKEN_BY_CONTENT_TYPE: ReadonlyMap<string, string> = new Map(
  TABLES.map((t) => [t.table.replace('_', '.'), t.resource]),
);

/** The product content types (`dcim.device_type`) of NetBox ones, those the import takes. */
export const productContentTypes = (netbox: readonly string[]): string[] =>
  netbox.flatMap((ct) => {
    const r = TAKEN_BY_CONTENT_TYPE.get(ct);
    return r ? [contentType(resource(r))] : [];
  });

/** Makes the rows of one table. */
export function rowMaker(plan: TablePlan, ctx: RowContext): (src: SourceRow) => Row {
  const { resource: r, map } = plan;
  const tags = isTaggable(r) ? (ctx.tags.get(map.table) ?? new Map<string, string[]>()) : null;
  const cfs = hasCustomFields(r) ? (ctx.customFields.get(map.table) ?? new Set<string>()) : null;
  const byField = new Map(plan.steps.map((s) => [s.field.name, s]));
  // Each row gets its fields in the resource's order, one after the other (one object shape for all rows).
  const fixed = new Set(['id', 'created', 'last_updated', 'version', 'tags', 'custom_fields']);
  const slots = r.fields
    .filter((f) => !fixed.has(f.name))
    .map((f) => ({ name: f.name, step: byField.get(f.name), empty: fallback(f) }));
  const lostAs = (step: FieldStep) => `${map.table}.${step.reportAs}`;
  return (src) => {
    const id = String(src.id);
    const created = iso(src.created) ?? ctx.now;
    const row: Row = { id, created, last_updated: iso(src.last_updated) ?? created, version: 1 };
    for (const { name, step, empty } of slots) {
      if (!step) {
        row[name] = empty;
        continue;
      }
      const got = step.read(src);
      row[name] = got.value;
      if ('lost' in got && step.reportAs) ctx.losses.add(lostAs(step), got.lost);
    }
    if (tags) row.tags = tags.get(id) ?? [];
    if (cfs) row.custom_fields = customFieldValues(src.custom_field_data, cfs, map.table, ctx.losses);
    return r.derive ? Object.assign(row, r.derive(row)) : row;
  };
}

function customFieldValues(data: unknown, taken: ReadonlySet<string>, table: string, losses: Losses): object {
  const out: Record<string, unknown> = {};
  if (typeof data !== 'object' || data === null) return out;
  for (const [k, v] of Object.entries(data)) {
    if (taken.has(k)) out[k] = v;
    else if (v !== null) losses.add(`${table}.custom_field_data`, 'a value of a custom field left');
  }
  return out;
}

/** Tag assignments of the tables taken, by table and object; those on other objects counted as left. */
export async function readTags(
  src: ImportSource,
  takenTables: ReadonlySet<string>,
  losses: Losses,
): Promise<{ tags: Map<string, Map<string, string[]>>; taken: number }> {
  const tags = new Map<string, Map<string, string[]>>();
  let taken = 0;
  if (!src.has(SUPPORT_TABLES.tagged)) return { tags, taken };
  const rows = await src.taggedItems();
  for (const { ct, obj, tag } of rows) {
    const type = src.contentTypes.get(ct) ?? String(ct);
    const table = type.replace('.', '_');
    if (!takenTables.has(table)) {
      losses.add(SUPPORT_TABLES.tagged, `on ${table}, not taken`);
      continue;
    }
    const byObj = tags.get(table) ?? new Map<string, string[]>();
    const list = byObj.get(String(obj)) ?? [];
    list.push(String(tag));
    byObj.set(String(obj), list);
    tags.set(table, byObj);
    taken++;
  }
  return { tags, taken };
}
