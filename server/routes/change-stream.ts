// The change log as Server-Sent Events: GET /api/extras/object-changes/stream (also under
// /api/core/). Each record is an event whose `id:` is its seq, sent in seq order: `event: change`
// with the record as the list shows it, or `event: entity.transition` for an entity's move. A client
// resumes with `Last-Event-ID` (or `?since=`, exclusive); the list's filters narrow what is sent.
// A slow client is never buffered for without bound: at most STREAM_MAX_BUFFER_BYTES unsent (in the
// process and the kernel's send queue), and a client that takes none of it for
// STREAM_DRAIN_TIMEOUT_MS gets a final `event: dropped` and the stream ends (as it does, with
// another reason, when the log cannot be read).
import { setMaxListeners } from 'node:events';
import { Router, type Request, type Response } from 'express';
import { resource } from '../../engine/schema/registry.js';
import { and, cmp, type Plan } from '../../engine/plan/nodes.js';
import type { CustomFieldDef } from '../../engine/schema/types.js';
import type { Row } from '../../storage/types.js';
import type { ChangeFeed } from '../../storage/change-log/change-feed.js';
import type { Principal } from '../../app/principal.js';
import { authenticate, checkToken, permissionFor, refusal, requirePermission, tokenMatch } from '../auth.js';
import type { AppContext } from '../context.js';
import { serializeRows } from '../serialize.js';
import { baseUrl } from './request-url.js';
import { parseShape, type Shape } from './list-params.js';
import { dropped, sseEvent, SseOut } from '../sse-out.js';
import { recordScope, recordTypesPlan, visibleRecords, type RecordScope } from '../../app/change-scope.js';

const changes = resource('object_change');
/** Records read at a time (a page's records are in memory at once). */
const PAGE = 100;
/** Events are written in chunks of about this many bytes. */
const CHUNK_BYTES = 64 * 1024;
/** How long a browser's EventSource waits before it reconnects (the `retry:` field). */
const RETRY_MS = 2000;
const WHOLE = /^\d{1,15}$/;
const HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache',
  'X-Accel-Buffering': 'no',
};

export function changeStreamRouter(ctx: AppContext): Router {
  if (ctx.closing) setMaxListeners(0, ctx.closing); // one listener per open stream
  const router = Router();
  router.get('/stream', authenticate(ctx.tokens), requirePermission(permissionFor(changes, 'view')), (req, res) =>
    stream(ctx, req, res),
  );
  return router;
}

type Start = { ok: true; after: number | null } | { ok: false; errors: Record<string, string[]> };

/**
 * Where the stream starts: after `Last-Event-ID` (a reconnect), else after `since`; null: from now.
 * A seq beyond the newest record is refused, naming the newest: such a stream would wait in
 * silence for numbers this log has not given (a client of another store, or of one restored from
 * an older backup), then skip what it took for already seen.
 */
async function startOf(
  req: Request,
  pairs: readonly [string, string][],
  newest: () => Promise<number>,
): Promise<Start> {
  const header = req.get('last-event-id')?.trim();
  const since = pairs
    .filter(([k]) => k === 'since')
    .map(([, v]) => v.trim())
    .filter(Boolean)
    .pop();
  const [name, value] = header ? ['Last-Event-ID', header] : since !== undefined ? ['since', since] : [null, null];
  if (name === null || value === null) return { ok: true, after: null };
  if (!WHOLE.test(value)) return { ok: false, errors: { [name]: [`"${value}" is not a seq (a whole number).`] } };
  const head = await newest();
  if (Number(value) > head)
    return { ok: false, errors: { [name]: [`${value} is beyond the newest record: the newest seq is ${head}.`] } };
  return { ok: true, after: Number(value) };
}

function queryPairs(req: Request): [string, string][] {
  const i = req.originalUrl.indexOf('?');
  return i < 0 ? [] : [...new URLSearchParams(req.originalUrl.slice(i + 1))];
}

