// One webhook HTTP request: the method, headers and body given, a time limit, the answer's status
// and the start of its body. A refused connection or a timeout is an error text; a target outside
// WEBHOOK_ALLOWED_HOSTS is `refused` (no request is made). The connection goes only to an address
// the rules allow: a name is resolved here and each address checked before connecting, so a name
// listed nowhere cannot lead to an internal address, not even by answering differently later.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  addressAllowed,
  resolvedRefusal,
  targetOf,
  targetVerdict,
  type HostRule,
} from '../../engine/changes/webhook-targets.js';

export interface WebhookAnswer {
  readonly status: number | null; // null: no answer (connection refused, timeout)
  readonly body: string; // the first `excerpt` characters of the answer
  readonly error: string; // '' when an answer came
  /** The target is not allowed (WEBHOOK_ALLOWED_HOSTS): nothing was sent, and a retry would not be either. */
  readonly refused?: boolean;
}

export interface SendOptions {
  readonly timeoutMs: number;
  readonly verifyTls: boolean;
  /** Characters of the answer's body kept (0: none read into memory). */
  readonly excerpt: number;
  /** WEBHOOK_ALLOWED_HOSTS (empty: any target). */
  readonly allowedHosts?: readonly HostRule[];
}

export type SendWebhook = (
  url: string,
  method: string,
  headers: Readonly<Record<string, string>>,
  body: string,
  opts: SendOptions,
) => Promise<WebhookAnswer>;

/** Marks a lookup's refusal, to tell it from a name that does not resolve. */
class TargetRefused extends Error {}

/** A lookup that answers only the addresses the rules allow for this port (a refusal when none). */
function guardedLookup(url: URL, rules: readonly HostRule[]): LookupFunction {
  const { port } = targetOf(url);
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, found) => {
      const cb = callback as (e: NodeJS.ErrnoException | null, a?: string | dns.LookupAddress[], f?: number) => void;
      if (err) {
        cb(err);
        return;
      }
      const ok = found.filter((a) => addressAllowed(rules, a.address, port));
      if (!ok.length) {
        cb(
          new TargetRefused(
            resolvedRefusal(
              url,
              found.map((a) => a.address),
            ),
          ),
        );
        return;
      }
      if (options.all) cb(null, ok);
      else cb(null, ok[0].address, ok[0].family);
    });
  };
}

export const sendWebhook: SendWebhook = (url, method, headers, body, opts) => {
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (a: WebhookAnswer) => {
      if (!done) {
        done = true;
        resolve(a);
      }
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      finish({ status: null, body: '', error: `not a URL: ${url}`, refused: true });
      return;
    }
    const rules = opts.allowedHosts ?? [];
    const verdict = targetVerdict(rules, target);
    if (verdict.verdict === 'refused') {
      finish({ status: null, body: '', error: verdict.reason, refused: true });
      return;
    }
    const lib = target.protocol === 'https:' ? https : http;
    const payload = Buffer.from(body, 'utf8');
    let req: http.ClientRequest;
    try {
      req = lib.request(
        target,
        {
          method,
          headers: { 'User-Agent': 'netinv-webhook', ...headers, 'Content-Length': String(payload.length) },
          timeout: opts.timeoutMs,
          ...(target.protocol === 'https:' ? { rejectUnauthorized: opts.verifyTls } : {}),
          ...(verdict.verdict === 'resolve' ? { lookup: guardedLookup(target, rules) } : {}),
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            if (size < opts.excerpt * 4) {
              chunks.push(c);
              size += c.length;
            }
          });
          res.on('end', () =>
            finish({
              status: res.statusCode ?? null,
              body: Buffer.concat(chunks).toString('utf8').slice(0, opts.excerpt),
              error: '',
            }),
          );
          res.on('error', (e) => finish({ status: res.statusCode ?? null, body: '', error: e.message }));
        },
      );
    } catch (e) {
      reject(e); // a header http refuses, say: the caller records it as a failed attempt
      return;
    }
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
    req.on('error', (e) =>
      finish({ status: null, body: '', error: e.message || String(e), refused: e instanceof TargetRefused }),
    );
    req.on('close', () => clearTimeout(timer));
    req.end(payload);
  });
};
