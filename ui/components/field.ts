// A label and its control, linked by id.
import type { ComponentChildren } from 'preact';
import { html } from '../lib/html.js';

export function Field({
  id,
  label,
  hint,
  children,
}: {
  id: string;
  label: ComponentChildren;
  hint?: ComponentChildren;
  children: ComponentChildren;
}) {
  return html`<div class="field">
    <label for=${id}>${label}</label>${children}${hint ? html`<small class="hint">${hint}</small>` : null}
  </div>`;
}
