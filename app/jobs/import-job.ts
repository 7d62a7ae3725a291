// A background import: the job's file read a part at a time, parsed (CSV as a stream; YAML whole),
// staged a batch of rows at a time (app/transfer/import.ts: ImportRun), then written in one batch
// together with the job's end and the removal of its file. Until that write nothing of the file is
// in the store; after it the job is completed: a server that stops in between left nothing half-written.
import { setImmediate } from 'node:timers/promises';
import type { Inventory } from '../inventory.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import type { Row, Storage } from '../../storage/types.js';
import { headerErrors, importColumns, ImportRun, type ImportError } from '../transfer/import.js';
import { csvError, csvRecords, parseYaml } from '../transfer/parse.js';
import { jobText, jobUpdate, partDeletes } from './job-store.js';

/** Rows staged between two looks at progress; progress is written at most every PROGRESS_MS. */
export const BATCH_ROWS = 500;
export const PROGRESS_MS = 250;
/** Row errors a failed job keeps (`count` says how many there were). */
const LISTED = 100;

/** The server is closing: the job stays `running` and the next start runs it again. */
export class JobStopped extends Error {}

export interface JobEnv {
  readonly inv: Inventory;
  /** True once the server closes (checked between batches). */
  readonly stopping: () => boolean;
}

/** The records of the job's file, the header first, a batch at a time. */
async function* batches(storage: Storage, row: Row): AsyncGenerator<string[][] | Record<string, string>[]> {
  if (row.format === 'yaml') {
    let text = '';
    for await (const part of jobText(storage, row)) text += part;
    const parsed = parseYaml(text);
    if ('errors' in parsed) throw new RowErrors(parsed.errors);
    yield [parsed.header];
    for (let i = 0; i < parsed.records.length; i += BATCH_ROWS) yield parsed.records.slice(i, i + BATCH_ROWS);
    return;
  }
  let header: string[] | null = null;
  let batch: Record<string, string>[] = [];
  try {
    for await (const cells of csvRecords(jobText(storage, row))) {
      if (!header) {
        yield [(header = cells)];
        continue;
      }
      batch.push(Object.fromEntries(header.map((h, i) => [h, cells[i]])));
      if (batch.length >= BATCH_ROWS) {
        yield batch;
        batch = [];
      }
    }
  } catch (e) {
    if ((e as { code?: string }).code?.startsWith('CSV_')) throw new RowErrors([csvError(e)]);
    throw e;
  }
  if (!header) yield [[]];
  if (batch.length) yield batch;
}

class RowErrors extends Error {
  constructor(readonly errors: readonly ImportError[]) {
    super('the file has errors');
  }
}

/** Data rows of the job's file (a first pass: CSV parsed and counted, nothing kept). */
async function countRows(storage: Storage, row: Row): Promise<number> {
  let n = 0;
  for await (const b of batches(storage, row)) {
    n += b.length;
    await setImmediate(); // a part read from memory resolves at once: other requests come in between
  }
  return n - 1;
}

const failed = (errors: readonly ImportError[]) => ({
  status: 'failed',
  error: `${errors.length} error(s) in the file; nothing was imported.`,
  data: { errors: errors.slice(0, LISTED), count: errors.length },
});

/** Runs job `row` (status running, as read) to its end: returns the row as last written. */
export async function runImportJob(env: JobEnv, r: ResourceDef, start: Row): Promise<Row> {
  const storage = env.inv.storage;
  let row = start;
  const write = async (change: Record<string, unknown>, more: Parameters<Storage['apply']>[0] = []) => {
    const op = jobUpdate(row, change);
    await storage.apply([op, ...more]);
    return (row = (op as { row: Row }).row);
  };
  const end = (change: Record<string, unknown>) =>
    write({ ...change, completed: new Date().toISOString() }, partDeletes(row));
  let done = 0;
  try {
    await write({ rows_total: await countRows(storage, row) });
    const columns = await importColumns(env.inv, r);
    const run = new ImportRun(env.inv, r, columns);
    let shown = Date.now();
    let header: string[] | null = null;
    for await (const b of batches(storage, row)) {
      await setImmediate();
      if (env.stopping()) throw new JobStopped();
      if (!header) {
        header = b[0] as string[];
        const bad = headerErrors(columns, header);
        if (bad.length) return await end(failed(bad));
        continue;
      }
      await run.add(b as Record<string, string>[], done + 1);
      done += b.length;
      if (Date.now() - shown >= PROGRESS_MS) {
        await write({ rows_done: done });
        shown = Date.now();
      }
    }
    let finished: Row | null = null;
    const out = await run.finish((counts) => {
      const op = jobUpdate(row, {
        status: 'completed',
        completed: new Date().toISOString(),
        rows_done: done,
        data: counts,
      });
      finished = (op as { row: Row }).row;
      return [op, ...partDeletes(row)];
    });
    if (out.ok) return (row = finished!);
    return await end({ ...failed(out.errors), rows_done: done });
  } catch (e) {
    if (e instanceof RowErrors) return end({ ...failed(e.errors), rows_done: done });
    throw e;
  }
}
