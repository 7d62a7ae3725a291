// A short list of objects from one list query, with the count and a link to the full list page.
import { html } from '../lib/html.js';
import { request } from '../lib/api.js';
import { useAsync } from '../lib/use-async.js';
import { toSearch, type Pair } from '../lib/query.js';
import { href } from '../lib/route.js';
import { routeOfUrl, type Resource } from '../lib/openapi.js';

export function RelatedList({
  title,
  resource,
  pairs,
  limit = 10,
  testid,
}: {
  title: string;
  resource: Resource;
  pairs: readonly Pair[];
  limit?: number;
  testid?: string;
}) {
  const qs = toSearch([...pairs, ['brief', 'true'], ['limit', String(limit)]]);
  const got = useAsync(() => request('GET', `${resource.listPath}?${qs}`), [resource.listPath, qs]);
  const r = got.data;
  return html`<section class="card related" aria-label=${title} data-testid=${testid}>
    <h2>${title} ${r?.ok ? html`<span class="badge">${r.body.count}</span>` : null}</h2>
    ${
      !r
        ? html`<p class="muted">Loading…</p>`
        : !r.ok
          ? html`<p class="muted">${r.status}: ${r.body?.detail ?? JSON.stringify(r.body)}</p>`
          : r.body.count === 0
            ? html`<p class="muted">None.</p>`
            : html`<ul>
                  ${r.body.results.map((o: any) => html`<li><a href=${routeOfUrl(o.url) ?? '#'}>${o.display}</a></li>`)}
                </ul>
                ${
                  r.body.count > r.body.results.length
                    ? html`<a href=${href(`/${resource.key}`, pairs)}>All ${r.body.count}</a>`
                    : null
                }`
    }
  </section>`;
}
