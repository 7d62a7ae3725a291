// Copies every row of one storage into another, empty one: how an operator moves from the
// embedded memory store to PostgreSQL or MySQL (or back). Resources go in registry order (what a
// row refers to is copied before it), tree rows parents first, in atomic batches; references to a
// resource listed later (deferred: a device's primary IP) are written in a second pass. Rows keep
// their ids, so both stores must have one id style (a new target is created with the source's,
// copy-cli.ts); between integer stores the target's counters are then moved past the copied ids.
import { TRUE } from '../engine/plan/nodes.js';
import { RESOURCES } from '../engine/schema/registry.js';
import type { ResourceDef } from '../engine/schema/types.js';
import type { IdStyleName } from '../engine/schema/id-style.js';
import type { Row, Storage } from './types.js';

const PAGE = 5000;
const BATCH = 1000;

/** Every row of a resource, read a page at a time in id order. */
async function allRows(s: Storage, r: ResourceDef): Promise<Row[]> {
  const out: Row[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await s.find(r.name, TRUE, { limit: PAGE, offset, ordering: [{ field: 'id', desc: false }] });
    out.push(...page.rows);
    if (page.rows.length < PAGE) return out;
  }
}

/** Rows of a tree with every parent before its children. */
function parentsFirst(rows: Row[], parentField: string): Row[] {
  const byId = new Map(rows.map((x) => [x.id, x]));
  const done = new Set<string>(),
    out: Row[] = [];
  const visit = (row: Row) => {
    // Iterative climb: a deep tree must not overflow the stack.
    const chain: Row[] = [];
    for (let x: Row | undefined = row; x && !done.has(x.id); x = byId.get(x[parentField] as string)) {
      done.add(x.id);
      chain.push(x);
    }
    out.push(...chain.reverse());
  };
  rows.forEach(visit);
  return out;
}

export class TargetNotEmpty extends Error {}

/** The stores' id styles differ: ids cannot be kept, and rewriting every reference is no copy. */
export class IdStylesDiffer extends Error {
  constructor(from: IdStyleName, to: IdStyleName) {
    super(
      `the source has ${from} ids and the target ${to} ids: a copy keeps every id, so it runs only ` +
        `between stores of one id style (a new target is created with the source's)`,
    );
  }
}

/** Copies everything from `from` into `to`, which must hold no rows. Returns rows per resource. */
export async function copyStorage(
  from: Storage,
  to: Storage,
  progress: (resource: string, rows: number) => void = () => {},
): Promise<Map<string, number>> {
  if (from.ids.name !== to.ids.name) throw new IdStylesDiffer(from.ids.name, to.ids.name);
  const held: string[] = [];
  for (const r of RESOURCES) {
    const n = (await to.find(r.name, TRUE, { limit: 1, offset: 0, ordering: [] })).count;
    if (n) held.push(`${r.name} (${n})`);
  }
  if (held.length)
    throw new TargetNotEmpty(
      `the target already holds rows: ${held.join(', ')}; ` +
        'copy into an empty database, before the first server start on it',
    );
  const copied = new Map<string, number>();
  const later: { resource: string; row: Row }[] = [];
  for (const r of RESOURCES) {
    let rows = await allRows(from, r);
    if (r.tree) rows = parentsFirst(rows, r.tree);
    const deferred = r.fields.filter((f) => f.deferred).map((f) => f.name);
    const first = rows.map((row) => {
      if (!deferred.some((n) => row[n] !== null && row[n] !== undefined)) return row;
      later.push({ resource: r.name, row });
      return { ...row, ...Object.fromEntries(deferred.map((n) => [n, null])) };
    });
    for (let i = 0; i < first.length; i += BATCH)
      await to.apply(
        first.slice(i, i + BATCH).map((row) => ({ op: 'create', resource: r.name, row })),
        { log: false },
      ); // the log is copied as it is
    copied.set(r.name, rows.length);
    progress(r.name, rows.length);
  }
  for (let i = 0; i < later.length; i += BATCH)
    await to.apply(
      later.slice(i, i + BATCH).map(({ resource, row }) => ({ op: 'update', resource, row })),
      { log: false },
    );
  await to.advanceIdCounters(); // the next id a target gives is above every copied one
  await to.afterBulkLoad();
  return copied;
}
