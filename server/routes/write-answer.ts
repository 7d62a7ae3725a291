// How an inventory write is answered: 2xx if and only if it committed. The answer of a committed
// write is built after the commit, and nothing there may turn it into an error: when building its
// full form fails (the database stops answering, a pool held by others), the rows as the write holds
// them are sent instead (serialize.ts heldForms), marked `X-Answer-Partial: true`.
// Idempotency-Key: a retry with the same key and body gets the first answer and writes nothing
// (app/write-keys.ts); the same key with another body is a 422.
import type { Request, Response } from 'express';
import type { ResourceDef } from '../../engine/schema/types.js';
import type { AppContext } from '../context.js';
import type { Row } from '../../storage/types.js';
import { KEY_TAKEN, type WriteResult } from '../../app/inventory.js';
import { MAX_KEY_LENGTH, type KeyedWrite } from '../../app/write-keys.js';
import { faultAt } from '../../storage/fault-points.js';
import { heldForms, serializeRows } from '../serialize.js';
import { sendRefused } from '../errors.js';
import { setEtag } from '../etag.js';
import type { Shape } from './list-params.js';
import { baseUrl } from './request-url.js';

/** How a write's answer is shaped: one object or a list, and the fields asked (`fields=` / `omit=` / `brief`). */
export interface AnswerShape {
  /** One object (a write on an object URL, or a POST of one object), not a list. */
  readonly single: boolean;
  readonly shape: Shape;
  /** The rows were created by this write (their counts from other resources are 0 without asking). */
  readonly created?: boolean;
}

/** The status of a committed write's answer, by method (a POST creates). */
const ANSWER_STATUS: Readonly<Record<string, number>> = { POST: 201, PUT: 200, PATCH: 200, DELETE: 204 };

/** The request's Idempotency-Key for this write: undefined without one; null once answered (a bad key, or a replay). */
export async function writeKey(
  ctx: AppContext,
  r: ResourceDef,
  req: Request,
  res: Response,
  as: AnswerShape,
): Promise<KeyedWrite | undefined | null> {
  const key = req.get('idempotency-key');
  if (key === undefined) return undefined;
  if (key.length < 1 || key.length > MAX_KEY_LENGTH) {
    res.status(400).json({
      detail: `Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters long.`,
      code: 'invalid_idempotency_key',
    });
    return null;
  }
  const k = ctx.inventory.keys.keyOf(
    req.principal?.tokenId ?? '',
    req.method,
    `${req.baseUrl}${req.path}`,
    key,
    req.body,
    ANSWER_STATUS[req.method] ?? 200,
  );
  return (await replayed(ctx, r, req, res, k, as)) ? null : k;
}

/** Answers a repeat of a keyed write from what its first request left; false when it has none. */
async function replayed(
  ctx: AppContext,
  r: ResourceDef,
  req: Request,
  res: Response,
  k: KeyedWrite,
  as: AnswerShape,
): Promise<boolean> {
  const got = await ctx.inventory.keys.replay(k);
  if (got.kind === 'none') return false;
  if (got.kind === 'other_body') {
    res
      .status(422)
      .json({ detail: 'This Idempotency-Key was used with a different request body.', code: 'idempotency_key_reused' });
    return true;
  }
  res.setHeader('Idempotent-Replayed', 'true');
  if (got.status === 204) {
    res.status(204).end();
    return true;
  }
  if (got.kind === 'answer') {
    res.status(got.status).json(got.body);
    return true;
  }
  // The first answer was not kept (its process stopped right after the commit): built again from the objects as
  // they are now.
  const rows = await ctx.inventory.storage.getMany(r.name, got.ids);
  const byId = new Map(rows.map((x) => [x.id, x]));
  await sendCommitted(
    ctx,
    r,
    req,
    res,
    got.status,
    got.ids.map((id) => byId.get(id)).filter((x): x is Row => !!x),
    as,
  );
  return true;
}

/**
 * Answers a write's outcome: its errors, or (committed) `status` with the rows written (null: no
 * body, a delete). With a key, the answer sent is kept for a retry.
 */
export async function answerWrite<T extends Row | Row[] | null>(
  ctx: AppContext,
  r: ResourceDef,
  req: Request,
  res: Response,
  out: WriteResult<T>,
  status: number,
  as: AnswerShape,
  key?: KeyedWrite,
): Promise<void> {
  if (!out.ok) {
    // Another request with this key committed while this one ran: its answer is this one's.
    if (
      key &&
      !Array.isArray(out.errors) &&
      (out.errors as { code?: string }).code === KEY_TAKEN &&
      (await replayed(ctx, r, req, res, key, as))
    )
      return;
    sendRefused(res, out);
    return;
  }
  const rows = out.value === null ? null : Array.isArray(out.value) ? (out.value as Row[]) : [out.value as Row];
  const body = await sendCommitted(ctx, r, req, res, status, rows, as);
  if (key)
    ctx.inventory.keys
      .remember(key, status, rows?.map((x) => x.id) ?? [], body)
      .catch((e) => ctx.log.warn(`Idempotency-Key answer not kept (a retry builds it again): ${(e as Error).message}`));
}

/** Sends a committed write's answer (never an error); the body sent. */
async function sendCommitted(
  ctx: AppContext,
  r: ResourceDef,
  req: Request,
  res: Response,
  status: number,
  rows: readonly Row[] | null,
  as: AnswerShape,
): Promise<unknown> {
  if (rows === null) {
    res.status(status).end();
    return null;
  }
  const base = baseUrl(req);
  let forms: Record<string, unknown>[];
  let held = false;
  try {
    const fault = faultAt('answer');
    if (fault) await fault;
    // A list answer is shaped as a list page: fields worked out per object (a prefix's parent and
    // children) only when `fields=` names them, so a batch of 1,000 costs no 2,000 queries.
    forms = await serializeRows(r, rows, {
      baseUrl: base,
      storage: ctx.storage,
      customFields: await ctx.inventory.customFieldsFor(r),
      brief: as.shape.brief,
      keep: as.shape.keep,
      listPage: !as.single,
      created: as.created,
    });
  } catch (e) {
    ctx.log.warn(
      `answer of a committed write on ${req.baseUrl} sent as the write holds it: ${(e as Error)?.message ?? String(e)}`,
    );
    forms = heldForms(r, rows, base, ctx.storage.ids);
    held = true;
  }
  if (held) res.setHeader('X-Answer-Partial', 'true');
  // A narrowed form has no tag of its own.
  else if (as.single && rows.length === 1 && !as.shape.brief && !as.shape.keep) setEtag(res, rows[0]);
  const body = as.single ? forms[0] : forms;
  res.status(status).json(body);
  return body;
}
