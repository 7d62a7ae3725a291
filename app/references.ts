// References in a write: foreign keys must name existing objects, NetBox's nested references
// ({"name": ...}) and tags given by slug, name or id become ids. Errors by field. With `visible` (the
// caller's view permissions), a nested reference and a tag named by slug or name find only objects the
// caller may view: one it may not view reads as missing, so a write cannot probe objects by their fields.
import { resource } from '../engine/schema/registry.js';
import { MSG } from '../engine/schema/messages.js';
import { GENERIC_MSG } from '../engine/schema/generic-refs.js';
import { toInteger } from '../engine/schema/normalize.js';
import { idStyleOf, type IdStyle } from '../engine/schema/id-style.js';
import type { FieldDef, ResourceDef } from '../engine/schema/types.js';
import type { FieldErrors, RefValue, ValidInput } from '../engine/schema/validate-input.js';
import type { Row, Storage } from '../storage/types.js';
import type { Visible } from './write-scope.js';

/** Fields a nested reference may name its object by. */
const REF_KINDS = new Set(['uuid', 'string', 'slug', 'integer', 'choice']);

/** A nested reference's value as the field stores it; undefined when it cannot be one. */
function asStored(f: FieldDef, v: RefValue, ids: IdStyle): RefValue | undefined {
  if (f.kind === 'integer') return toInteger(v) ?? undefined;
  if (f.kind === 'uuid') return ids.fromJson(v) ?? undefined;
  return typeof v === 'string' ? v : undefined;
}

/** Foreign keys must exist; tags given by slug, name or id become ids. Errors by field. */
export async function resolveRefs(
  storage: Storage,
  r: ResourceDef,
  row: Row,
  input: ValidInput,
  visible?: Visible,
): Promise<FieldErrors> {
  const tagRefs = input.tagRefs;
  const errors: FieldErrors = {};
  for (const f of r.fields) {
    if (f.kind !== 'fk') continue;
    const target = resource(f.target!);
    const query = input.refQueries[f.name];
    if (query) {
      const found = await findRef(storage, target, query, visible);
      if (typeof found === 'string') row[f.name] = found;
      else (errors[f.name] ??= []).push(found.error);
      continue;
    }
    const v = row[f.name];
    if (v === null || v === undefined || (await storage.get(f.target!, v as string))) continue;
    // Set through a generic reference (`assigned_object_id`): reported there, as NetBox words it.
    const key = input.reportedAs?.[f.name];
    if (key) (errors[key] ??= []).push(GENERIC_MSG.notFound(String(v)));
    else (errors[f.name] ??= []).push(MSG.refNotFound(target.label.toLowerCase(), `id ${String(v)}`));
  }
  const tags = (refs: readonly string[], field: string) => tagIds(storage, refs, field, errors, visible);
  if (tagRefs) row.tags = await tags(tagRefs, 'tags');
  if (input.tagEdits) {
    // Applied to the tags of the row as read in this attempt: two clients tagging one object keep both.
    const add = await tags(input.tagEdits.add, 'add_tags');
    const remove = new Set(await tags(input.tagEdits.remove, 'remove_tags'));
    const kept = ((row.tags as string[] | undefined) ?? []).filter((t) => !remove.has(t));
    row.tags = [...kept, ...add.filter((t) => !kept.includes(t) && !remove.has(t))];
  }
  return errors;
}

/** Tags given by slug, name or id, as ids (each once); a miss is an error of `field`. */
async function tagIds(
  storage: Storage,
  refs: readonly string[],
  field: string,
  errors: FieldErrors,
  visible: Visible | undefined,
): Promise<string[]> {
  const ids: string[] = [];
  const def = resource('tag');
  const style = idStyleOf(def, storage.ids);
  for (const ref of refs) {
    const id = style.parse(ref);
    const byId = id !== null ? await storage.get('tag', id) : null;
    let t: Row | undefined =
      byId ?? (await storage.findBy('tag', 'slug', ref))[0] ?? (await storage.findBy('tag', 'name', ref))[0];
    if (t && !byId && visible && !(await visible(def, [t.id])).has(t.id)) t = undefined;
    if (!t) (errors[field] ??= []).push(MSG.tagNotFound(ref));
    else if (!ids.includes(t.id)) ids.push(t.id);
  }
  return ids;
}

/** The one object of `target` whose fields have the values `query` gives (NetBox's nested reference), or why not. */
async function findRef(
  storage: Storage,
  target: ResourceDef,
  query: Readonly<Record<string, RefValue>>,
  visible: Visible | undefined,
): Promise<string | { error: string }> {
  const label = target.label.toLowerCase();
  const entries = Object.entries(query);
  for (const [name] of entries) {
    const f = target.fields.find((x) => x.name === name);
    if (!f || f.hidden || !REF_KINDS.has(f.kind)) return { error: MSG.refUnknownField(label, name) };
  }
  const tried = entries.map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(' and ');
  // Values as the fields hold them ("10" for an integer is 10); one that cannot be one matches nothing.
  const values = entries.map(
    ([k, v]) =>
      [
        k,
        asStored(
          target.fields.find((x) => x.name === k)!,
          v,
          idStyleOf(target, storage.ids),
        ),
      ] as const,
  );
  if (values.some(([, v]) => v === undefined)) return { error: MSG.refNotFound(label, tried) };
  const [first, value] = values[0];
  let matches = (await storage.findBy(target.name, first, value)).filter((o) => values.every(([k, v]) => o[k] === v));
  if (visible && matches.length) {
    const seen = await visible(
      target,
      matches.map((o) => o.id),
    );
    matches = matches.filter((o) => seen.has(o.id));
  }
  if (matches.length === 1) return matches[0].id;
  return { error: matches.length ? MSG.refAmbiguous(label, tried) : MSG.refNotFound(label, tried) };
}
