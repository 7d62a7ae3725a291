// API calls with the token kept in localStorage (the same key /docs reads to pre-authorize).
const TOKEN_KEY = 'netinv.token';

export function getToken(): string {
  try {
    return localStorage.getItem(TOKEN_KEY) ?? '';
  } catch {
    return '';
  }
}

export function setToken(value: string): void {
  try {
    if (value) localStorage.setItem(TOKEN_KEY, value);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    /* storage disabled: the token lasts for this page only */
  }
}

export function authHeader(token = getToken()): string {
  return /^(Token|Bearer)\s/i.test(token) ? token : `Token ${token}`;
}

/** The Authorization header of the saved token, or none. */
export function tokenHeaders(): Record<string, string> {
  const token = getToken();
  return token ? { Authorization: authHeader(token) } : {};
}

export interface ApiResult<T = any> {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly body: T;
  readonly text: string;
  readonly ms: number;
}

export interface RequestOptions {
  /** JSON (an object, or a string of it), or a Blob sent as it is with its `Content-Type` header given. */
  body?: unknown;
  headers?: Record<string, string>;
  auth?: boolean;
}

/** One request; never throws for HTTP errors, network failures give status 0. */
export async function request<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResult<T>> {
  const h: Record<string, string> = {
    Accept: 'application/json, image/svg+xml;q=0.9, */*;q=0.5',
    ...(opts.headers ?? {}),
  };
  if (opts.auth ?? true) Object.assign(h, tokenHeaders());
  let payload: string | Blob | undefined;
  if (opts.body !== undefined) {
    h['Content-Type'] ??= 'application/json';
    payload = typeof opts.body === 'string' || opts.body instanceof Blob ? opts.body : JSON.stringify(opts.body);
  }
  const t0 = performance.now();
  let res: Response;
  try {
    res = await fetch(path, { method, headers: h, body: payload });
  } catch (e) {
    return {
      ok: false,
      status: 0,
      statusText: 'network error',
      headers: new Headers(),
      body: { detail: String(e) } as T,
      text: String(e),
      ms: 0,
    };
  }
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      /* keep the text */
    }
  }
  return {
    ok: res.ok,
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
    body: parsed as T,
    text,
    ms: Math.round(performance.now() - t0),
  };
}

/** The words of an error answer: its detail, else its per-parameter messages. */
export function errorText(r: ApiResult): string {
  const b = r.body;
  if (b && typeof b === 'object') {
    if (typeof b.detail === 'string')
      return `${r.status}: ${b.detail}${r.status === 401 ? ' Enter an API token at the top of the page.' : ''}`;
    return `${r.status}: ${Object.entries(b)
      .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(' ') : JSON.stringify(v)}`)
      .join('; ')}`;
  }
  return `${r.status}: ${r.text || r.statusText}`;
}

export class ApiError extends Error {
  constructor(readonly result: ApiResult) {
    super(errorText(result));
  }
}

/** GET that throws an ApiError carrying the API's words, for pages that cannot go on without it. */
export async function getJson<T = any>(path: string): Promise<T> {
  const r = await request<T>('GET', path);
  if (!r.ok) throw new ApiError(r);
  return r.body;
}

/** Every result of a list, page after page through its `next` links. */
export async function getAll<T = any>(path: string): Promise<T[]> {
  const out: T[] = [];
  for (let url: string | null = path; url;) {
    const page: { results: T[]; next: string | null } = await getJson(url);
    out.push(...page.results);
    url = page.next;
  }
  return out;
}

export const enc = encodeURIComponent;
