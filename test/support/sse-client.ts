// A Server-Sent Events reader for tests: opens a stream with fetch and parses what arrives into
// events and comments (the server writes `\n` line ends only); and a raw client that stops reading.
import { execFile } from 'node:child_process';
import type { Server } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
export interface SseEvent {
  readonly event: string;
  readonly id: string | null;
  readonly data: string;
}

export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  ended = false;
  private buffer = '';
  private wake: (() => void) | null = null;
  private constructor(private readonly ac: AbortController) {}

  /** Open `path`; the status, and a client reading the stream when it is 200. */
  static async open(
    url: string,
    path: string,
    key: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; client: SseClient; body: unknown }> {
    const ac = new AbortController();
    const res = await fetch(url + path, {
      headers: { Authorization: `Token ${key}`, Accept: 'text/event-stream', ...headers },
      signal: ac.signal,
    });
    const client = new SseClient(ac);
    if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/event-stream')) {
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* text */
      }
      return { status: res.status, client, body };
    }
    client.read(res.body!);
    return { status: res.status, client, body: null };
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const dec = new TextDecoder();
    try {
      for await (const part of body) {
        this.buffer += dec.decode(part, { stream: true });
        this.parse();
      }
    } catch {
      /* aborted */
    }
    this.ended = true;
    this.wake?.();
  }

  private parse(): void {
    let at: number;
    while ((at = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, at);
      this.buffer = this.buffer.slice(at + 2);
      let event = 'message',
        id: string | null = null;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) {
          this.comments.push(line.slice(1).trim());
          continue;
        }
        const i = line.indexOf(':');
        const [name, value] = i < 0 ? [line, ''] : [line.slice(0, i), line.slice(i + 1).replace(/^ /, '')];
        if (name === 'event') event = value;
        else if (name === 'id') id = value;
        else if (name === 'data') data.push(value);
      }
      if (data.length) this.events.push({ event, id, data: data.join('\n') });
    }
    this.wake?.();
  }

  /** Resolves once `done()` holds (checked at each arrival), or rejects after `ms`. */
  async until(done: (c: SseClient) => boolean, ms = 10000, what = 'events'): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done(this)) {
      if (this.ended)
        throw new Error(`stream ended before ${what}: ${JSON.stringify(this.events.map((e) => [e.event, e.id]))}`);
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`timed out waiting for ${what}: ${JSON.stringify(this.events.map((e) => [e.event, e.id]))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  }

  /** The data of the events so far, parsed. */
  data(type?: string): Record<string, any>[] {
    return this.events.filter((e) => !type || e.event === type).map((e) => JSON.parse(e.data));
  }

  close(): void {
    this.ac.abort();
  }
}

/**
 * A client that sends its request and then never reads (a real socket: the kernel's buffers fill
 * as they would for a stalled client), with what the server holds for it: the server's socket's
 * own unsent bytes plus the kernel's send queue for it (`ss`'s Send-Q), and a way to read
 * everything later (the body of a chunked answer, once its last chunk arrived).
 */
export class StalledClient {
  private constructor(
    readonly socket: Socket,
    readonly serverSide: Socket,
    private readonly port: number,
  ) {}

  static async open(server: Server, path: string, key: string): Promise<StalledClient> {
    const { port } = server.address() as AddressInfo;
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const serverSide = await accepted;
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token ${key}\r\n\r\n`);
    return new StalledClient(socket, serverSide, port);
  }

  /** The kernel's send queue of the server's side of this connection (bytes sent the client has not acknowledged). */
  async kernelQueued(): Promise<number> {
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        'ss',
        ['-Htn', 'src', `127.0.0.1:${this.port}`, 'dst', `127.0.0.1:${this.socket.localPort}`],
        (e, stdout) => (e ? reject(e) : resolve(stdout)),
      ),
    );
    const cols = out.trim().split(/\s+/);
    return cols.length >= 3 ? Number(cols[2]) : 0; // State Recv-Q Send-Q Local Peer; gone: nothing
  }

  /** What the server holds for this client: unsent in its process and in the kernel. */
  async held(): Promise<number> {
    return (this.serverSide.destroyed ? 0 : this.serverSide.writableLength) + (await this.kernelQueued());
  }

  /** Read from now on until the chunked answer ends; its body. */
  readAll(ms = 10000): Promise<string> {
    const raw: Buffer[] = [];
    return new Promise<string>((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`the response did not end (${Buffer.concat(raw).length} bytes read)`)),
        ms,
      );
      const check = () => {
        const text = dechunk(Buffer.concat(raw));
        if (text !== null) {
          clearTimeout(t);
          resolve(text);
        }
      };
      this.socket.on('data', (d: Buffer) => {
        raw.push(d);
        check();
      });
      this.socket.on('close', check);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

/** The body of a chunked HTTP/1.1 response once its last chunk arrived, else null. */
export function dechunk(raw: Buffer): string | null {
  let at = raw.indexOf('\r\n\r\n');
  if (at < 0) return null;
  at += 4;
  const parts: Buffer[] = [];
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    if (eol < 0) return null;
    const size = parseInt(raw.subarray(at, eol).toString(), 16);
    if (size === 0) return Buffer.concat(parts).toString();
    if (raw.length < eol + 2 + size + 2) return null;
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}
