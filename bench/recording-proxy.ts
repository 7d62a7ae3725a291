// An HTTP proxy that keeps every answer it passes on (status, headers, body) by request target, and
// can then answer the same requests alone, with nothing behind it: a client run against the replay
// costs the client's own work only, which is how much of a run no server can take away. The Host
// header goes through unchanged, so links the server builds from it (`next`) point at the proxy.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface Kept {
  readonly status: number;
  readonly headers: http.OutgoingHttpHeaders;
  readonly body: Buffer;
}

/** Headers of a kept answer that no longer hold once the body is sent whole from memory. */
const DROPPED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date']);

export interface RecordingProxy {
  readonly url: string;
  /** From now on answer from what was kept; a request never seen gets a 502 and counts as missed. */
  replay(): void;
  readonly missed: string[];
  close(): Promise<void>;
}

export async function recordingProxy(target: string): Promise<RecordingProxy> {
  const to = new URL(target);
  const kept = new Map<string, Kept>();
  const missed: string[] = [];
  let replaying = false;
  const server = http.createServer((req, res) => {
    const key = `${req.method} ${req.url}`;
    if (replaying) {
      const k = kept.get(key);
      if (!k) {
        missed.push(key);
        res.writeHead(502).end();
        return;
      }
      res.writeHead(k.status, { ...k.headers, 'content-length': k.body.length }).end(k.body);
      return;
    }
    const up = http.request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          const headers = Object.fromEntries(Object.entries(answer.headers).filter(([h]) => !DROPPED.has(h)));
          kept.set(key, { status: answer.statusCode ?? 502, headers, body });
          res.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': body.length }).end(body);
        });
      },
    );
    up.on('error', () => res.writeHead(502).end());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    replay: () => {
      replaying = true;
    },
    missed,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
