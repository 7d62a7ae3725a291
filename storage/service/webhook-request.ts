// One webhook HTTP request: the method, headers and body given, a time limit, the answer's status
// and the start of its body. Never throws: a refused connection or a timeout is an error text.
import http from 'node:http';
import https from 'node:https';

export interface WebhookAnswer {
  readonly status: number | null;   // null: no answer (connection refused, timeout)
  readonly body: string;            // the first `excerpt` characters of the answer
  readonly error: string;           // '' when an answer came
}

export function sendWebhook(url: string, method: string, headers: Readonly<Record<string, string>>, body: string, opts: { timeoutMs: number; verifyTls: boolean; excerpt: number }): Promise<WebhookAnswer> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (a: WebhookAnswer) => { if (!done) { done = true; resolve(a); } };
    let target: URL;
    try { target = new URL(url); } catch { finish({ status: null, body: '', error: `not a URL: ${url}` }); return; }
    const lib = target.protocol === 'https:' ? https : http;
    const payload = Buffer.from(body, 'utf8');
    const req = lib.request(target, {
      method, headers: { 'User-Agent': 'netinv-webhook', ...headers, 'Content-Length': String(payload.length) },
      timeout: opts.timeoutMs, ...(target.protocol === 'https:' ? { rejectUnauthorized: opts.verifyTls } : {}),
    }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => { if (size < opts.excerpt * 4) { chunks.push(c); size += c.length; } });
      res.on('end', () => finish({ status: res.statusCode ?? null, body: Buffer.concat(chunks).toString('utf8').slice(0, opts.excerpt), error: '' }));
      res.on('error', (e) => finish({ status: res.statusCode ?? null, body: '', error: e.message }));
    });
    const timer = setTimeout(() => { req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)); }, opts.timeoutMs);
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
    req.on('error', (e) => finish({ status: null, body: '', error: e.message || String(e) }));
    req.on('close', () => clearTimeout(timer));
    req.end(payload);
  });
}