/** The stream's start and filters, or null after answering 400 (a bad `since`, filter or shape). */
async function streamRequest(ctx: AppContext, req: Request, res: Response) {
  const pairs = queryPairs(req);
  const start = await startOf(req, pairs, () => ctx.changes.current());
  if (!start.ok) {
    res.status(400).json(start.errors);
    return null;
  }
  const customFields = await ctx.inventory.customFieldsFor(changes);
  // `since` is the stream's own parameter, never a filter; the rest is planned as the list plans it.
  const planned = ctx.planCache.get(
    changes,
    pairs.filter(([k]) => k !== 'since'),
    { strict: ctx.config.strictFiltering, customFields, ids: ctx.storage.ids },
  );
  if (Object.keys(planned.errors).length) {
    res.status(400).json(planned.errors);
    return null;
  }
  const shaped = parseShape(changes, planned.control);
  if (!shaped.ok) {
    res.status(400).json(shaped.errors);
    return null;
  }
  if (planned.ignored.length)
    ctx.log.warn(`ignored unknown filter parameters on ${req.baseUrl}/stream: ${planned.ignored.join(', ')}`);
  return { start, customFields, planned, shaped };
}

async function stream(ctx: AppContext, req: Request, res: Response): Promise<void> {
  const asked = await streamRequest(ctx, req, res);
  if (!asked) return;
  const { start, customFields, planned, shaped } = asked;
  // HEAD: the headers only, no stream held open for nobody.
  if (req.method === 'HEAD') {
    res.status(200).set(HEADERS).end();
    return;
  }
  const after = start.after ?? (await ctx.changes.current());
  const stop = new AbortController(); // the client went away, or the server closes
  const end = () => stop.abort();
  res.on('close', end);
  ctx.closing?.addEventListener('abort', end);
  if (ctx.closing?.aborted) end();
  res.status(200).set(HEADERS);
  res.flushHeaders();
  const out = new SseOut(res, {
    maxBufferBytes: ctx.config.streamMaxBufferBytes,
    drainTimeoutMs: ctx.config.streamDrainTimeoutMs,
    signal: stop.signal,
  });
  const base = baseUrl(req);
  const shape = `${shaped.shape.brief ? 'b' : ''}${shaped.shape.keep ? [...shaped.shape.keep].join(',') : '*'}`;
  // Only records of objects the token may view (issue #39), as its permissions are now.
  let principal = req.principal!;
  const followOf = async (p: Principal): Promise<Follow> => {
    const records = recordScope(p, await ctx.inventory.customFields(), ctx.storage.ids);
    const view = records.all ? '' : `|${scopeIds.get(records) ?? scopeIds.set(records, scopeCount++).get(records)}`;
    return {
      plan: records.all ? planned.plan : and([planned.plan, recordTypesPlan(records)]),
      shape: shaped.shape,
      base,
      customFields,
      records,
      pageKey: `${shape}|${base}|${JSON.stringify(customFields)}${view}`,
    };
  };
  let follow = await followOf(principal);
  // With each keep-alive the token is checked again: a revoked token, or one that lost the permission, ends the
  // stream; one whose permissions changed is followed with them from the next page on.
  const recheck = tokenCheck(ctx, req);
  const keepAlive = setInterval(() => {
    out.comment('keep-alive');
    void recheck()
      .then(async (who) => {
        if (who === undefined || stop.signal.aborted) return;
        if (who) {
          if (who !== principal) follow = await followOf((principal = who));
          return;
        }
        out.end(
          dropped(
            out.lastSeq,
            'unauthorized',
            `The token was revoked or no longer has ${permissionFor(changes, 'view')}.`,
          ),
        );
        end();
      })
      .catch(() => undefined); // the next keep-alive checks again
  }, ctx.config.streamKeepAliveMs);
  try {
    const gap = start.after === null ? null : await gapAfter(ctx.changes, after);
    const opening = `retry: ${RETRY_MS}\n: after seq ${after}\n\n${gap?.text ?? ''}`;
    // After a gap the stream goes on from the first record left (a page another stream read earlier may still hold
    // the deleted ones).
    if (await out.write(opening, after)) await followLog(ctx, out, () => follow, gap?.from ?? after, stop.signal);
  } catch (e) {
    if (!stop.signal.aborted) {
      ctx.log.warn(`event stream ended by an error: ${(e as Error).message}`);
      out.end(dropped(out.lastSeq, 'read_failed', 'The change log could not be read; reconnect with Last-Event-ID.'));
    }
  } finally {
    clearInterval(keepAlive);
    ctx.closing?.removeEventListener('abort', end);
    // The server closing: end the response and let its connection go (it would otherwise idle on).
    if (ctx.closing?.aborted) out.end('', true);
  }
}

