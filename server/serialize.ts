// Rows -> API representations, derived from the registry: nested brief objects for foreign keys,
// {value, label} for choices, tags as {id, url, name, slug, color}, custom fields filled with null.
import { resource, resourcePath } from '../engine/schema/registry.js';
import type { CustomFieldDef, ResourceDef } from '../engine/schema/types.js';
import type { Row, Storage } from '../storage/types.js';

export interface SerializeContext {
  readonly baseUrl: string;   // 'http://127.0.0.1:8080'
  readonly storage: Storage;
  readonly customFields: readonly CustomFieldDef[];
  readonly brief: boolean;
}

export const objectUrl = (base: string, r: ResourceDef, id: string): string => `${base}${resourcePath(r)}${id}/`;

function display(r: ResourceDef, row: Row): string {
  return String(row[r.displayField] ?? row.id);
}

export function briefOf(base: string, r: ResourceDef, row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = { id: row.id, url: objectUrl(base, r, row.id), display: display(r, row) };
  for (const n of ['name', 'slug', r.refField]) if (r.fields.some((f) => f.name === n && !f.hidden)) out[n] = row[n];
  return out;
}

/** Serialize a page of rows, fetching referenced objects once per field. */
export async function serializeRows(r: ResourceDef, rows: readonly Row[], ctx: SerializeContext): Promise<Record<string, unknown>[]> {
  if (ctx.brief) return rows.map((row) => briefOf(ctx.baseUrl, r, row));
  const related = new Map<string, Map<string, Row>>();
  for (const f of r.fields) {
    if (f.kind !== 'fk' && f.kind !== 'tags') continue;
    const target = f.kind === 'tags' ? 'tag' : f.target!;
    const ids = new Set<string>();
    for (const row of rows) {
      const v = row[f.name];
      if (Array.isArray(v)) v.forEach((x) => ids.add(x as string)); else if (typeof v === 'string') ids.add(v);
    }
    const got = ids.size ? await ctx.storage.getMany(target, [...ids]) : [];
    related.set(f.name, new Map(got.map((x) => [x.id, x])));
  }
  return rows.map((row) => serializeOne(r, row, ctx, related));
}

function serializeOne(r: ResourceDef, row: Row, ctx: SerializeContext, related: Map<string, Map<string, Row>>): Record<string, unknown> {
  const out: Record<string, unknown> = { id: row.id, url: objectUrl(ctx.baseUrl, r, row.id), display: display(r, row) };
  for (const f of r.fields) {
    if (f.hidden || f.name === 'id') continue;
    const v = row[f.name];
    switch (f.kind) {
      case 'fk': {
        const target = v ? related.get(f.name)?.get(v as string) : undefined;
        out[f.name] = target ? briefOf(ctx.baseUrl, resource(f.target!), target) : null;
        break;
      }
      case 'choice': {
        const c = f.choices!.find((x) => x.value === v);
        out[f.name] = v === null || v === undefined ? null : { value: v, label: c?.display ?? String(v) };
        break;
      }
      case 'tags': {
        const tags = related.get(f.name)!;
        const tagDef = resource('tag');
        out[f.name] = ((v as string[] | undefined) ?? []).map((id) => tags.get(id)).filter(Boolean)
          .map((t) => ({ id: t!.id, url: objectUrl(ctx.baseUrl, tagDef, t!.id), display: t!.name, name: t!.name, slug: t!.slug, color: t!.color }));
        break;
      }
      case 'custom_fields': {
        const data = (v as Record<string, unknown> | undefined) ?? {};
        out[f.name] = Object.fromEntries(ctx.customFields.map((d) => [d.name, data[d.name] ?? null]));
        break;
      }
      default:
        out[f.name] = v === undefined ? null : v;
    }
  }
  return out;
}
