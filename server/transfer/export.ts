// A list exported as CSV or YAML (`?format=csv|yaml`, or `Accept: text/csv` / `application/yaml`): the whole
// filtered list in the list's order, read a chunk at a time and written as the client takes it (awaiting
// 'drain'), stopped when the client goes away. Columns: engine/transfer/columns.ts.
import { setImmediate } from 'node:timers/promises';
import type { Request, Response } from 'express';
import { stringify } from 'csv-stringify/sync';
import YAML from 'yaml';
import type { AppContext } from '../context.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import { columnsOf, keptColumns, type Column } from '../../engine/transfer/columns.js';
import { cellWriter } from '../../engine/transfer/cells.js';
import { RefCache } from '../../app/transfer/refs.js';
import { planRequest } from '../routes/inventory.js';
import { parseShape } from '../routes/list-params.js';
import { abortedWhenClientGone } from '../client-gone.js';
import { QueryAborted } from '../../storage/types.js';
import { scanList } from '../../app/transfer/scan.js';

export type ExportFormat = 'csv' | 'yaml';

/** Rows read from the store at a time. */
export const EXPORT_CHUNK = 1000;

const TYPES: Readonly<Record<ExportFormat, string>> = {
  csv: 'text/csv; charset=utf-8',
  yaml: 'application/yaml; charset=utf-8',
};

/** The export a request asks for: `?format=` first (json: the JSON page), else its Accept header. */
export function exportFormat(req: Request): ExportFormat | null {
  const f = typeof req.query.format === 'string' ? req.query.format.toLowerCase() : undefined;
  if (f === 'csv' || f === 'yaml') return f;
  if (f !== undefined) return null;
  return acceptedExport(req.headers.accept);
}

/** csv or yaml when an Accept header asks for one (the cached-list door leaves such requests to the app). */
export function acceptedExport(accept: string | undefined): ExportFormat | null {
  const a = (accept ?? '').toLowerCase();
  if (a.includes('text/csv')) return 'csv';
  if (/(application|text)\/(x-)?yaml/.test(a)) return 'yaml';
  return null;
}

/** One chunk of rows as text. */
function chunkText(format: ExportFormat, columns: readonly Column[], cells: string[][]): string {
  if (format === 'csv') return stringify(cells, { record_delimiter: 'windows' });
  const maps = cells.map((row) => Object.fromEntries(columns.map((c, i) => [c.name, row[i]])));
  return YAML.stringify(maps, { lineWidth: 0 });
}

async function written(res: Response, text: string, signal: AbortSignal): Promise<void> {
  if (res.write(text) || signal.aborted) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Streams the export of the list the request names (filters, ordering, `fields=` / `omit=`). */
export async function sendExport(
  ctx: AppContext,
  r: ResourceDef,
  req: Request,
  res: Response,
  format: ExportFormat,
): Promise<void> {
  const customFields = await ctx.inventory.customFieldsFor(r);
  const got = await planRequest(ctx, r, req, res, customFields);
  if (!got) return;
  const shape = parseShape(r, got.planned.control);
  if (!shape.ok) {
    res.status(400).json(shape.errors);
    return;
  }
  const omit = (got.planned.control.omit ?? []).flatMap((o) => o.split(','));
  const columns = keptColumns(columnsOf(r, customFields), shape.shape.keep, omit.includes('id'));
  const signal = abortedWhenClientGone(res);
  // An export reads every row it matches: it counts among the heavy queries (MAX_HEAVY_QUERIES) whatever its filters.
  await ctx.heavy.run(got.planned.plan, res, () => streamRows(ctx, r, res, { format, columns, signal, got }), true);
}

interface Streamed {
  readonly format: ExportFormat;
  readonly columns: readonly Column[];
  readonly signal: AbortSignal;
  readonly got: NonNullable<Awaited<ReturnType<typeof planRequest>>>;
}

async function streamRows(ctx: AppContext, r: ResourceDef, res: Response, s: Streamed): Promise<void> {
  const { format, columns, signal } = s;
  const refs = new RefCache(ctx.storage);
  res.status(200);
  res.setHeader('Content-Type', TYPES[format]);
  res.setHeader('Content-Disposition', `attachment; filename="${r.plural}.${format}"`);
  if (format === 'csv') res.write(stringify([columns.map((c) => c.name)], { record_delimiter: 'windows' }));
  // The header goes out now (the socket is corked until the event loop turns; a scan from memory would not
  // turn it before its first chunk is written): the first byte does not wait for the first rows.
  await setImmediate();
  let any = false;
  const chunks = scanList(ctx.storage, r.name, s.got.planned.plan, s.got.page.ordering, {
    chunk: EXPORT_CHUNK,
    signal,
  });
  const cellsOf = cellWriter(columns, refs.refs);
  try {
    for await (const rows of chunks) {
      if (signal.aborted) break;
      await refs.load(columns, rows);
      any = true;
      const cells = rows.map(cellsOf);
      await written(res, chunkText(format, columns, cells), signal);
    }
  } catch (e) {
    if (e instanceof QueryAborted || signal.aborted) return;
    ctx.log.warn(`export of ${r.plural} failed after its first bytes: ${(e as Error).message}`);
    res.destroy(e as Error); // a truncated file must not look whole
    return;
  }
  if (signal.aborted) return;
  if (format === 'yaml' && !any) res.write('[]\n');
  res.end();
}