/**
 * The request's token as it is now, if it still exists and may view the log; null if not; undefined when
 * nothing was learnt (no key, a check under way, or one that failed to run).
 */
function tokenCheck(ctx: AppContext, req: Request): () => Promise<Principal | null | undefined> {
  const hasKey = tokenMatch(req.headers.authorization) !== null;
  let checking = false;
  return async () => {
    if (!hasKey || checking) return undefined;
    checking = true;
    try {
      const who = await checkToken(ctx.tokens, req);
      return who.ok && !refusal(who.principal, permissionFor(changes, 'view')) ? who.principal : null;
    } catch {
      return undefined;
    } finally {
      checking = false;
    }
  };
}

/**
 * `event: gap` when records just after `after` are no longer in the log (retention deleted them
 * since the client last read): numbers are gap-free, so the first record left says what is gone.
 * With the seq to go on from (the one before that record).
 */
async function gapAfter(feed: ChangeFeed, after: number): Promise<{ text: string; from: number } | null> {
  const [first] = await feed.read(after, 1);
  const next = first?.seq as number | undefined;
  if (next === undefined || next === after + 1) return null;
  const detail =
    `Records ${after + 1} to ${next - 1} were deleted by the change log's retention before they were ` + `read.`;
  return { text: sseEvent('gap', { after, next_seq: next, missing: next - after - 1, detail }), from: next - 1 };
}

/** `pageKey`: what else than the plan and the place decides a page's bytes (its shape, base URL and custom fields). */
interface Follow {
  readonly plan: Plan;
  readonly shape: Shape;
  readonly base: string;
  readonly customFields: readonly CustomFieldDef[];
  /** Which records the token may see. */
  readonly records: RecordScope;
  readonly pageKey: string;
}

/** Send every record after `after` that the plan keeps, then wait for more, until the stream is over. */
async function followLog(
  ctx: AppContext,
  out: SseOut,
  f: () => Follow,
  after: number,
  signal: AbortSignal,
): Promise<void> {
  let scanned = after; // every record up to here has been looked at
  let head = await ctx.changes.current(); // every record up to here is committed
  while (!signal.aborted) {
    while (scanned < head) {
      const page = await pageShared(ctx, f(), scanned, head);
      if (signal.aborted) return;
      if (!(await sendPage(out, page))) return;
      scanned = page.read < PAGE ? page.head : page.last;
    }
    head = Math.max(head, (await ctx.changes.waitAfter(scanned, signal)) ?? head);
  }
}

/**
 * A page of records as events: their seqs, and their bytes in chunks of about CHUNK_BYTES, each
 * with the seq of its last event. The bytes are made once and shared by every stream that sends the
 * page: each stream hands the same buffers to its socket (no copy, no encoding of its own), so a
 * stream costs a write per chunk, and nothing per event.
 */
interface Page {
  readonly seqs: readonly number[];
  /** How many records were read, and the last one's seq (those the token may not see are read, not sent). */
  readonly read: number;
  readonly last: number;
  readonly chunks: readonly Chunk[];
  /** Read up to this seq (committed). */ readonly head: number;
}
interface Chunk {
  readonly bytes: Buffer;
  readonly seq: number;
}

const planIds = new WeakMap<Plan, number>();
/** A constrained token's record scope, numbered for the page key (its pages are its own). */
const scopeIds = new WeakMap<RecordScope, number>();
let scopeCount = 0;
let planCount = 0;
/** Pages kept once read, most recently used last: for streams that follow others a little behind. */
const KEPT_PAGES = 16;
const kept = new WeakMap<ChangeFeed, Map<string, Promise<Page>>>();

