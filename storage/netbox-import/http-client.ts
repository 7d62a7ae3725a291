// A read-only client for a NetBox REST API: GET only (it has no other method, so an import can never
// write to its source), the token in NetBox's header, NetBox's paging followed to the end, and retries
// with exponential backoff on 429 (honouring Retry-After), 5xx, timeouts and dropped connections.
import { setTimeout as sleep } from 'node:timers/promises';

export type NetboxApiFailure = 'token' | 'not-netbox' | 'not-found' | 'redirect' | 'http' | 'network';

/** What each failure means to the person running the import. */
const FAILURES: Record<NetboxApiFailure, string> = {
  token: 'the NetBox API refused the token (check --token: a NetBox API token whose user may view these objects)',
  'not-netbox': 'this URL does not answer like a NetBox API (check --from: the NetBox base URL)',
  'not-found': 'the NetBox API has no such endpoint (a NetBox version this import does not read?)',
  // Followed, a redirect to another origin would drop the token (fetch does): better said than a 403.
  redirect: 'the NetBox API redirected (give --from the URL it redirects to)',
  http: 'the NetBox API answered with an error',
  network: 'the NetBox API could not be reached',
};

export class NetboxApiError extends Error {
  constructor(
    readonly failure: NetboxApiFailure,
    detail: string,
  ) {
    super(`${FAILURES[failure]}: ${detail}`);
    this.name = 'NetboxApiError';
  }
}

export interface HttpClientOptions {
  /** The NetBox base URL ('https://netbox.example.com', with or without a trailing /api/). */
  readonly url: string;
  readonly token: string;
  /** Tries per request, the first included (default 6). */
  readonly attempts?: number;
  /** The first backoff; each retry doubles it (default 500 ms). */
  readonly backoffMs?: number;
  /** The longest wait between tries, Retry-After included (default 60 s). */
  readonly maxWaitMs?: number;
  /** Per request (default 120 s). */
  readonly timeoutMs?: number;
  /** Objects per page (default 1000: NetBox's default MAX_PAGE_SIZE). */
  readonly pageSize?: number;
}

export interface Page {
  readonly count: number;
  readonly next: string | null;
  readonly results: readonly Record<string, unknown>[];
}

/** Statuses worth another try: rate limiting and the server's own failures. */
const RETRIED = (status: number) => status === 429 || status >= 500;

/** NetBox 4.5's v2 tokens ('nbt_<key>.<secret>') go as Bearer; older ones as Token. */
export function authorization(token: string): string {
  return token.startsWith('nbt_') ? `Bearer ${token}` : `Token ${token}`;
}

/** Seconds or an HTTP date, in ms; null when absent or unreadable. */
function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

export class NetboxHttpClient {
  readonly base: URL;
  private readonly opts: Required<Omit<HttpClientOptions, 'url' | 'token'>>;

  constructor(private readonly options: HttpClientOptions) {
    const base = new URL(options.url);
    base.pathname = base.pathname.replace(/\/+$/, '').replace(/\/api$/, '') + '/';
    base.search = '';
    base.hash = '';
    this.base = base;
    this.opts = {
      attempts: options.attempts ?? 6,
      backoffMs: options.backoffMs ?? 500,
      maxWaitMs: options.maxWaitMs ?? 60_000,
      timeoutMs: options.timeoutMs ?? 120_000,
      pageSize: options.pageSize ?? 1000,
    };
  }

