// A NetBox database into an empty integer store, keeping NetBox's ids: the taken tables in the
// registry's dependency order (tree rows parents first), read a page at a time from the source's
// snapshot and written in atomic batches; the take/leave table at the end. Without a target (a dry
// run) the same rows are read and made, and nothing is written.
import { RESOURCES } from '../../engine/schema/registry.js';
import type { Row } from '../types.js';
import { SUPPORT_TABLES, TABLES } from './mapping.js';
import { productContentTypes, readTags, rowMaker, type RowContext } from './import-rows.js';
import { buildReport, Losses, type ReportLine } from './report.js';
import type { ImportSource, SourceRow } from './source.js';
import { planTable, type TablePlan } from './table-plan.js';
import { ImportWriter, type ClaimedTarget } from './writer.js';

export interface ImportOptions {
  /** null: a dry run. Else the target `claimTarget` gave. */
  readonly target: ClaimedTarget | null;
  /** Creates per atomic batch. */
  readonly batch?: number;
  /** Rows per read of the source. */
  readonly pageSize?: number;
  /** A table of at least this many rows reports its progress. */
  readonly progressFrom?: number;
  readonly progress?: (line: string) => void;
}

export interface ImportResult {
  readonly version: string;
  readonly lines: readonly ReportLine[];
  /** Rows taken, by NetBox table. */
  readonly taken: ReadonlyMap<string, number>;
}

/** Tree rows with every parent before its children (the source's id order otherwise). */
function parentsFirst(rows: Row[], parent: string): Row[] {
  const byId = new Map(rows.map((x) => [x.id, x]));
  const done = new Set<string>();
  const out: Row[] = [];
  for (const row of rows) {
    const chain: Row[] = [];
    for (let x: Row | undefined = row; x && !done.has(x.id); x = byId.get(x[parent] as string)) {
      done.add(x.id);
      chain.push(x);
    }
    out.push(...chain.reverse());
  }
  return out;
}

interface CustomFieldsTaken {
  readonly rows: Row[];
  /** NetBox table -> names of the custom fields taken for it. */
  readonly byTable: Map<string, Set<string>>;
}

/** The custom fields, before the other tables (their values depend on which are taken): those of a type
 * and on objects the product has. */
async function customFields(
  src: ImportSource,
  plan: TablePlan | undefined,
  ctx: RowContext,
): Promise<CustomFieldsTaken> {
  const out: CustomFieldsTaken = { rows: [], byTable: new Map() };
  if (!plan) return out;
  const make = rowMaker(plan, ctx);
  const rows: SourceRow[] = [];
  for await (const page of src.pages(plan.map.table, plan.select, 100_000)) rows.push(...page);
  for (const source of rows) {
    const row = make(source);
    const netboxTypes = row.content_types as string[];
    row.content_types = productContentTypes(netboxTypes);
    if (row.type === null) ctx.losses.add(plan.map.table, `of type ${String(source.type)}`);
    else if (!(row.content_types as string[]).length) ctx.losses.add(plan.map.table, 'on no object type taken');
    else {
      out.rows.push(row);
      for (const t of netboxTypes.map((ct) => ct.replace('.', '_'))) {
        if (!out.byTable.has(t)) out.byTable.set(t, new Set());
        out.byTable.get(t)!.add(String(row.name));
      }
    }
  }
  return out;
}

export async function importNetbox(src: ImportSource, opts: ImportOptions): Promise<ImportResult> {
  const losses = new Losses();
  const plans = RESOURCES.flatMap((r) => TABLES.filter((t) => t.resource === r.name && src.has(t.table))).map((m) =>
    planTable(src, m),
  );
  const counts = await src.tableCounts();
  const takenTables = new Set(plans.map((p) => p.map.table));
  const taken = new Map<string, number>();
  const tagged = await readTags(src, takenTables, losses);
  taken.set(SUPPORT_TABLES.tagged, tagged.taken);
  const ctx0: RowContext = { tags: tagged.tags, customFields: new Map(), losses, now: new Date().toISOString() };
  const cfPlan = plans.find((p) => p.resource.name === 'custom_field');
  const cfs = await customFields(src, cfPlan, ctx0);
  const ctx: RowContext = { ...ctx0, customFields: cfs.byTable };
  countCustomFieldSupport(counts, cfs, taken, losses);
  const writer = opts.target ? new ImportWriter(opts.target, opts.batch ?? 5000) : null;
  try {
    for (const plan of plans) {
      const n = plan === cfPlan ? await put(writer, plan, cfs.rows) : await copyTable(src, plan, ctx, writer, opts);
      taken.set(plan.map.table, n);
    }
    await writer?.finish();
  } catch (e) {
    if (writer)
      await writer.undo().catch((u: Error) => {
        throw new Error(`${(e as Error).message}; and undoing the import failed too: ${u.message}`);
      });
    throw e;
  }
  return { version: src.version, lines: await buildReport(src, counts, plans, taken, losses), taken };
}

/** A custom field's object types are carried on it: those of the custom fields taken, on objects the product has. */
function countCustomFieldSupport(
  counts: Map<string, number>,
  cfs: CustomFieldsTaken,
  taken: Map<string, number>,
  losses: Losses,
) {
  const carried = cfs.rows.reduce((n, r) => n + (r.content_types as string[]).length, 0);
  for (const t of SUPPORT_TABLES.cfObjectTypes) {
    const n = counts.get(t);
    if (n === undefined) continue;
    taken.set(t, carried);
    if (n > carried) losses.add(t, 'of custom fields left, or object types not taken', n - carried);
  }
}

async function put(writer: ImportWriter | null, plan: TablePlan, rows: readonly Row[]): Promise<number> {
  const deferred = plan.resource.fields.filter((f) => f.deferred).map((f) => f.name);
  if (writer) for (const row of rows) await writer.create(plan.resource.name, row, deferred);
  return rows.length;
}

async function copyTable(
  src: ImportSource,
  plan: TablePlan,
  ctx: RowContext,
  writer: ImportWriter | null,
  opts: ImportOptions,
): Promise<number> {
  const make = rowMaker(plan, ctx);
  const total = (await src.count(plan.map.table)) || 0;
  const every = total >= (opts.progressFrom ?? 100_000) ? Math.ceil(total / 10) : Infinity;
  const pages = src.pages(plan.map.table, plan.select, opts.pageSize ?? 20_000);
  let n = 0;
  if (plan.resource.tree) {
    const rows: Row[] = [];
    for await (const page of pages) rows.push(...page.map((s: SourceRow) => make(s)));
    return put(writer, plan, parentsFirst(rows, plan.resource.tree));
  }
  for await (const page of pages) {
    const next = n + page.length;
    await put(
      writer,
      plan,
      page.map((s) => make(s)),
    );
    if (Math.floor(next / every) > Math.floor(n / every))
      opts.progress?.(`${plan.map.table}: ${next} of ${total} rows (${Math.round((100 * next) / total)}%)`);
    n = next;
  }
  return n;
}