/**
 * A page of records after `after` that the plan keeps, as events, read up to `head` (or beyond:
 * to where the read this one shares went). Bounded by head, a narrow filter reads what committed
 * so far once, not the whole tail again. Streams that follow the same filter in the same shape from
 * the same place share one read and one serialization (the plan cache hands them the same plan),
 * whenever each gets there: every live one woken by the same commit, and those a little behind
 * (a slow client given room again), from the last KEPT_PAGES pages. 500 streams cost about what
 * one does.
 */
function pageShared(ctx: AppContext, f: Follow, after: number, head: number): Promise<Page> {
  let id = planIds.get(f.plan);
  if (id === undefined) planIds.set(f.plan, (id = planCount++));
  let pages = kept.get(ctx.changes);
  if (!pages) kept.set(ctx.changes, (pages = new Map()));
  const key = `${id}|${after}|${f.pageKey}`;
  let got = pages.get(key);
  if (got) pages.delete(key);
  else {
    const read = (got = readPage(ctx, f, after, head));
    read.catch(() => {
      if (pages!.get(key) === read) pages!.delete(key);
    }); // a failed read is not kept
  }
  pages.set(key, got);
  if (pages.size > KEPT_PAGES) pages.delete(pages.keys().next().value!);
  return got;
}

async function readPage(ctx: AppContext, f: Follow, after: number, head: number): Promise<Page> {
  const read = await ctx.changes.read(after, PAGE, and([f.plan, cmp('seq', 'number', 'lte', false, [head])]));
  const rows = await visibleRecords(ctx.storage, f.records, read);
  const { brief, keep } = f.shape;
  const bodies = await serializeRows(changes, rows, {
    baseUrl: f.base,
    storage: ctx.storage,
    customFields: f.customFields,
    brief,
    keep,
  });
  const seqs = rows.map((r) => r.seq as number);
  return {
    seqs,
    read: read.length,
    last: read.length ? (read[read.length - 1].seq as number) : after,
    chunks: chunked(
      rows.map((r, i) => eventText(r, bodies[i], seqs[i])),
      seqs,
    ),
    head,
  };
}

/** Events joined into chunks of at least CHUNK_BYTES (the last one shorter), as bytes. */
function chunked(texts: readonly string[], seqs: readonly number[]): Chunk[] {
  const out: Chunk[] = [];
  let from = 0,
    length = 0;
  for (let i = 0; i < texts.length; i++) {
    length += texts[i].length;
    if (length >= CHUNK_BYTES || i === texts.length - 1) {
      out.push({ bytes: Buffer.from(texts.slice(from, i + 1).join(''), 'utf8'), seq: seqs[i] });
      from = i + 1;
      length = 0;
    }
  }
  return out;
}

/** Write a page's chunks; false once the stream is over. */
async function sendPage(out: SseOut, page: Page): Promise<boolean> {
  for (const c of page.chunks) if (!(await out.write(c.bytes, c.seq))) return false;
  return true;
}

/** One record as an SSE event: `entity.transition` for an entity moved by a trigger, else `change`. */
export function eventText(row: Row, body: Record<string, unknown>, seq: number): string {
  const t = transitionEvent(row);
  return t ? sseEvent('entity.transition', t, seq) : sseEvent('change', body, seq);
}

/** The data of an entity.transition event, or null when the record is not one. */
export function transitionEvent(row: Row): Record<string, unknown> | null {
  const after = row.object_data as Record<string, unknown> | null;
  if (row.changed_object_type !== 'lifecycle.entity' || !after || typeof after.trigger !== 'string') return null;
  const before = row.prechange_data as Record<string, unknown> | null;
  return {
    seq: row.seq,
    change_id: row.id,
    time: row.time,
    user_name: row.user_name,
    request_id: row.request_id,
    entity_id: after.entity_id,
    machine: after.machine_name,
    machine_version: after.machine_version,
    from: before?.state ?? null,
    to: after.state,
    trigger: after.trigger,
    version: after.version,
  };
}
