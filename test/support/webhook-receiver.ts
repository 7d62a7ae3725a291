// A webhook receiver on 127.0.0.1 for tests: records every request (method, path, headers, raw
// body) and answers what it is told to (200 by default, a status, after a delay); it can be stopped
// and started again on the same port (a receiver that is down for a while). `silent` makes it take
// requests and never answer (a receiver that hangs); `act` runs before each answer (a receiver
// that writes back into the server).
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

export class Receiver {
  readonly got: Received[] = [];
  /** Status answered, by path prefix ('' for all). */
  status = 200;
  /** When set, the status answered to each request (else `status`). */
  answer: ((r: Received) => number) | null = null;
  delayMs = 0;
  /** Takes each request and never answers it (until stopped). */
  silent = false;
  /** Awaited before each answer (its failure is ignored: the answer goes anyway). */
  act: ((r: Received) => Promise<unknown>) | null = null;
  private server: Server | null = null;
  port = 0;

  /** With `tls` (a key and certificate in PEM), an https:// receiver. */
  constructor(private readonly tls?: { readonly key: string; readonly cert: string }) {}

  async start(port = this.port): Promise<this> {
    const handle = (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const got: Received = {
          method: req.method!,
          path: req.url!,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        this.got.push(got);
        if (this.silent) return;
        const status = this.answer ? this.answer(got) : this.status;
        const reply = () =>
          setTimeout(() => {
            res.writeHead(status, { 'Content-Type': 'text/plain' });
            res.end(`answer ${status}`);
          }, this.delayMs);
        if (this.act)
          this.act(got)
            .catch(() => undefined)
            .finally(reply);
        else reply();
      });
    };
    const s: Server = this.tls ? createTlsServer(this.tls, handle) : createServer(handle);
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = s;
    this.port = (s.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  }

  url(path = '/hook'): string {
    return `${this.tls ? 'https' : 'http'}://127.0.0.1:${this.port}${path}`;
  }

  /** Requests to a path, in arrival order, bodies parsed. */
  bodies(path: string): Record<string, any>[] {
    return this.got.filter((r) => r.path === path).map((r) => JSON.parse(r.body));
  }
}

/** Polls `fn` until it returns true (or throws the last failure after `ms`). */
export async function eventually(fn: () => boolean | Promise<boolean>, ms = 20000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
