// Starts the real server on a free port with real sockets; requests go through fetch.
import { DEFAULTS, type Config } from '../../server/config/defaults.js';
import { start, type Running } from '../../server/start.js';

export const ADMIN_KEY = 'admin-key-0123456789';
export const quietLogger = { info: () => {}, warn: () => {}, error: (m: string) => console.error(m) };

export interface TestServer {
  readonly running: Running;
  readonly url: string;
  req(
    method: string,
    path: string,
    body?: unknown,
    key?: string | null,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

export async function startServer(over: Partial<Config> = {}): Promise<TestServer> {
  const config: Config = {
    ...DEFAULTS,
    port: 0,
    demoData: false,
    tokens: [{ key: ADMIN_KEY, permissions: ['*'] }],
    ...over,
  } as Config;
  const running = await start(config, quietLogger);
  const url = running.url;
  return {
    running,
    url,
    async req(method, path, body, key = ADMIN_KEY, headers = {}) {
      const h: Record<string, string> = { ...headers };
      if (key) h.Authorization = `Token ${key}`;
      let payload: string | undefined;
      if (body !== undefined) {
        h['Content-Type'] ??= 'application/json';
        payload = typeof body === 'string' ? body : JSON.stringify(body);
      }
      const res = await fetch(url + path, { method, headers: h, body: payload });
      // An event stream never ends by itself: its status and headers are the answer.
      if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
        await res.body?.cancel();
        return { status: res.status, body: null, headers: res.headers };
      }
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        /* keep text */
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    close: () => running.close(),
  };
}
