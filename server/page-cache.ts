// List pages kept as the bytes sent, for reads this process answers from its own memory (`memory:`
// and READ_REPLICA=memory). A page is stored with the generation of the store it was read from; any
// write the store takes, or any change a replica applies, moves the generation, and a page of an
// older one is never sent again. Nested objects (a prefix's site), custom field definitions and tags
// live in the same store, so one generation covers all of them. Bounded by bytes, least recently
// used first out.
import type { ServerResponse } from 'node:http';

/** The body as the string sent (Node writes headers and a string body in one write) and its byte length. */
export interface CachedBody {
  readonly json: string;
  readonly length: number;
}

interface Entry {
  readonly gen: number;
  readonly body: CachedBody;
}

export class PageCache {
  private readonly pages = new Map<string, Entry>();
  private bytes = 0;
  /** Pages found and sent again (netinv_page_cache_hits_total). */
  private found = 0;

  /** `maxBytes` 0: nothing is kept. */
  constructor(private readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  get hits(): number {
    return this.found;
  }

  /** The page stored under `key` at generation `gen`, or undefined. A page found is counted as a hit: it is sent. */
  get(key: string, gen: number): CachedBody | undefined {
    const e = this.pages.get(key);
    if (!e) return undefined;
    this.pages.delete(key);
    if (e.gen !== gen) {
      this.bytes -= e.body.length;
      return undefined;
    }
    this.pages.set(key, e); // most recently used last
    this.found++;
    return e.body;
  }

  set(key: string, gen: number, body: CachedBody): void {
    if (body.length > this.maxBytes / 4) return; // one huge page must not empty the cache
    const old = this.pages.get(key);
    if (old) {
      this.pages.delete(key);
      this.bytes -= old.body.length;
    }
    this.pages.set(key, { gen, body });
    this.bytes += body.length;
    for (const [k, e] of this.pages) {
      if (this.bytes <= this.maxBytes) break;
      this.pages.delete(k);
      this.bytes -= e.body.length;
    }
  }
}

/**
 * What a page is kept under: who may see it (`viewScope` in auth.ts), API version, scheme and host
 * (its links name them), the URL as asked.
 */
export const pageKey = (
  scope: string,
  version: string,
  scheme: string,
  host: string | undefined,
  url: string,
): string => `${scope}|${version} ${scheme}://${host ?? 'localhost'}${url}`;

/** A JSON answer already serialized. */
export function sendJson(res: ServerResponse, body: CachedBody): void {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', body.length);
  res.end(body.json);
}

export const jsonBody = (value: unknown): CachedBody => {
  const json = JSON.stringify(value);
  return { json, length: Buffer.byteLength(json) };
};
