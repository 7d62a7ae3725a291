// Writing a Server-Sent Events response with a bound on what waits for a slow client, counted where
// it really waits: in the process (the response's unsent bytes) and in the kernel (the socket's
// send queue, kernel-send-queue.ts; Linux grows it to megabytes for a client that stops reading).
// A write that would take a stream past `maxBufferBytes` waits for the client to take enough; a
// client that takes nothing for `drainTimeoutMs` while bytes wait for it gets a final
// `event: dropped` and the stream ends. A timer checks that (not the next write), so a client that
// stops reading after the last event of a burst is dropped as well.
import type { Socket } from 'node:net';
import type { Response } from 'express';
import { procKey, readSendQueues } from './kernel-send-queue.js';

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
export const dropped = (
  lastSeq: number,
  reason: 'slow_client' | 'read_failed' | 'unauthorized',
  detail: string,
): string => sseEvent('dropped', { last_seq: lastSeq, reason, detail });

/** After the final event, what is still unsent has this long to leave before the connection is reset. */
const GRACE_MS = 5000;
/**
 * How often the kernel's queues are read while any stream has bytes its client may not have taken (for the time bound).
 */
const WATCH_MS = 250;
/**
 * While no client takes anything, the watch reads ever less often (doubling), at least every tenth
 * of the drain timeout: 500 stalled clients then cost a read a second, not four, until dropped.
 */
const WATCH_SHARE_OF_DRAIN = 10;
/** Reads are at least this far apart, and nine times as far as the last one took: at most a tenth of the event loop. */
const MIN_GAP_MS = 20;

/**
 * The streams whose clients may not have taken everything yet, looked at together: one read of
 * the kernel's queues serves them all. A read is asked for by a stream that found no room (soon),
 * by one whose client took some at the last read and still wants room, and by the watch; reads
 * never overlap and are spaced by what they cost.
 */
class Waiting {
  private readonly outs = new Set<SseOut>();
  private watch: NodeJS.Timeout | null = null;
  private watchMs = WATCH_MS;
  private soon: NodeJS.Timeout | null = null;
  private reading = false;
  private again = false;
  private nextAt = 0;
  /** Reads of the kernel's queues so far (for tests). */
  reads = 0;

  add(out: SseOut): void {
    this.outs.add(out);
    this.watchMs = WATCH_MS; // a stream starts to wait: look soon
    this.watch ??= setTimeout(() => this.watched(), this.watchMs);
  }

  delete(out: SseOut): void {
    this.outs.delete(out);
    if (!this.outs.size && this.watch) {
      clearTimeout(this.watch);
      this.watch = null;
    }
  }

  /** A read as soon as the spacing allows (one for every caller meanwhile). */
  ask(): void {
    if (this.reading) {
      this.again = true;
      return;
    }
    if (this.soon) return;
    this.soon = setTimeout(
      () => {
        this.soon = null;
        this.read();
      },
      Math.max(0, this.nextAt - performance.now()),
    );
  }

  private watched(): void {
    this.watch = null;
    this.ask();
  }

  private read(): void {
    if (!this.outs.size) return;
    this.reading = true;
    this.reads++;
    const started = performance.now();
    // What each stream had written before the read: the read counts at least what was handed to the kernel by then.
    const outs = [...this.outs];
    const before = outs.map((o) => o.mark());
    let queues: Map<string, number> | null = null;
    try {
      queues = readSendQueues();
    } catch {
      /* unknown: the process's bytes alone count */
    }
    const now = performance.now();
    this.nextAt = now + Math.max(MIN_GAP_MS, 9 * (now - started));
    this.reading = false;
    let progress = false,
      slowest = Infinity;
    outs.forEach((o, i) => {
      if (o.observe(queues, before[i], now)) progress = true;
      slowest = Math.min(slowest, o.drainTimeoutMs);
    });
    this.watchMs = progress ? WATCH_MS : Math.min(2 * this.watchMs, Math.max(WATCH_MS, slowest / WATCH_SHARE_OF_DRAIN));
    if (this.outs.size) {
      if (this.watch) clearTimeout(this.watch);
      this.watch = setTimeout(() => this.watched(), this.watchMs);
    }
    if (this.again) {
      this.again = false;
      this.ask();
    }
  }
}

/** Every stream of the process waits here (exported for tests: its count of reads). */
export const waiting = new Waiting();

export class SseOut {
  /** The seq of the last event written (what a `dropped` event reports). */
  lastSeq = 0;
  private over = false;
  private readonly socket: Socket | null;
  private readonly key: string | null;
  /** Unsent bytes (process + kernel) when last looked at, and the socket's bytesWritten then. */
  private seen = { held: 0, written: 0 };
  /** Bytes the client has taken (acknowledged), and when that last grew. */
  private taken = 0;
  private progressAt = 0;
  private pending = false;
  /** A write waiting for room: how much it needs, and its answer. */
  private wanting: { need: number; resolve: (ok: boolean) => void } | null = null;

