// Writing a Server-Sent Events response with a bound on what waits for a slow client: text is
// written while less than `maxBufferBytes` is unsent (in the response and its socket); past it the
// client has `drainTimeoutMs` to take it all, or it gets a final `event: dropped` and the stream
// ends. What the process holds for one stream is thus at most the bound plus one chunk.
import type { Response } from 'express';

export interface SseOutOptions {
  readonly maxBufferBytes: number;
  readonly drainTimeoutMs: number;
  /** Aborted when the client went away or the server closes: writes stop. */
  readonly signal: AbortSignal;
}

/** One event: its type, its id when it has one, its data as JSON on one line. */
export function sseEvent(type: string, data: unknown, id?: number): string {
  return `event: ${type}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/** The final event of a stream ended by the server: where it got to, and why. */
export const dropped = (lastSeq: number, reason: 'slow_client' | 'read_failed' | 'unauthorized', detail: string): string =>
  sseEvent('dropped', { last_seq: lastSeq, reason, detail });

/** After the final event, what is still unsent has this long to leave before the connection is cut. */
const GRACE_MS = 5000;

export class SseOut {
  /** The seq of the last event written (what a `dropped` event reports). */
  lastSeq = 0;
  private over = false;
  private waiting = false;

  constructor(private readonly res: Response, private readonly opts: SseOutOptions) {}

  /** Write `text`, whose last event has `seq`; false once the stream is over (client gone, or dropped). */
  async write(text: string, seq: number): Promise<boolean> {
    if (this.over || this.opts.signal.aborted) return false;
    if (this.res.writableLength >= this.opts.maxBufferBytes && this.res.writableNeedDrain && !(await this.drained())) return false;
    this.res.write(text);
    this.lastSeq = seq;
    return true;
  }

  /** A comment line (keep-alive): skipped while the client is behind, since then nothing is idle. */
  comment(text: string): void {
    if (this.over || this.waiting || this.opts.signal.aborted || this.res.writableNeedDrain) return;
    this.res.write(`: ${text}\n\n`);
  }

  /** End the stream with `text` (a final event); `now`: cut the connection once it is written. */
  end(text: string, now = false): void {
    if (this.over) return;
    this.over = true;
    if (this.res.writableEnded || this.res.destroyed) return;
    const cut = setTimeout(() => this.res.destroy(), GRACE_MS).unref();
    this.res.once('close', () => clearTimeout(cut));
    const socket = this.res.socket; // detached from the response once it finishes
    this.res.end(text, () => { if (now) socket?.destroy(); });
  }

  /** Wait for the client to take what is buffered; past the time bound it is dropped. */
  private async drained(): Promise<boolean> {
    this.waiting = true;
    const got = await new Promise<'drain' | 'timeout' | 'gone'>((resolve) => {
      const done = (how: 'drain' | 'timeout' | 'gone') => {
        clearTimeout(timer);
        this.res.off('drain', onDrain);
        this.res.off('close', onGone);
        this.opts.signal.removeEventListener('abort', onGone);
        resolve(how);
      };
      const onDrain = () => done('drain');
      const onGone = () => done('gone');
      const timer = setTimeout(() => done('timeout'), this.opts.drainTimeoutMs);
      this.res.on('drain', onDrain);
      this.res.on('close', onGone);
      this.opts.signal.addEventListener('abort', onGone);
    });
    this.waiting = false;
    if (got === 'timeout') {
      const waited = `${this.res.writableLength} bytes waited for the client longer than ${this.opts.drainTimeoutMs} ms`;
      this.end(dropped(this.lastSeq, 'slow_client', `${waited} (STREAM_DRAIN_TIMEOUT_MS); reconnect with Last-Event-ID.`));
    }
    return got === 'drain';
  }
}
