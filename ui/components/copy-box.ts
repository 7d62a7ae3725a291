// Text shown as code with a button that copies it (the clipboard API, else the text selected for Ctrl+C).
import { useRef, useState } from 'preact/hooks';
import { html } from '../lib/html.js';

export function CopyBox({ label, text, testid }: { label: string; text: string; testid?: string }) {
  const [done, setDone] = useState('');
  const ref = useRef<HTMLElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setDone('Copied.');
    } catch {
      const sel = getSelection();
      const range = document.createRange();
      if (ref.current && sel) {
        range.selectNodeContents(ref.current);
        sel.removeAllRanges();
        sel.addRange(range);
      }
      setDone('Selected: press Ctrl+C.');
    }
  };
  return html`<div class="copy-box">
    <span class="copy-label">${label}</span>
    <code ref=${ref} data-testid=${testid}>${text}</code>
    <button type="button" class="small" onClick=${copy} aria-label=${`Copy ${label}`}>Copy</button>
    <span class="muted" role="status">${done}</span>
  </div>`;
}
