// The inventory's front page: every resource of the API, by application, and a quick search.
import { useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import type { Catalog } from '../lib/catalog.js';
import { go } from '../lib/route.js';

/** Where a quick search goes: an address or network to the prefixes containing it, else a text search. */
export function quickSearch(text: string): { path: string; pairs: [string, string][] } {
  const t = text.trim();
  if (/^[0-9a-f:.]+(\/\d+)?$/i.test(t) && /[.:]/.test(t))
    return {
      path: '/ipam/prefixes',
      pairs: [[t.includes('/') ? 'network__net_contains_or_equals' : 'network__net_host', t]],
    };
  return { path: '/ipam/prefixes', pairs: [['q', t]] };
}

export function HomePage({ catalog }: { catalog: Catalog }) {
  const [text, setText] = useState('');
  const apps = [...new Set(catalog.resources.map((r) => r.app))];
  return html`<div class="page home">
    <h1>Inventory</h1>
    <form
      class="card quick"
      role="search"
      aria-label="Find a prefix"
      onSubmit=${(e: Event) => {
        e.preventDefault();
        const q = quickSearch(text);
        go(q.path, q.pairs);
      }}
    >
      <label for="quick-input">Which prefixes contain this address or network?</label>
      <div class="filter-input">
        <input
          id="quick-input"
          value=${text}
          placeholder="10.3.1.17 or 10.3.0.0/16"
          onInput=${(e: any) => setText(e.target.value)}
        />
        <button type="submit">Find</button>
      </div>
    </form>
    <div class="apps">
      ${apps.map(
        (app) =>
          html`<section class="card" aria-label=${app}>
            <h2>${app}</h2>
            <ul>
              ${catalog.resources
                .filter((r) => r.app === app)
                .map((r) => html`<li><a href=${`#/${r.key}`}>${r.title}</a></li>`)}
            </ul>
          </section>`,
      )}
    </div>
  </div>`;
}
