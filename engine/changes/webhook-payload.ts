// What a webhook sends for one change record: which records it is for, the body (NetBox's and
// Nautobot's default, or the webhook's template), the headers and the signature. Pure: no I/O.
import { createHmac } from 'node:crypto';

type Rec = Readonly<Record<string, unknown>>;

const EVENT: Readonly<Record<string, string>> = { create: 'created', update: 'updated', delete: 'deleted' };
const TYPE_FLAG: Readonly<Record<string, string>> = {
  create: 'type_create',
  update: 'type_update',
  delete: 'type_delete',
};

/** Does the webhook want this change record (its content type and action)? */
export function wants(webhook: Rec, change: Rec): boolean {
  const flag = TYPE_FLAG[String(change.action)];
  return (
    !!flag &&
    webhook[flag] === true &&
    ((webhook.content_types as string[] | undefined) ?? []).includes(String(change.changed_object_type))
  );
}

/** One change of a webhook, from its change record: the webhook as it was before and after (null: it did not exist). */
export interface WebhookVersion {
  readonly seq: number;
  readonly before: Rec | null;
  readonly after: Rec | null;
}

/**
 * The webhook as it was when record `seq` was written, given its change records after the cursor
 * (seq order) and the row as it is now: after its last change before `seq`, else as it was before
 * its first change after `seq`, else as it is. null: it did not exist then (not yet made, or deleted).
 */
export function webhookAt(now: Rec | null, versions: readonly WebhookVersion[], seq: number): Rec | null {
  let last: WebhookVersion | undefined, next: WebhookVersion | undefined;
  for (const v of versions) {
    if (v.seq < seq) last = v;
    else if (!next) next = v;
  }
  return last ? last.after : next ? next.before : now;
}

/**
 * What a body template may name, and the default body: `event`, `timestamp`, `model`, `username`,
 * `request_id`, `data` (the object after the change; as it was, for a delete) and `snapshots`
 * (`prechange`, `postchange`), as NetBox and Nautobot send them, plus the record's `seq` and `change_id`.
 */
export function templateContext(change: Rec): Record<string, unknown> {
  const type = String(change.changed_object_type);
  const after = change.action === 'delete' ? null : (change.object_data ?? null);
  return {
    event: EVENT[String(change.action)] ?? String(change.action),
    timestamp: change.time,
    model: type.slice(type.indexOf('.') + 1),
    username: change.user_name,
    request_id: change.request_id,
    data: change.object_data ?? null,
    snapshots: { prechange: change.prechange_data ?? null, postchange: after },
    seq: change.seq,
    change_id: change.id,
  };
}

/** `a.b.c` in the context; undefined where the path leads nowhere. */
function lookup(ctx: unknown, path: string): unknown {
  let v: unknown = ctx;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, part)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\s*(\|\s*tojson\s*)?\}\}/g;

/**
 * A template with `{{ path }}` replaced: text as it is, anything else (numbers, objects, lists) as
 * JSON; `{{ path | tojson }}` always as JSON (a string quoted). A path that leads nowhere gives ''
 * (Jinja2's undefined). Nothing else of Jinja2: no statements, filters or expressions are run.
 */
export function renderTemplate(template: string, ctx: Rec): string {
  return template.replace(PLACEHOLDER, (_m, path: string, json?: string) => {
    const v = lookup(ctx, path);
    if (v === undefined) return '';
    if (json) return JSON.stringify(v);
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
}

/** The body sent for a change record: the template rendered, or the default body as JSON. */
export function renderBody(webhook: Rec, change: Rec): string {
  const ctx = templateContext(change);
  const template = String(webhook.body_template ?? '');
  return template.trim() ? renderTemplate(template, ctx) : JSON.stringify(ctx);
}

/**
 * Headers additional_headers may not set, and why: the request's target and framing are the
 * server's (a Host or Transfer-Encoding of a template would change where and how the body goes),
 * and so are the headers it sets itself.
 */
export const RESERVED_HEADERS: Readonly<Record<string, string>> = {
  host: 'the target is payload_url',
  'content-length': 'the server frames the body',
  'transfer-encoding': 'the server frames the body',
  te: 'the server frames the body',
  trailer: 'the server frames the body',
  connection: 'the server manages the connection',
  'keep-alive': 'the server manages the connection',
  'proxy-connection': 'the server manages the connection',
  upgrade: 'the server manages the connection',
  expect: 'the server sends the body at once',
  'x-hook-signature': 'the server signs the body (secret)',
  'x-netinv-webhook': 'the server names the delivery',
};

/**
 * Why a header value cannot be sent, or null: HTTP carries no control characters (CR and LF would end
 * the header) and nothing beyond Latin-1.
 */
export function headerValueProblem(value: string): string | null {
  const bad = /[\u0000-\u001f\u007f]|[^\u0000-\u00ff]/u.exec(value);
  if (!bad) return null;
  const code = `U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return bad[0].charCodeAt(0) <= 0xff
    ? `a control character (${code})`
    : `a character HTTP headers cannot carry (${code})`;
}

/**
 * The lines of additional_headers that hold one, split at their first colon (names as written; values
 * still templates).
 */
export function headerLines(text: string): { readonly name: string; readonly value: string; readonly line: string }[] {
  const out: { name: string; value: string; line: string }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) out.push({ name: line.slice(0, i).trim(), value: line.slice(i + 1), line });
  }
  return out;
}

export type HeadersResult =
  { readonly ok: true; readonly headers: Record<string, string> } | { readonly ok: false; readonly reason: string };

/**
 * The request headers: the content type, the additional headers (each line's value rendered on its
 * own, so a substituted value can never start another header), and the signature when there is a
 * secret. A reserved name or a value HTTP cannot carry refuses the whole request, saying why.
 */
export function requestHeaders(webhook: Rec, change: Rec, body: string): HeadersResult {
  const headers: Record<string, string> = { 'Content-Type': String(webhook.http_content_type || 'application/json') };
  const typeProblem = headerValueProblem(headers['Content-Type']);
  if (typeProblem) return { ok: false, reason: `http_content_type holds ${typeProblem}; the request was not sent` };
  const ctx = templateContext(change);
  for (const { name, value } of headerLines(String(webhook.additional_headers ?? ''))) {
    const reserved = RESERVED_HEADERS[name.toLowerCase()];
    if (reserved) return { ok: false, reason: `additional_headers: ${name} may not be set (${reserved})` };
    const text = renderTemplate(value, ctx).trim();
    const problem = headerValueProblem(text);
    if (problem)
      return {
        ok: false,
        reason: `additional_headers: the value of ${name} holds ${problem}; the request was not sent`,
      };
    headers[name] = text;
  }
  const secret = String(webhook.secret ?? '');
  if (secret) headers['X-Hook-Signature'] = signature(body, secret);
  return { ok: true, headers };
}

/** NetBox's X-Hook-Signature: HMAC-SHA512 of the body bytes with the secret as key, in hex. */
export function signature(body: string, secret: string): string {
  return createHmac('sha512', Buffer.from(secret, 'utf8')).update(Buffer.from(body, 'utf8')).digest('hex');
}

/** How long after the n-th failed attempt (1, 2, ...) the next one is made: doubling from `baseMs`, at most `maxMs`. */
export function backoffMs(attempts: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
}