  constructor(
    private readonly res: Response,
    private readonly opts: SseOutOptions,
  ) {
    this.socket = res.socket;
    this.key = this.socket ? procKey(this.socket) : null;
    this.seen = { held: 0, written: this.socket?.bytesWritten ?? 0 };
    const gone = () => this.leave(false);
    res.once('close', gone);
    opts.signal.addEventListener('abort', gone, { once: true });
  }

  /**
   * Write `text`, whose last event has `seq`; false once the stream is over (client gone, or
   * dropped). Events go as bytes shared by every stream (a string would be encoded per stream, and
   * counted again each time the socket's unsent bytes are).
   */
  async write(text: string | Buffer, seq: number): Promise<boolean> {
    if (this.over || this.opts.signal.aborted) return false;
    const need = typeof text === 'string' ? Buffer.byteLength(text) : text.length;
    if (!this.fits(need)) {
      if (!(await this.room(need))) return false;
      if (this.over || this.opts.signal.aborted) return false;
    }
    this.put(text);
    this.lastSeq = seq;
    return true;
  }

  /** A comment line (keep-alive): skipped while the client has anything left to take, since then nothing is idle. */
  comment(text: string): void {
    if (this.over || this.wanting || this.opts.signal.aborted || this.res.writableNeedDrain) return;
    this.put(`: ${text}\n\n`);
  }

  /** End the stream with `text` (a final event); `now`: cut the connection once it is written. */
  end(text: string, now = false): void {
    if (this.over) return;
    this.over = true;
    this.leave(false);
    if (this.res.writableEnded || this.res.destroyed) return;
    const socket = this.socket; // detached from the response once it finishes
    // A reset, not a close: a closed socket keeps its unsent bytes in the kernel for as long as the
    // client keeps its window shut; a reset frees them at once.
    const cut = setTimeout(() => {
      if (socket && !socket.destroyed) socket.resetAndDestroy();
      else this.res.destroy();
    }, GRACE_MS).unref();
    this.res.once('close', () => clearTimeout(cut));
    socket?.once('close', () => clearTimeout(cut));
    this.res.end(text, () => {
      if (now) socket?.destroy();
    });
  }

  /** Before a read of the kernel's queues: the socket's bytes written, and those not yet handed to the kernel. */
  mark(): { written: number; unsent: number } {
    return { written: this.socket?.bytesWritten ?? 0, unsent: this.socket?.writableLength ?? 0 };
  }

  get drainTimeoutMs(): number {
    return this.opts.drainTimeoutMs;
  }

  /**
   * Called by the waiting set after a read of every socket's kernel queue (null: unknown, the
   * process's bytes alone count), with what this stream had written before it. True when the client
   * took some since the last read.
   */
  observe(queues: Map<string, number> | null, before: { written: number; unsent: number }, now: number): boolean {
    if (!this.socket || this.socket.destroyed) {
      this.leave(false);
      return false;
    }
    // Bytes handed to the kernel before the read are in its queue or taken; later ones are counted whole.
    const held = (queues && this.key ? (queues.get(this.key) ?? 0) : 0) + before.unsent;
    this.seen = { held, written: before.written };
    const taken = before.written - held;
    const progress = taken > this.taken;
    if (progress) {
      this.taken = taken;
      this.progressAt = now;
    }
    const heldNow = this.held();
    if (heldNow === 0) {
      this.leave(true);
      return progress;
    }
    if (this.wanting && heldNow + this.wanting.need <= this.opts.maxBufferBytes) {
      this.answer(true);
      return progress;
    }
    if (now - this.progressAt >= this.opts.drainTimeoutMs) {
      const detail =
        `${heldNow} bytes waited for the client, which took none of them for ${this.opts.drainTimeoutMs} ms ` +
        `(STREAM_DRAIN_TIMEOUT_MS); reconnect with Last-Event-ID.`;
      this.end(dropped(this.lastSeq, 'slow_client', detail));
    } else if (this.wanting && progress) waiting.ask(); // the client reads: look again soon; else the watch looks
    return progress;
  }

  /** Unsent bytes now, at most: what was unsent when last looked at, plus what was written since. */
  private held(): number {
    return this.seen.held + ((this.socket?.bytesWritten ?? 0) - this.seen.written);
  }

  private fits(need: number): boolean {
    const held = this.held();
    return held === 0 || held + need <= this.opts.maxBufferBytes;
  }

  private put(text: string | Buffer): void {
    this.res.write(text);
    if (!this.pending) {
      // The time bound runs from when bytes start to wait for the client.
      this.pending = true;
      this.progressAt = performance.now();
      waiting.add(this);
    }
  }

  /** Resolves true once `need` more bytes fit, false when the stream ends first (dropped, or the client gone). */
  private room(need: number): Promise<boolean> {
    const got = new Promise<boolean>((resolve) => {
      this.wanting = { need, resolve };
    });
    waiting.ask();
    return got;
  }

  private answer(ok: boolean): void {
    const w = this.wanting;
    this.wanting = null;
    w?.resolve(ok);
  }

  /** Nothing is waiting any more (`drained`), or the stream is over: out of the waiting set. */
  private leave(drained: boolean): void {
    if (this.pending) {
      this.pending = false;
      waiting.delete(this);
    }
    this.answer(drained && !this.over);
  }
}
