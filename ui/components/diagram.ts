// State diagrams: the server's SVG (GET …/diagram.svg, fetched with the token) inlined after dropping
// anything active from it; the current state, when given, is highlighted.
import { useEffect, useRef } from 'preact/hooks';
import { html } from '../lib/html.js';
import { enc, request } from '../lib/api.js';
import { useAsync } from '../lib/use-async.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

function sanitize(root: Element): Element {
  for (const el of root.querySelectorAll('script, foreignObject, iframe, object, embed')) el.remove();
  for (const el of [root, ...root.querySelectorAll('*')]) {
    for (const a of [...el.attributes]) {
      const v = a.value.trim().toLowerCase();
      if (
        a.name.toLowerCase().startsWith('on') ||
        ((a.name === 'href' || a.name === 'xlink:href') && !v.startsWith('#'))
      )
        el.removeAttribute(a.name);
    }
  }
  return root;
}

function highlight(svg: Element, state: string): void {
  for (const g of svg.querySelectorAll('g.state')) {
    if (g.querySelector('text')?.textContent !== state) continue;
    g.classList.add('current');
    const rect = g.querySelector('rect');
    if (rect) {
      rect.setAttribute('stroke', '#d35400');
      rect.setAttribute('stroke-width', '3.5');
    }
  }
}

/** The parsed, cleaned picture, or the reason there is none. */
async function loadSvg(name: string, version: string): Promise<Element | string> {
  const r = await request('GET', `/api/v1/machines/${enc(name)}/versions/${enc(version)}/diagram.svg`, {
    headers: { Accept: 'image/svg+xml' },
  });
  if (!r.ok) return `Diagram unavailable (${r.status}).`;
  const parsed = new DOMParser().parseFromString(r.text, 'image/svg+xml');
  const root = parsed.documentElement;
  if (root.namespaceURI !== SVG_NS || root.localName !== 'svg' || parsed.querySelector('parsererror'))
    return 'The diagram is not a valid SVG picture.';
  return sanitize(root);
}

export function Diagram({ name, version, state }: { name: string; version: string; state?: string }) {
  const got = useAsync(() => loadSvg(name, version), [name, version]);
  const slot = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!slot.current || !(got.data instanceof Element)) return;
    const svg = document.importNode(got.data, true) as Element;
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', `State diagram of ${name} v${version}`);
    svg.classList.add('diagram-svg');
    if (state) highlight(svg, state);
    slot.current.replaceChildren(svg);
  }, [got.data, state]);
  const loading = got.data ? null : html`<p class="muted">Loading diagram…</p>`;
  return html`<figure class="diagram">
    ${
      typeof got.data === 'string'
        ? html`<p class="msg msg-error">${got.data}</p>`
        : html`<div class="diagram-scroll" ref=${slot}>${loading}</div>`
    }
    <figcaption>State diagram of ${name} v${version}${state ? ` — current state: ${state}` : ''}</figcaption>
  </figure>`;
}
