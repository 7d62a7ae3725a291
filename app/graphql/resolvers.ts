// Resolvers of the fields that read more than the row: each answers for all the objects of its level at
// once through a batch (batch.ts), so a level costs one read however many parents it has. Scalar fields
// have none: the default resolver reads the row.
import type { FieldNode, GraphQLFieldResolver } from 'graphql';
import { and, fk } from '../../engine/plan/nodes.js';
import { defaultOrdering } from '../../engine/plan/page.js';
import { assignedOf, type GenericRef } from '../../engine/schema/generic-refs.js';
import { resource } from '../../engine/schema/registry.js';
import type { ReverseRef } from '../../engine/schema/reverse-refs.js';
import type { CountDef, ResourceDef } from '../../engine/schema/types.js';
import type { Row } from '../../storage/types.js';
import { Batch } from './batch.js';
import { planArgs } from './filter-args.js';
import { pageArgs } from './paging.js';
import { AHEAD, type AheadReads } from './read-ahead.js';
import type { RequestScope } from './request-scope.js';

type Resolver = GraphQLFieldResolver<Row, RequestScope, Record<string, unknown>>;
type Args = Readonly<Record<string, unknown>>;
const EMPTY: readonly Row[] = Object.freeze([]);

/** The batch reading rows of `target` by id: one getMany per resource and level. */
function byId(scope: RequestScope, target: ResourceDef): Batch<Row> {
  return scope.batch(
    target,
    () => new Batch(async (ids) => new Map((await scope.getMany(target, ids)).map((x) => [x.id, x]))),
  );
}

/** An object `target` by id, or null (none, or a type the viewer may not view). */
export async function objectById(scope: RequestScope, target: ResourceDef, id: unknown): Promise<Row | null> {
  if (typeof id !== 'string' || !scope.viewer.canView(target)) return null;
  return (await byId(scope, target).load(id)) ?? null;
}

/** A foreign key as its object (the read-ahead's, when it read it). */
export function fkResolver(field: string, target: ResourceDef): Resolver {
  const resolve: Resolver = (row, _args, scope, info) =>
    scope.ahead.has(info.fieldNodes[0], row)
      ? scope.ahead.get(info.fieldNodes[0], row)
      : objectById(scope, target, row[field]);
  AHEAD.set(resolve, { kind: 'fk', field, target });
  return resolve;
}

/** Tags as objects, in the row's order. */
export const tagsResolver =
  (field: string, tag: ResourceDef): Resolver =>
  async (row, _args, scope) => {
    const ids = row[field] as string[] | undefined;
    if (!ids?.length) return [];
    if (!scope.viewer.canView(tag)) return null;
    const got = await Promise.all(ids.map((id) => byId(scope, tag).load(id)));
    return got.filter((t) => t !== undefined);
  };

/**
 * Per parent id, how many objects of `c.resource` the viewer may see refer to it: the store's count when
 * the viewer sees them all, else the references of those its scope keeps (one read for the level).
 */
async function visibleCounts(scope: RequestScope, c: CountDef, ids: string[]): Promise<ReadonlyMap<string, number>> {
  const r = resource(c.resource);
  const view = scope.view(r);
  if (view.kind === 'const') return view.value ? scope.storage.countRefs(c.resource, c.field, ids) : new Map();
  const target = r.fields.find((f) => f.name === c.field)!.target!;
  const plan = and([fk(c.field, target, ids, false, true), view]);
  const page = { limit: Number.MAX_SAFE_INTEGER, offset: 0, ordering: defaultOrdering(r) };
  const { rows } = await scope.storage.find(r.name, plan, page, { signal: scope.signal, noCount: true });
  const out = new Map<string, number>();
  for (const x of rows) out.set(String(x[c.field]), (out.get(String(x[c.field])) ?? 0) + 1);
  return out;
}

/** A related count (`device_count`) of what the viewer may see: one count read per count and level. */
export const countResolver =
  (c: CountDef): Resolver =>
  async (row, _args, scope) => {
    const b = scope.batch(c, () => new Batch((ids) => visibleCounts(scope, c, ids)));
    return (await b.load(row.id)) ?? 0;
  };

/** Custom field values, every defined one (null when unset), as REST serves `custom_fields`. */
export const customFieldsResolver =
  (r: ResourceDef, field: string): Resolver =>
  (row, _args, scope) => {
    const data = (row[field] as Record<string, unknown> | undefined) ?? {};
    return Object.fromEntries(scope.customFields(r).map((d) => [d.name, data[d.name] ?? null]));
  };

export const cfResolver =
  (field: string, name: string): Resolver =>
  (row) =>
    (row[field] as Record<string, unknown> | undefined)?.[name] ?? null;

/** A field served under another key (an alias): the row's value of `field`. */
export const renamed =
  (field: string): Resolver =>
  (row) =>
    row[field];

/** A generic reference's content type (`dcim.interface`) and id, as REST serves `<name>_type` / `<name>_id`. */
export const genericType =
  (g: GenericRef): Resolver =>
  (row) =>
    assignedOf(g, row)?.type ?? null;
export const genericId =
  (g: GenericRef): Resolver =>
  (row) =>
    assignedOf(g, row)?.id ?? null;

/** A generic reference's object; its type is remembered for the union's resolveType. */
export const genericResolver =
  (g: GenericRef, targets: ReadonlyMap<string, ResourceDef>): Resolver =>
  async (row, _args, scope) => {
    const a = assignedOf(g, row);
    if (!a) return null;
    const target = targets.get(a.field.name)!;
    const obj = await objectById(scope, target, a.id);
    if (obj) scope.kinds.set(obj, target);
    return obj;
  };

/** The batch of a nested list: every parent's children in one read, grouped, then each parent's page. */
function childrenBatch(scope: RequestScope, ref: ReverseRef, target: string, args: Args, node: FieldNode) {
  return scope.batch(
    node,
    () =>
      new Batch<readonly Row[]>(async (ids) => {
        const own = await planArgs(scope, ref.resource, args);
        const plan = and([fk(ref.field.name, target, ids, false, true), own]);
        const page = { limit: Infinity, offset: 0, ordering: defaultOrdering(ref.resource) };
        const rows = await scope.find(ref.resource, plan, page);
        const groups = new Map<string, Row[]>();
        for (const x of rows) {
          const key = String(x[ref.field.name]);
          const g = groups.get(key);
          if (g) g.push(x);
          else groups.set(key, [x]);
        }
        const { limit, offset } = pageArgs(scope, args);
        if (limit !== Infinity || offset) for (const [k, g] of groups) groups.set(k, g.slice(offset, offset + limit));
        return groups;
      }),
  );
}

/**
 * A reverse reference as a nested list with the REST list's filters (the read-ahead's, when it read it);
 * null when the viewer may not view it.
 */
export function reverseResolver(ref: ReverseRef, target: string): Resolver {
  const resolve: Resolver = (row, args, scope, info) => {
    if (!scope.viewer.canView(ref.resource)) return null;
    const node = info.fieldNodes[0];
    if (scope.ahead.has(node, row)) return scope.ahead.get(node, row);
    return childrenBatch(scope, ref, target, args, node).load(row.id, undefined, EMPTY);
  };
  AHEAD.set(resolve, { kind: 'reverse', ref, target });
  return resolve;
}

/** The batches as the read-ahead (read-ahead.ts) calls them. */
export const AHEAD_READS: AheadReads = { byId, children: childrenBatch };
