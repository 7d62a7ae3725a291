// A Server-Sent Events reader for tests: opens a stream with fetch and parses what arrives into
// events and comments (the server writes `\n` line ends only).
export interface SseEvent { readonly event: string; readonly id: string | null; readonly data: string }

export class SseClient {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  ended = false;
  private buffer = '';
  private wake: (() => void) | null = null;
  private constructor(private readonly ac: AbortController) {}

  /** Open `path`; the status, and a client reading the stream when it is 200. */
  static async open(url: string, path: string, key: string, headers: Record<string, string> = {}): Promise<{ status: number; client: SseClient; body: unknown }> {
    const ac = new AbortController();
    const res = await fetch(url + path, { headers: { Authorization: `Token ${key}`, Accept: 'text/event-stream', ...headers }, signal: ac.signal });
    const client = new SseClient(ac);
    if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/event-stream')) {
      const text = await res.text();
      let body: unknown = text;
      try { body = JSON.parse(text); } catch { /* text */ }
      return { status: res.status, client, body };
    }
    client.read(res.body!);
    return { status: res.status, client, body: null };
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const dec = new TextDecoder();
    try {
      for await (const part of body) { this.buffer += dec.decode(part, { stream: true }); this.parse(); }
    } catch { /* aborted */ }
    this.ended = true;
    this.wake?.();
  }

  private parse(): void {
    let at: number;
    while ((at = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, at);
      this.buffer = this.buffer.slice(at + 2);
      let event = 'message', id: string | null = null;
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) { this.comments.push(line.slice(1).trim()); continue; }
        const i = line.indexOf(':');
        const [name, value] = i < 0 ? [line, ''] : [line.slice(0, i), line.slice(i + 1).replace(/^ /, '')];
        if (name === 'event') event = value; else if (name === 'id') id = value; else if (name === 'data') data.push(value);
      }
      if (data.length) this.events.push({ event, id, data: data.join('\n') });
    }
    this.wake?.();
  }

  /** Resolves once `done()` holds (checked at each arrival), or rejects after `ms`. */
  async until(done: (c: SseClient) => boolean, ms = 10000, what = 'events'): Promise<void> {
    const deadline = Date.now() + ms;
    while (!done(this)) {
      if (this.ended) throw new Error(`stream ended before ${what}: ${JSON.stringify(this.events.map((e) => [e.event, e.id]))}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(this.events.map((e) => [e.event, e.id]))}`);
      await new Promise<void>((resolve) => { const t = setTimeout(resolve, left); this.wake = () => { clearTimeout(t); resolve(); }; });
    }
  }

  /** The data of the events so far, parsed. */
  data(type?: string): Record<string, any>[] {
    return this.events.filter((e) => !type || e.event === type).map((e) => JSON.parse(e.data));
  }

  close(): void { this.ac.abort(); }
}
