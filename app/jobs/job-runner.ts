// Runs background jobs one at a time in this process (a job's staged rows are its memory: one at a time
// bounds it). Each job runs under the store's lock named after it, so that two servers on one database
// never run the same job; it is read again under the lock and run only if not yet ended.
// At a start, every job left pending or running is run again from its file: nothing of it was written
// (its rows and its end are one write), so running it again is running it once. A job whose file was
// never wholly stored (the request was not answered) is failed instead.
import { findResource } from '../../engine/schema/registry.js';
import type { Inventory } from '../inventory.js';
import type { Row } from '../../storage/types.js';
import { withWriteContext } from '../../storage/change-log/write-context.js';
import { jobUpdate, partDeletes, strayPartDeletes, unfinishedJobs } from './job-store.js';
import { JobStopped, runImportJob } from './import-job.js';

export class JobRunner {
  private queue: Promise<void> = Promise.resolve();
  private closing = false;
  constructor(
    private readonly inv: Inventory,
    private readonly log: { warn(m: string): void },
  ) {}

  /** Queues job `id` (just created, or found unfinished at a start). */
  enqueue(id: string): void {
    this.queue = this.queue.then(() => this.runOne(id)).catch((e: Error) => this.log.warn(`job ${id}: ${e.message}`));
  }

  /** Queues every job a stopped server left unfinished. */
  async resume(): Promise<number> {
    const left = await unfinishedJobs(this.inv.storage);
    for (const row of left) this.enqueue(row.id);
    return left.length;
  }

  /** Stops between two batches: a job cut short stays `running`, for the next start. */
  async close(): Promise<void> {
    this.closing = true;
    await this.queue;
  }

  /** Resolves when every job queued so far has ended (tests). */
  idle(): Promise<void> {
    return this.queue;
  }

  private async runOne(id: string): Promise<void> {
    if (this.closing) return;
    const storage = this.inv.storage;
    await storage.serialized(`job:${id}`, async () => {
      const row = await storage.get('job', id);
      if (!row || (row.status !== 'pending' && row.status !== 'running')) return;
      const end = (change: Record<string, unknown>) =>
        storage.apply([jobUpdate(row, { ...change, completed: new Date().toISOString() }), ...partDeletes(row)]);
      if (row.input_parts === null) {
        // The parts stored before the stop go with the job's end: nothing of the file stays behind.
        const change = {
          status: 'failed',
          completed: new Date().toISOString(),
          error: 'The server stopped before the whole file was received; nothing was imported. Send it again.',
        };
        return void (await storage.apply([jobUpdate(row, change), ...(await strayPartDeletes(storage, row))]));
      }
      const r = findResource(String(row.object_type).split('.')[1] ?? '');
      if (!r) return void (await end({ status: 'errored', error: `No list for ${String(row.object_type)}.` }));
      const running = jobUpdate(row, { status: 'running', started: new Date().toISOString(), rows_done: 0 });
      await storage.apply([running]);
      try {
        await this.inContext(row, () => runImportJob(this.env(), r, (running as { row: Row }).row));
      } catch (e) {
        if (e instanceof JobStopped) return;
        const now = await storage.get('job', id);
        if (now && now.status === 'running')
          await storage.apply([
            jobUpdate(now, {
              status: 'errored',
              completed: new Date().toISOString(),
              error: `The job stopped: ${(e as Error).message}`.slice(0, 1000),
            }),
            ...partDeletes(now),
          ]);
      }
    });
  }

  private env() {
    return { inv: this.inv, stopping: () => this.closing };
  }

  /** The job's writes are its requester's: change records name the user and the request that made the job. */
  private inContext<T>(row: Row, fn: () => Promise<T>): Promise<T> {
    const user = String(row.user);
    return withWriteContext(
      { requestId: String(row.request_id), userName: () => user, seq: null, memo: new Map(), primary: true },
      fn,
    );
  }
}
