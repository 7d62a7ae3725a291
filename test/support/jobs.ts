// Background import jobs in tests: send a file with ?background=true, wait for its job to end.
import { ADMIN_KEY } from './server.js';

const AUTH = { Authorization: `Token ${ADMIN_KEY}` };

/** POSTs `body` to `url` (a list URL, query included) as CSV or YAML. */
export async function postFile(url: string, body: string, type = 'text/csv', key = ADMIN_KEY) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { Authorization: `Token ${key}`, 'Content-Type': type },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** The job at `jobUrl` once `until` holds for it (default: ended), polled every 50 ms for up to `ms`. */
export async function jobWhen(
  jobUrl: string,
  until: (job: any) => boolean = (j) => !['pending', 'running'].includes(j.status.value),
  ms = 120_000,
): Promise<any> {
  const stop = Date.now() + ms;
  for (;;) {
    const res = await fetch(jobUrl, { headers: AUTH });
    const job = res.ok ? await res.json() : null;
    if (job && until(job)) return job;
    if (Date.now() > stop) throw new Error(`job ${jobUrl} did not get there: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A CSV of `n` sites named `<prefix>-<i>`. */
export const sitesCsv = (prefix: string, n: number, from = 0): string =>
  'name,slug,status\n' +
  Array.from({ length: n }, (_, i) => `${prefix}-${i + from},${prefix}-${i + from},active`).join('\n') +
  '\n';
