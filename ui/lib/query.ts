// The filter bar's language is the API's: `field__lookup=value` pairs (repeat a name to OR its values)
// and free text, which is the `q` search. These functions turn typed text into pairs and pairs into
// the query string, the curl command and back.

export type Pair = readonly [string, string];

/** Pairs of typed text: `a=b` words (or `a=b&c=d`) become pairs, the other words the search text. */
export function parseTyped(text: string): { pairs: Pair[]; q: string } {
  const pairs: Pair[] = [];
  const words: string[] = [];
  for (const word of text.trim().split(/\s+/).filter(Boolean)) {
    for (const part of word.split('&').filter(Boolean)) {
      const eq = part.indexOf('=');
      if (eq > 0) pairs.push([part.slice(0, eq), safeDecode(part.slice(eq + 1))]);
      else words.push(part);
    }
  }
  return { pairs, q: words.join(' ') };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

export function toSearch(pairs: readonly Pair[]): string {
  return new URLSearchParams(pairs as [string, string][]).toString();
}

export function fromSearch(search: string): Pair[] {
  return [...new URLSearchParams(search).entries()];
}

/** Adds pairs, keeping one `q` (the newest) and dropping exact repeats. */
export function addPairs(current: readonly Pair[], added: readonly Pair[]): Pair[] {
  const out = [...current];
  for (const [k, v] of added) {
    if (k === 'q') {
      const i = out.findIndex(([n]) => n === 'q');
      if (i >= 0) out.splice(i, 1);
    }
    if (!out.some(([n, w]) => n === k && w === v)) out.push([k, v]);
  }
  return out;
}

export function withParam(pairs: readonly Pair[], name: string, value: string | null): Pair[] {
  const out = pairs.filter(([k]) => k !== name);
  if (value !== null && value !== '') out.push([name, value]);
  return out;
}

/** A shell-quoted curl command for a GET with the token left as a variable. */
export function curlCommand(origin: string, path: string, pairs: readonly Pair[]): string {
  const qs = toSearch(pairs);
  const url = `${origin}${path}${qs ? `?${qs}` : ''}`;
  return `curl -H "Authorization: Token $NETINV_TOKEN" '${url.replace(/'/g, `'\\''`)}'`;
}

/** The field a filter parameter is on (`status__n` -> `status`, `site_id` -> `site`, `cf_x__ic` -> `cf_x`). */
export function baseField(param: string): string {
  const name = param.split('__')[0];
  return name.endsWith('_id') ? name.slice(0, -3) : name;
}
