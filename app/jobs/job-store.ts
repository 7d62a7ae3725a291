// Jobs as rows of the store (engine/schema/resources/job.ts): created with their file kept in parts,
// moved along by compare-and-swap on the row's version, and ended by a write that takes the file's
// parts away. Every step is one `apply`, so a server that stops between two leaves a job in a state
// the next start knows (app/jobs/job-runner.ts).
import type { ResourceDef } from '../../engine/schema/types.js';
import { contentType } from '../../engine/schema/registry.js';
import type { Row, Storage, WriteOp } from '../../storage/types.js';

const JOB = 'job';
const PART = 'job_input';
/** Characters of the file per stored part: well under a database's packet limit even as escaped JSON. */
export const PART_CHARS = 256 * 1024;

export type JobStatus = 'pending' | 'running' | 'completed' | 'failed' | 'errored';

/** The file's text cut into parts, never between the two halves of a surrogate pair. */
export function* partsOf(text: string, size = PART_CHARS): Generator<string> {
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + size);
    const c = text.charCodeAt(end - 1);
    if (end < text.length && c >= 0xd800 && c <= 0xdbff) end--;
    yield text.slice(at, end);
    at = end;
  }
}

export interface NewJob {
  readonly r: ResourceDef;
  readonly format: 'csv' | 'yaml';
  readonly text: string;
  readonly user: string;
  readonly requestId: string;
}

/** The job row as it will be after `change` (a new version, compare-and-swapped against the read one). */
export function jobUpdate(row: Row, change: Record<string, unknown>): WriteOp {
  const version = (row.version as number) ?? 0;
  return {
    op: 'update',
    resource: JOB,
    row: { ...row, ...change, last_updated: new Date().toISOString(), version: version + 1 },
    expectVersion: version,
    before: row,
  };
}

/** The writes that take a job's file away (with its end, in the same batch). */
export const partDeletes = (row: Row): WriteOp[] =>
  ((row.input_parts as string[] | null) ?? []).map((id) => ({ op: 'delete', resource: PART, id }));

/** The writes that take away the parts of a file never wholly stored (the job does not name them yet). */
export const strayPartDeletes = async (storage: Storage, row: Row): Promise<WriteOp[]> =>
  (await storage.findBy(PART, 'job', row.id)).map((p) => ({ op: 'delete', resource: PART, id: p.id }));

/**
 * Stores a new job and its file, a part per write; the job may run once `input_parts` names them all
 * (a start that finds a job without them knows its file was never wholly received, nor acknowledged).
 */
export async function createJob(storage: Storage, job: NewJob): Promise<Row> {
  const now = new Date().toISOString();
  const row: Row = {
    id: (await storage.newIds(JOB, 1))[0],
    created: now,
    last_updated: now,
    version: 1,
    name: `Import ${job.r.label.toLowerCase()}s (${job.format.toUpperCase()})`,
    object_type: contentType(job.r),
    status: 'pending',
    started: null,
    completed: null,
    user: job.user.slice(0, 200),
    rows_done: 0,
    rows_total: null,
    data: null,
    error: '',
    format: job.format,
    input_parts: null,
    request_id: job.requestId.slice(0, 64),
  };
  await storage.apply([{ op: 'create', resource: JOB, row }]);
  const ids: string[] = [];
  for (const text of partsOf(job.text)) {
    const [id] = await storage.newIds(PART, 1);
    await storage.apply([
      { op: 'create', resource: PART, row: { id, created: now, last_updated: now, job: row.id, text } },
    ]);
    ids.push(id);
  }
  const received = jobUpdate(row, { input_parts: ids });
  await storage.apply([received]);
  return (received as { row: Row }).row;
}

/** The file's parts in order, each read when the one before has been used. */
export async function* jobText(storage: Storage, row: Row): AsyncGenerator<string> {
  for (const id of (row.input_parts as string[] | null) ?? []) {
    const part = await storage.get(PART, id);
    if (!part) throw new Error(`job ${row.id}: part ${id} of its file is missing`);
    yield part.text as string;
  }
}

/** Jobs not ended: those a start runs again (or fails). */
export async function unfinishedJobs(storage: Storage): Promise<Row[]> {
  const found = [
    ...(await storage.findBy(JOB, 'status', 'pending')),
    ...(await storage.findBy(JOB, 'status', 'running')),
  ];
  return found.sort((a, b) => String(a.created).localeCompare(String(b.created)));
}
