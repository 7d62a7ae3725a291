// State diagrams: the server's SVG (GET …/diagram.svg, fetched with the token) inlined as an <svg>
// element, after dropping anything active from it; the current state, when given, is highlighted.
import { enc, request } from './api.js';
import { h } from './dom.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

function sanitize(root) {
  for (const el of root.querySelectorAll('script, foreignObject, iframe, object, embed')) el.remove();
  for (const el of [root, ...root.querySelectorAll('*')]) {
    for (const a of [...el.attributes]) {
      const v = a.value.trim().toLowerCase();
      if (a.name.toLowerCase().startsWith('on') || ((a.name === 'href' || a.name === 'xlink:href') && !v.startsWith('#'))) el.removeAttribute(a.name);
    }
  }
  return root;
}

function highlight(svg, state) {
  for (const g of svg.querySelectorAll('g.state')) {
    const label = g.querySelector('text');
    if (label && label.textContent === state) {
      g.classList.add('current');
      const rect = g.querySelector('rect');
      if (rect) { rect.setAttribute('stroke', '#d35400'); rect.setAttribute('stroke-width', '3.5'); }
    }
  }
}

/** A <figure> holding the diagram, or a message when it cannot be loaded. */
export async function diagramFigure(name, version, currentState) {
  const caption = h('figcaption', {}, `State diagram of ${name} v${version}`, currentState ? ` — current state: ${currentState}` : '');
  const r = await request('GET', `/api/v1/machines/${enc(name)}/versions/${enc(version)}/diagram.svg`, { headers: { Accept: 'image/svg+xml' } });
  if (!r.ok) return h('figure', { class: 'diagram' }, h('p', { class: 'msg msg-error' }, `Diagram unavailable (${r.status}).`), caption);
  const parsed = new DOMParser().parseFromString(r.text, 'image/svg+xml');
  const root = parsed.documentElement;
  if (root.namespaceURI !== SVG_NS || root.localName !== 'svg' || parsed.querySelector('parsererror')) {
    return h('figure', { class: 'diagram' }, h('p', { class: 'msg msg-error' }, 'The diagram is not a valid SVG picture.'), caption);
  }
  const svg = document.importNode(sanitize(root), true);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `State diagram of ${name} v${version}`);
  svg.classList.add('diagram-svg');
  if (currentState) highlight(svg, currentState);
  return h('figure', { class: 'diagram' }, h('div', { class: 'diagram-scroll' }, svg), caption);
}
