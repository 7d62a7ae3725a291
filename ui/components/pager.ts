// Previous / next links of a list page and where the page is in the whole list.
import { html } from '../lib/html.js';

export function Pager({
  offset,
  shown,
  count,
  limit,
  href,
}: {
  offset: number;
  shown: number;
  count: number;
  limit: number;
  href: (offset: number) => string;
}) {
  return html`<nav class="pager" aria-label="Pages">
    ${offset > 0 ? html`<a class="button" href=${href(Math.max(0, offset - limit))}>Previous page</a>` : null}
    <span>${shown ? `${offset + 1}–${offset + shown} of ${count}` : `0 of ${count}`}</span>
    ${offset + shown < count ? html`<a class="button" href=${href(offset + limit)}>Next page</a>` : null}
  </nav>`;
}