  /**
   * A URL on the base: `path` is 'api/dcim/sites/' or a `next` link, whose scheme and host are
   * replaced by the base's (NetBox behind a proxy writes links with its own idea of its host).
   */
  urlOf(path: string): URL {
    if (!/^https?:\/\//i.test(path)) return new URL(path.replace(/^\/+/, ''), this.base);
    const link = new URL(path);
    const at = link.pathname.indexOf('/api/');
    const url = new URL(at >= 0 ? link.pathname.slice(at + 1) : link.pathname.replace(/^\/+/, ''), this.base);
    url.search = link.search;
    return url;
  }

  /** GET one JSON answer, with the retries; also hands back the response headers. */
  async get(path: string): Promise<{ body: unknown; headers: Headers }> {
    const url = this.urlOf(path);
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= this.opts.attempts;
      let res: { status: number; headers: Headers; text: string };
      try {
        res = await this.once(url);
      } catch (e) {
        const why = (e as Error & { cause?: Error }).cause?.message ?? (e as Error).message;
        if (last) throw new NetboxApiError('network', `GET ${url.href}: ${why} (after ${attempt} tries)`);
        await sleep(this.backoff(attempt, null));
        continue;
      }
      if (res.status >= 200 && res.status < 300) return { body: this.json(res, url), headers: res.headers };
      if (RETRIED(res.status) && !last) {
        await sleep(this.backoff(attempt, retryAfterMs(res.headers.get('retry-after'))));
        continue;
      }
      throw this.failure(res.status, url, res.text, attempt, res.headers.get('location'));
    }
  }

  /** One GET, its body read whole (a connection dropped in the body is a network failure, retried). */
  private async once(url: URL): Promise<{ status: number; headers: Headers; text: string }> {
    const res = await fetch(url, {
      method: 'GET',
      headers: { Authorization: authorization(this.options.token), Accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(this.opts.timeoutMs),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  }

  /** Every object of a list endpoint, page after page ('limit' per page; 'next' links followed). */
  async *list(path: string, query: Record<string, string> = {}): AsyncGenerator<Record<string, unknown>> {
    const first = this.urlOf(path);
    first.searchParams.set('limit', String(this.opts.pageSize));
    for (const [k, v] of Object.entries(query)) first.searchParams.set(k, v);
    let next: string | null = first.href;
    while (next) {
      const page = asPage((await this.get(next)).body, next);
      yield* page.results;
      next = page.next;
    }
  }

  /** How many objects a list endpoint has (one object asked for). */
  async count(path: string): Promise<number> {
    const url = this.urlOf(path);
    url.searchParams.set('limit', '1');
    return asPage((await this.get(url.href)).body, url.href).count;
  }

  private backoff(attempt: number, asked: number | null): number {
    const wait = asked ?? this.opts.backoffMs * 2 ** (attempt - 1) * (0.75 + Math.random() / 2);
    return Math.min(wait, this.opts.maxWaitMs);
  }

  private json(res: { status: number; text: string }, url: URL): unknown {
    try {
      return JSON.parse(res.text);
    } catch {
      throw new NetboxApiError('not-netbox', `GET ${url.href} answered ${res.status} with ${describe(res.text)}`);
    }
  }

  private failure(status: number, url: URL, text: string, attempt: number, location: string | null): NetboxApiError {
    const detail = `GET ${url.href} answered ${status} ${describe(text)}`;
    const tries = attempt > 1 ? ` (after ${attempt} tries)` : '';
    if (status === 401 || status === 403) return new NetboxApiError('token', detail);
    if (status === 404) return new NetboxApiError('not-found', detail);
    if (status >= 300 && status < 400) return new NetboxApiError('redirect', `${detail} to ${location ?? '?'}`);
    return new NetboxApiError('http', detail + tries);
  }
}

/** The start of a body, on one line, for an error message. */
function describe(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one ? `'${one.length > 160 ? `${one.slice(0, 160)}…` : one}'` : '(an empty body)';
}

function asPage(body: unknown, url: string): Page {
  const page = body as Partial<Page> | null;
  if (!page || typeof page !== 'object' || !Array.isArray(page.results) || typeof page.count !== 'number')
    throw new NetboxApiError('not-netbox', `GET ${url} answered no NetBox page (count, next, results)`);
  return { count: page.count, next: page.next ?? null, results: page.results };
}
