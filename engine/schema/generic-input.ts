// A write's generic references (`assigned_object_type` + `assigned_object_id`, engine/schema/generic-refs.ts)
// turned into the fk values they stand for. Pure: whether the object exists is the caller's check
// (app/references.ts words a miss as NetBox does, under `<name>_id`).
import { assignedOf, GENERIC_MSG, genericRefs, type GenericRef } from './generic-refs.js';
import { servedNames } from './served-names.js';
import type { FieldDef, ResourceDef } from './types.js';

/** What validation has made of the body's fields so far, completed here. */
export interface GenericTarget {
  readonly values: Record<string, unknown>;
  readonly refQueries: Record<string, unknown>;
  readonly errors: Record<string, string[]>;
}

/** An fk value checked as the fk itself would be (its id parsing): the id, or why not. */
export type FkCheck = (f: FieldDef, v: unknown) => { ok: true; value: unknown } | { ok: false; message: string };

/** A fk's value written through a query (`{"name": ...}`): unknown here, so unlike any id. */
const QUERIED = Symbol('queried');

const has = (data: Record<string, unknown>, k: string) => Object.prototype.hasOwnProperty.call(data, k);

/**
 * The fks the generic references of `data` set (each the set one's id, the others null), written into
 * `out.values`; returns, by fk, the key a missing object is reported under. `existing`: the stored row
 * on an update (a half left out is taken from it, as NetBox merges a PATCH into the object). When the
 * fks are given too and name another object, the style that changes what is stored wins (a body read
 * back and edited in one style); both changing it differently is refused.
 */
export function genericInput(
  r: ResourceDef,
  data: Record<string, unknown>,
  existing: Readonly<Record<string, unknown>> | undefined,
  checkFk: FkCheck,
  out: GenericTarget,
): Record<string, string> {
  const reported: Record<string, string> = {};
  for (const g of genericRefs(r)) {
    if (!has(data, g.typeKey) && !has(data, g.idKey)) continue;
    const asked = givenPair(g, data, existing, checkFk, out.errors);
    if (!asked) continue;
    const wanted = Object.fromEntries(g.fields.map((f) => [f.name, f === asked.field ? asked.id : null]));
    if (!oldStyleYields(g, data, existing, out, wanted)) continue;
    for (const f of g.fields) {
      out.values[f.name] = wanted[f.name];
      delete out.refQueries[f.name];
    }
    if (asked.field) reported[asked.field.name] = g.idKey;
  }
  return reported;
}

/** The object the pair names once merged with what is stored, or null (with errors) when it is no pair. */
function givenPair(
  g: GenericRef,
  data: Record<string, unknown>,
  existing: Readonly<Record<string, unknown>> | undefined,
  checkFk: FkCheck,
  errors: Record<string, string[]>,
): { field: FieldDef | null; id: string | null } | null {
  const fail = (k: string, m: string) => ((errors[k] ??= []).push(m), null);
  const current = existing ? assignedOf(g, existing) : null;
  let field = current?.field ?? null;
  if (has(data, g.typeKey)) {
    const v = data[g.typeKey];
    if (v === null) field = null;
    else if (typeof v !== 'string' || v.split('.').length !== 2) return fail(g.typeKey, GENERIC_MSG.typeShape);
    else if (!g.byType.has(v)) return fail(g.typeKey, GENERIC_MSG.type(v));
    else field = g.byType.get(v)!;
  }
  let id = current?.id ?? null;
  if (has(data, g.idKey)) {
    const v = data[g.idKey];
    const c = v === null ? null : checkFk(field ?? g.fields[0], v);
    if (c && !c.ok) return fail(g.idKey, c.message);
    id = c ? (c.value as string) : null;
  }
  if (field && id === null) return fail(g.idKey, GENERIC_MSG.notNull);
  if (!field && id !== null) return fail(g.typeKey, GENERIC_MSG.notNull);
  return { field, id };
}

/**
 * Whether the pair's fk values stand: yes when the body gives none of the fks, or gives them the same
 * values, or leaves what is stored as it is with them; no when the pair is the one leaving it as it is.
 * Both changing it differently is an error (and no).
 */
function oldStyleYields(
  g: GenericRef,
  data: Record<string, unknown>,
  existing: Readonly<Record<string, unknown>> | undefined,
  out: GenericTarget,
  wanted: Readonly<Record<string, string | null>>,
): boolean {
  const given = g.fields.filter((f) => servedNames(f).some((n) => has(data, n)));
  if (!given.length) return true;
  const stored = (f: FieldDef) => (existing?.[f.name] as string | null | undefined) ?? null;
  const viaFks = (f: FieldDef) =>
    !given.includes(f) ? stored(f) : f.name in out.refQueries ? QUERIED : (out.values[f.name] ?? null);
  const same = (a: (f: FieldDef) => unknown, b: (f: FieldDef) => unknown) => g.fields.every((f) => a(f) === b(f));
  const byPair = (f: FieldDef) => wanted[f.name];
  if (same(viaFks, byPair) || same(viaFks, stored)) return true;
  if (same(byPair, stored)) return false;
  (out.errors[g.typeKey] ??= []).push(GENERIC_MSG.conflict(g));
  return false;
}
