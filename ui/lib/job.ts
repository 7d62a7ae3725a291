// A background import's job (`POST …?background=true` answers 202 with it; `/api/core/jobs/<id>/` reads it):
// where to poll it, and its state read defensively, since the job's fields may still change. Everything that
// knows a job field's name is in this file.
import { request } from './api.js';

const FINISHED = new Set(['completed', 'failed', 'errored']);

export interface JobState {
  /** The status's value (`pending`, `running`, `completed`, `failed`, `errored`). */
  readonly status: string;
  readonly label: string;
  readonly done: number | null;
  readonly total: number | null;
  readonly finished: boolean;
  readonly ok: boolean;
  /** What the import answered when it ran (`created`/`updated`/`unchanged`, or `errors`). */
  readonly outcome: unknown;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Rows done and total, from `progress: {done|rows_done, total|rows_total}` or the same at the top. */
function progressOf(job: any): { done: number | null; total: number | null } {
  const p = job.progress && typeof job.progress === 'object' ? job.progress : job;
  return {
    done: num(p.done ?? p.rows_done ?? p.processed ?? p.current),
    total: num(p.total ?? p.rows_total ?? p.rows),
  };
}

export function jobState(job: any): JobState {
  const raw = job?.status;
  const status = String((raw && typeof raw === 'object' ? raw.value : raw) ?? 'pending');
  const label = String((raw && typeof raw === 'object' ? raw.label : null) ?? status);
  const outcome = job?.result ?? job?.data?.result ?? job?.data ?? (job?.errors ? { errors: job.errors } : job?.error);
  return {
    status,
    label,
    ...progressOf(job ?? {}),
    finished: FINISHED.has(status),
    ok: status === 'completed',
    outcome,
  };
}

/** The job's URL in a 202 answer: its `url`, else its id under /api/core/jobs/, else the Location header. */
export function jobUrl(body: any, location: string | null): string | null {
  if (typeof body?.url === 'string') return new URL(body.url, window.location.href).pathname;
  if (body?.id !== undefined) return `/api/core/jobs/${body.id}/`;
  return location;
}

/** Reads the job every `everyMs` until it finishes, telling `onState` each time; null when it cannot be read. */
export async function pollJob(
  url: string,
  onState: (s: JobState) => void,
  stopped: () => boolean,
  everyMs = 400,
): Promise<JobState | { error: string }> {
  for (;;) {
    const r = await request('GET', url);
    if (r.status === 404) return { error: `The job API is not available here (${url}: 404).` };
    if (!r.ok) return { error: `${url}: ${r.status} ${r.body?.detail ?? r.text}` };
    const s = jobState(r.body);
    onState(s);
    if (s.finished || stopped()) return s;
    await new Promise((res) => setTimeout(res, everyMs));
  }
}
