// Ids as answers carry them, inside data the product keeps as stored (a change record's copy of
// the object it changed): in an integer store ids are numbers in answers, text inside the store.
import { idStyleOf, UUID_IDS, type IdStyle } from './id-style.js';
import { findResource, RESOURCES, contentType } from './registry.js';
import type { FieldDef, ResourceDef } from './types.js';

const BY_TYPE = new Map(RESOURCES.map((r) => [contentType(r), r]));

/** The resource a content type (`dcim.site`) names, if any. */
export const resourceOfType = (type: unknown): ResourceDef | undefined =>
  typeof type === 'string' ? BY_TYPE.get(type) : undefined;

/** One stored value of field `f` of `r` with its ids as answers carry them. */
function fieldJson(r: ResourceDef, f: FieldDef, v: unknown, store: IdStyle): unknown {
  if (typeof v === 'string' && f.kind === 'uuid') return idStyleOf(r, store).toJson(v);
  if (typeof v === 'string' && f.kind === 'fk') return idStyleOf(findResource(f.target!)!, store).toJson(v);
  if (Array.isArray(v) && f.kind === 'tags') {
    const tags = idStyleOf(findResource('tag')!, store);
    return v.map((t) => (typeof t === 'string' ? tags.toJson(t) : t));
  }
  return v;
}

/** An object's stored data (object_data, prechange_data) with its ids as answers carry them. */
export function dataJson(r: ResourceDef | undefined, data: unknown, store: IdStyle): unknown {
  if (store === UUID_IDS || !r || data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  const out: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const f of r.fields) if (f.name in out) out[f.name] = fieldJson(r, f, out[f.name], store);
  return out;
}

/** A field holding an object's id (changed_object_id) or data (object_data), as answers carry it;
 * `type`: the content type of that object. */
export function objectValueJson(f: FieldDef, v: unknown, type: unknown, store: IdStyle): unknown {
  if (store === UUID_IDS || v === null || v === undefined) return v;
  const r = resourceOfType(type);
  if (f.kind === 'json') return dataJson(r, v, store);
  return r && typeof v === 'string' ? (idStyleOf(r, store).parse(v) === null ? v : idStyleOf(r, store).toJson(v)) : v;
}

/** A change record (an object_change row) with the ids of the object it names as answers carry them. */
export function changeJson(change: Readonly<Record<string, unknown>>, store: IdStyle): Record<string, unknown> {
  const out: Record<string, unknown> = { ...change };
  if (store === UUID_IDS) return out;
  const r = resourceOfType(change.changed_object_type);
  if (typeof out.changed_object_id === 'string' && r && idStyleOf(r, store).parse(out.changed_object_id) !== null)
    out.changed_object_id = idStyleOf(r, store).toJson(out.changed_object_id);
  out.object_data = dataJson(r, out.object_data, store);
  out.prechange_data = dataJson(r, out.prechange_data, store);
  return out;
}
