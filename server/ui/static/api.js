// API calls with the token kept in localStorage (the same key /docs reads to pre-authorize).
const TOKEN_KEY = 'netinv.token';

export function getToken() {
  try { return localStorage.getItem(TOKEN_KEY) ?? ''; } catch { return ''; }
}

export function setToken(value) {
  try {
    if (value) localStorage.setItem(TOKEN_KEY, value); else localStorage.removeItem(TOKEN_KEY);
  } catch { /* storage disabled: the token lasts for this page only */ }
}

/**
 * One request. Returns {ok, status, statusText, headers, body, text}: body is parsed JSON when the
 * answer is JSON, else the text. Never throws for HTTP errors; network failures give status 0.
 */
export async function request(method, path, { body, headers = {}, auth = true } = {}) {
  const h = { Accept: 'application/json, image/svg+xml;q=0.9, */*;q=0.5', ...headers };
  const token = getToken();
  if (auth && token) h.Authorization = /^(Token|Bearer)\s/i.test(token) ? token : `Token ${token}`;
  let payload;
  if (body !== undefined) { h['Content-Type'] = 'application/json'; payload = typeof body === 'string' ? body : JSON.stringify(body); }
  let res;
  try {
    res = await fetch(path, { method, headers: h, body: payload });
  } catch (e) {
    return { ok: false, status: 0, statusText: 'network error', headers: new Headers(), body: { detail: String(e) }, text: String(e) };
  }
  const text = await res.text();
  let parsed = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) {
    try { parsed = JSON.parse(text); } catch { /* keep the text */ }
  }
  return { ok: res.ok, status: res.status, statusText: res.statusText, headers: res.headers, body: parsed, text };
}

/** GET that throws an Error carrying the API's detail, for pages that cannot go on without it. */
export async function getJson(path) {
  const r = await request('GET', path);
  if (!r.ok) {
    const detail = typeof r.body === 'object' && r.body ? r.body.detail ?? JSON.stringify(r.body) : r.text;
    const err = new Error(r.status === 401 ? `${detail} Enter an API token at the top of the page.` : `${r.status}: ${detail}`);
    err.status = r.status;
    throw err;
  }
  return r.body;
}

/** Every result of a list, page after page through its `next` links. */
export async function getAll(path) {
  const out = [];
  for (let url = path; url;) {
    const page = await getJson(url);
    out.push(...page.results);
    url = page.next;
  }
  return out;
}

export const enc = encodeURIComponent;
