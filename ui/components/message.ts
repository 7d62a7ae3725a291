// A message box: kind 'error' is announced at once (role alert), the others politely.
import type { ComponentChildren } from 'preact';
import { html } from '../lib/html.js';

export function Message({ kind, children }: { kind: 'error' | 'ok' | 'info'; children: ComponentChildren }) {
  return html`<div class=${`msg msg-${kind}`} role=${kind === 'error' ? 'alert' : 'status'}>${children}</div>`;
}

/** What a page shows while its data loads or when loading failed. */
export function Loading({ error, what = 'Loading…' }: { error?: Error; what?: string }) {
  return error ? html`<${Message} kind="error">${error.message}</${Message}>` : html`<p class="muted">${what}</p>`;
}
