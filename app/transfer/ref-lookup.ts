// An import's references found a batch of rows at a time: every distinct natural key the batch names is looked
// up with one query per key level and up to LOOKUP values (`field IN (...)`), parents first (a device's site,
// then the devices by name), then what no key named as ids (one getMany); not a lookup per row.
import { cmp } from '../../engine/plan/nodes.js';
import { idStyleOf } from '../../engine/schema/id-style.js';
import { resource } from '../../engine/schema/registry.js';
import type { NaturalKey } from '../../engine/transfer/columns.js';
import { keySize, type RefCells } from '../../engine/transfer/cells.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import type { Row, Storage } from '../../storage/types.js';
import { remember, stagedOver } from './staged.js';

/** Values per `IN (...)` list, and rows read per page of its matches. */
const LOOKUP = 500;
const PAGE = 5000;

/** The key `found` holds a reference's object under. */
export function refKey(ref: RefCells): string {
  let k = keyOf.get(ref);
  if (k === undefined) keyOf.set(ref, (k = JSON.stringify([ref.key.target.name, ref.cells])));
  return k;
}
const keyOf = new WeakMap<RefCells, string>();

/** Objects of `r` whose `field` is one of `values` (findBy for many values), staged rows over stored ones. */
export async function findByAny(storage: Storage, r: ResourceDef, field: string, values: readonly unknown[]) {
  const kind = r.fields.find((f) => f.name === field)?.kind;
  // Only text compares as findBy does through a plan; other fields keep a lookup per value.
  if ((kind !== 'string' && kind !== 'slug') || values.some((v) => typeof v !== 'string'))
    return (await Promise.all(values.map((v) => storage.findBy(r.name, field, v)))).flat();
  const stored: Row[] = [];
  for (let i = 0; i < values.length; i += LOOKUP) {
    const plan = cmp(field, 'string', 'eq', false, values.slice(i, i + LOOKUP) as string[]);
    for (let offset = 0; ; offset += PAGE) {
      const page = { limit: PAGE, offset, ordering: [{ field: 'id', desc: false }] };
      const { rows } = await storage.find(r.name, plan, page, { noCount: true });
      stored.push(...rows);
      if (rows.length < PAGE) break;
    }
  }
  remember(r.name, field, values as string[], stored);
  const wanted = new Set(values);
  return stagedOver(r.name, stored, (o) => wanted.has(o[field]));
}

/** `rows` by the value of `field`. */
export function byField(rows: readonly Row[], field: string): Map<unknown, Row[]> {
  const out = new Map<unknown, Row[]>();
  for (const o of rows) {
    const same = out.get(o[field]);
    if (same) same.push(o);
    else out.set(o[field], [o]);
  }
  return out;
}

/** The one object each of `lists` (a key's cells: its own, then its parents') names, or null. */
async function byKeys(storage: Storage, key: NaturalKey, lists: readonly (readonly string[])[]) {
  const out = new Map<string, string | null>();
  const distinct = [...new Map(lists.map((c) => [JSON.stringify(c), c])).values()];
  if (!distinct.length) return out;
  // Each parent's objects, for every list at once; an empty parent cell: the object has none.
  const parentIds: Map<string, string | null>[] = [];
  let pos = 1;
  for (const p of key.parents) {
    const at = pos;
    const subs = distinct.map((c) => c.slice(at, at + keySize(p.key))).filter((s) => s[0]);
    parentIds.push(await byKeys(storage, p.key, subs));
    pos += keySize(p.key);
  }
  const byValue = byField(
    await findByAny(storage, key.target, key.field, [...new Set(distinct.map((c) => c[0]))]),
    key.field,
  );
  for (const c of distinct) {
    let at = 1;
    const wanted = key.parents.map((p, i) => {
      const sub = c.slice(at, (at += keySize(p.key)));
      return sub[0] ? (parentIds[i].get(JSON.stringify(sub)) ?? undefined) : null; // undefined: not found
    });
    const found = wanted.includes(undefined)
      ? []
      : (byValue.get(c[0]) ?? []).filter((o) => key.parents.every((p, i) => (o[p.fk] ?? null) === wanted[i]));
    out.set(JSON.stringify(c), found.length === 1 ? found[0].id : null);
  }
  return out;
}

/** Finds the objects of `refs` not yet in `found` (by natural key, else as an id) and adds them to it. */
export async function resolveRefs(storage: Storage, refs: readonly RefCells[], found: Map<string, string>) {
  const byTarget = new Map<NaturalKey, RefCells[]>();
  const canonical = new Map<NaturalKey, NaturalKey>(); // a column's key -> the first key of the same shape
  for (const ref of refs) {
    if (found.has(refKey(ref))) continue;
    let key = canonical.get(ref.key);
    if (!key) {
      key = [...byTarget.keys()].find((k) => k.target === ref.key.target && sameShape(k, ref.key)) ?? ref.key;
      canonical.set(ref.key, key);
    }
    const same = byTarget.get(key);
    if (same) same.push(ref);
    else byTarget.set(key, [ref]);
  }
  for (const [key, list] of byTarget) {
    const named = await byKeys(
      storage,
      key,
      list.map((r) => r.cells),
    );
    const asIds = new Map<string, RefCells[]>();
    const style = idStyleOf(key.target, storage.ids);
    for (const ref of list) {
      const id = named.get(JSON.stringify(ref.cells));
      if (id) found.set(refKey(ref), id);
      const parsed = id ? null : style.parse(ref.cells[0]);
      if (parsed === null) continue;
      const same = asIds.get(parsed);
      if (same) same.push(ref);
      else asIds.set(parsed, [ref]);
    }
    if (!asIds.size) continue;
    const byId = await storage.getMany(key.target.name, [...asIds.keys()]);
    remember(key.target.name, 'id', [], byId);
    for (const o of byId) for (const ref of asIds.get(o.id) ?? []) found.set(refKey(ref), o.id);
  }
}

/** Looks up at once the tags `bodies` name (as slugs, the way a CSV names them): the Inventory's check of each
 * row then finds them among the stage's remembered rows. */
export async function findTags(storage: Storage, bodies: readonly Readonly<Record<string, unknown>>[]) {
  const slugs = new Set<string>();
  for (const b of bodies) for (const t of Array.isArray(b.tags) ? b.tags : []) if (typeof t === 'string') slugs.add(t);
  if (slugs.size) await findByAny(storage, resource('tag'), 'slug', [...slugs]);
}

/** Whether two keys read the same cells the same way (two columns naming one resource). */
const sameShape = (a: NaturalKey, b: NaturalKey): boolean =>
  a.field === b.field &&
  a.parents.length === b.parents.length &&
  a.parents.every((p, i) => p.fk === b.parents[i].fk && sameShape(p.key, b.parents[i].key));
