// Which change records a principal may see (issue #39): a record is shown when the principal may view its
// object's type and the record's copy of the object (after the change, or before it for a delete)
// satisfies the type's view constraints. The type part is a plan the store answers; the constraint part
// is tested on each record's copy (engine/memory/row-match.ts), its references read once per page.
import { and, cmp, FALSE, or, TRUE, type FkNode, type Plan, type ViaNode } from '../engine/plan/nodes.js';
import { CHANGE_RESOURCE } from '../engine/changes/change-records.js';
import { relationNodes, rowMatches, type RowRefs } from '../engine/memory/row-match.js';
import { contentType, LOGGED_CONTENT_TYPES, RESOURCES } from '../engine/schema/registry.js';
import type { IdStyle } from '../engine/schema/id-style.js';
import type { CustomFieldDef, ResourceDef } from '../engine/schema/types.js';
import type { Row, Storage } from '../storage/types.js';
import type { Principal } from './principal.js';
import { scopeOf, unconstrained } from './permission-scope.js';

const BY_TYPE: ReadonlyMap<string, ResourceDef> = new Map(RESOURCES.map((r) => [contentType(r), r]));
/** Ids asked for in one read. */
const CHUNK = 500;

export interface RecordScope {
  /** Every record of every type is shown (a superuser, or a view of every logged type unconstrained). */
  readonly all: boolean;
  /** Types whose every record is shown. */
  readonly open: readonly string[];
  /** Types whose records are shown when their copy satisfies the plan. */
  readonly constrained: ReadonlyMap<string, Plan>;
}

/** The principal's scope over change records. */
export function recordScope(p: Principal, customFields: readonly CustomFieldDef[], ids: IdStyle): RecordScope {
  const open: string[] = [];
  const constrained = new Map<string, Plan>();
  for (const type of LOGGED_CONTENT_TYPES) {
    const plan = scopeOf(p, BY_TYPE.get(type)!, 'view', customFields, ids);
    if (unconstrained(plan)) open.push(type);
    else if (!(plan.kind === 'const' && !plan.value)) constrained.set(type, plan);
  }
  return { all: open.length === LOGGED_CONTENT_TYPES.length, open, constrained };
}

/** The records of the types the scope shows any of (the store answers it); TRUE when it shows every type. */
export function recordTypesPlan(s: RecordScope, field = 'changed_object_type'): Plan {
  if (s.all) return TRUE;
  const types = [...s.open, ...s.constrained.keys()];
  return types.length ? cmp(field, 'string', 'eq', false, types) : FALSE;
}

/** The copy of the object a record is judged by: after the change, or before it for a delete. */
const copyOf = (record: Row): Row | null =>
  ((record.action === 'delete' ? record.prechange_data : record.object_data) as Row | null) ?? null;

async function idsMatching(storage: Storage, target: string, plan: Plan, ids: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const where = and([cmp('id', 'string', 'eq', false, chunk), plan]);
    const page = { limit: chunk.length, offset: 0, ordering: [] };
    for (const x of (await storage.find(target, where, page, { noCount: true })).rows) out.add(x.id);
  }
  return out;
}

function tagRefsOf(plan: Plan, out: Set<string>): Set<string> {
  if (plan.kind === 'tag') out.add(plan.ref);
  else if (plan.kind === 'and' || plan.kind === 'or') for (const c of plan.children) tagRefsOf(c, out);
  else if (plan.kind === 'not') tagRefsOf(plan.child, out);
  return out;
}

/** The references a plan's test on `copies` needs, read for all of them at once. */
async function refsFor(storage: Storage, r: ResourceDef, plan: Plan, copies: readonly Row[]): Promise<RowRefs> {
  const byNode = new Map<FkNode | ViaNode, ReadonlySet<string>>();
  for (const n of relationNodes(plan)) {
    if (n.kind === 'fk') {
      byNode.set(n, new Set(n.refs)); // constraints name ids (byId)
      continue;
    }
    const ids = new Set<string>();
    for (const c of copies) if (c[n.field] !== null && c[n.field] !== undefined) ids.add(String(c[n.field]));
    byNode.set(n, await idsMatching(storage, n.target, n.plan, [...ids]));
  }
  const tags = new Map<string, string>();
  const refs = [...tagRefsOf(plan, new Set())];
  if (refs.length) {
    const page = { limit: refs.length, offset: 0, ordering: [] };
    const found = await storage.find('tag', cmp('slug', 'string', 'eq', false, refs), page, { noCount: true });
    for (const t of found.rows) tags.set(String(t.slug), t.id);
  }
  const netSource = r.fields.find((f) => f.kind === 'prefix' || f.kind === 'address')?.name;
  return { ids: (n) => byNode.get(n) ?? new Set(), tagId: (ref) => tags.get(ref) ?? ref, netSource };
}

