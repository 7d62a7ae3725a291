// The API version an answer speaks, in its `API-Version` header. By default the NetBox API level the
// product follows (NETBOX_API_LEVEL, 3.7: what pynetbox and Ansible's netbox.netbox read as the
// NetBox version). A Nautobot client may ask for the Nautobot level of the filter rules, as Nautobot
// negotiates: `Accept: application/json; version=1.3` or `?api_version=1.3`. Any other asked version
// is refused with Nautobot's answers: 406 for the header, 404 for the parameter, 400 when both differ.
import type { IncomingHttpHeaders } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';

/** The Nautobot API level whose filter rules the product follows. */
export const NAUTOBOT_API_VERSION = '1.3';

/** `3.7` -> `3.7.0`: the `netbox-version` of /api/status/. */
export const netboxVersion = (level: string): string => `${level}.0`;

/** Versions a client may ask for: the NetBox level first (the default), then Nautobot's. */
export const allowedVersions = (netboxLevel: string): readonly string[] => [
  ...new Set([netboxLevel, NAUTOBOT_API_VERSION]),
];

/** Media ranges whose `version` parameter asks for a version of the JSON this API renders. */
const JSON_RANGES = new Set(['application/json', 'application/*', '*/*']);

const unquote = (v: string): string => v.replace(/^"(.*)"$/, '$1');

/** The `version` parameter of the first JSON media range of an Accept header that carries one. */
export function acceptedVersion(accept: string | undefined): string | undefined {
  for (const range of (accept ?? '').split(',')) {
    const [type, ...params] = range.split(';').map((s) => s.trim());
    if (!JSON_RANGES.has(type.toLowerCase())) continue;
    for (const p of params) {
      const eq = p.indexOf('=');
      if (eq > 0 && p.slice(0, eq).trim().toLowerCase() === 'version') return unquote(p.slice(eq + 1).trim());
    }
  }
  return undefined;
}

export type Negotiated =
  | { readonly ok: true; readonly version: string }
  | { readonly ok: false; readonly status: 400 | 404 | 406; readonly code: string; readonly detail: string };

/** The version to answer in, from what the client asked in its Accept header and in `api_version`. */
function negotiate(netboxLevel: string, fromHeader?: string, fromQuery?: string): Negotiated {
  const allowed = allowedVersions(netboxLevel);
  const supported = `Supported versions are ${allowed.join(', ')}.`;
  if (fromHeader !== undefined && fromQuery !== undefined && fromHeader !== fromQuery) {
    const detail = `Version mismatch between "Accept" header (${fromHeader}) and query parameter (${fromQuery}).`;
    return { ok: false, status: 400, code: 'api_version_mismatch', detail };
  }
  if (fromHeader !== undefined && !allowed.includes(fromHeader)) {
    const detail = `Invalid version in "Accept" header: "${fromHeader}". ${supported}`;
    return { ok: false, status: 406, code: 'not_acceptable', detail };
  }
  if (fromQuery !== undefined && !allowed.includes(fromQuery)) {
    const detail = `Invalid version in query parameter: api_version=${fromQuery}. ${supported}`;
    return { ok: false, status: 404, code: 'not_found', detail };
  }
  return { ok: true, version: fromHeader ?? fromQuery ?? netboxLevel };
}

/**
 * The version a request is answered in, from its Accept header and its `api_version` parameter:
 * the one negotiation, called by the app's middleware and by the cached-list door (list-door.ts).
 */
export const negotiateRequest = (
  netboxLevel: string,
  headers: IncomingHttpHeaders,
  apiVersionParam?: string,
): Negotiated => negotiate(netboxLevel, acceptedVersion(headers.accept), apiVersionParam);

/** Sets `API-Version` on every answer after it, or refuses a version the API does not speak. */
export function apiVersion(netboxLevel: string): RequestHandler {
  return (req: Request, res: Response, next) => {
    const q: unknown = req.query.api_version;
    const n = negotiateRequest(
      netboxLevel,
      req.headers,
      Array.isArray(q) ? String(q[0]) : typeof q === 'string' ? q : undefined,
    );
    res.set('API-Version', n.ok ? n.version : netboxLevel);
    if (n.ok) next();
    else res.status(n.status).json({ detail: n.detail, code: n.code });
  };
}
