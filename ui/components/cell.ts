// One field value in a table cell or a detail row: foreign keys link to their object's page.
import { html } from '../lib/html.js';
import { cellText } from '../lib/format.js';
import { routeOfUrl } from '../lib/openapi.js';

export function Cell({ value }: { value: unknown }) {
  if (value && typeof value === 'object' && !Array.isArray(value) && typeof (value as any).url === 'string') {
    const to = routeOfUrl((value as any).url);
    if (to) return html`<a href=${to}>${cellText(value)}</a>`;
  }
  if (Array.isArray(value) && value.some((v) => v && typeof v === 'object' && 'url' in v)) {
    return html`${value.map((v, i) => html`${i ? ', ' : ''}<${Cell} value=${v} />`)}`;
  }
  return html`${cellText(value)}`;
}