/** Which of `records` (object_change rows) the scope shows, in their order. */
export async function visibleRecords(storage: Storage, s: RecordScope, records: readonly Row[]): Promise<Row[]> {
  if (s.all) return [...records];
  const open = new Set(s.open);
  const keep = new Set<Row>();
  const byType = new Map<string, Row[]>();
  for (const x of records) {
    const type = String(x.changed_object_type);
    if (open.has(type)) keep.add(x);
    else if (s.constrained.has(type)) (byType.get(type) ?? byType.set(type, []).get(type)!).push(x);
  }
  for (const [type, group] of byType) {
    const plan = s.constrained.get(type)!;
    const copies = group.map(copyOf);
    const present = copies.filter((c): c is Row => c !== null);
    const refs = await refsFor(storage, BY_TYPE.get(type)!, plan, present);
    group.forEach((x, i) => {
      const c = copies[i];
      if (c && rowMatches(plan, c, refs)) keep.add(x);
    });
  }
  return records.filter((x) => keep.has(x));
}

/**
 * The rows the scope shows, as a plan the store answers whole (so that pages and counts are right): the
 * open types, and those of constrained types whose change record's copy passes, by the record's id
 * (`idField`: the change log's `id`, a webhook delivery's `change`). The constrained types' records of
 * `where` (a plan on the change log) are read to decide them.
 */
export async function visibleRecordsPlan(
  storage: Storage,
  s: RecordScope,
  where: Plan = TRUE,
  idField = 'id',
): Promise<Plan> {
  if (s.all) return TRUE;
  const parts: Plan[] = s.open.length ? [cmp('changed_object_type', 'string', 'eq', false, s.open)] : [];
  if (s.constrained.size) {
    const types = cmp('changed_object_type', 'string', 'eq', false, [...s.constrained.keys()]);
    const ids: string[] = [];
    let after = -1;
    for (;;) {
      const page = { limit: 1000, offset: 0, ordering: [{ field: 'seq', desc: false }] };
      const at = and([where, types, cmp('seq', 'number', 'gt', false, [after])]);
      const { rows } = await storage.find(CHANGE_RESOURCE, at, page, { noCount: true });
      if (!rows.length) break;
      for (const x of await visibleRecords(storage, s, rows)) ids.push(x.id);
      after = Number(rows[rows.length - 1].seq);
    }
    if (ids.length) parts.push(cmp(idField, 'string', 'eq', false, ids));
  }
  return or(parts);
}

/** Where the custom field definitions come from (the Inventory). */
type Defs = { customFields(): Promise<readonly CustomFieldDef[]> };

/** The resources whose rows are change records or name one (the field holding its id). */
const RECORD_ID: Readonly<Record<string, string>> = { object_change: 'id', webhook_delivery: 'change' };

/** Whether `r`'s rows are change records or name one (judged by the copy of the object they name). */
export const namesRecords = (r: ResourceDef): boolean => r.name in RECORD_ID;

/**
 * For a list of the change log or of webhook deliveries, the rows the principal may see as a plan to AND
 * into `where` (TRUE for other resources, and for a principal seeing every record).
 */
export async function recordRowsPlan(
  storage: Storage,
  p: Principal | undefined,
  r: ResourceDef,
  where: Plan,
  defs: Defs,
): Promise<Plan> {
  const idField = RECORD_ID[r.name];
  if (!idField) return TRUE;
  if (!p) return FALSE;
  const s = recordScope(p, await defs.customFields(), storage.ids);
  return visibleRecordsPlan(storage, s, idField === 'id' ? where : TRUE, idField);
}

/** Whether the principal may see one row of the change log or of webhook deliveries (true for other resources). */
export async function recordRowVisible(
  storage: Storage,
  p: Principal | undefined,
  r: ResourceDef,
  row: Row,
  defs: Defs,
): Promise<boolean> {
  const idField = RECORD_ID[r.name];
  if (!idField) return true;
  if (!p) return false;
  const s = recordScope(p, await defs.customFields(), storage.ids);
  if (s.all || s.open.includes(String(row.changed_object_type))) return true;
  const record = idField === 'id' ? row : await storage.get(CHANGE_RESOURCE, String(row[idField]));
  return record !== null && (await visibleRecords(storage, s, [record])).length === 1;
}
