// A JSON editor: a textarea that checks the text as it is typed and says where a parse error is.
// Empty text is allowed when `optional`. Tab indents; Shift+Tab still leaves the field.
import { useEffect, useState } from 'preact/hooks';
import { html } from '../lib/html.js';

export function describeJsonError(text: string, err: unknown): string {
  const msg = String((err as Error).message ?? err);
  const m = /position (\d+)/.exec(msg);
  if (!m || /line \d+/.test(msg)) return msg;
  const before = text.slice(0, Number(m[1])).split('\n');
  return `${msg} (line ${before.length}, column ${before[before.length - 1].length + 1})`;
}

export interface JsonCheck {
  ok: boolean;
  value?: unknown;
  status: string;
}

export function checkJson(text: string, optional: boolean): JsonCheck {
  if (text.trim() === '') return { ok: optional, status: optional ? 'Empty (optional).' : 'A JSON value is required.' };
  try {
    return { ok: true, value: JSON.parse(text), status: 'Valid JSON.' };
  } catch (e) {
    return { ok: false, status: `JSON error: ${describeJsonError(text, e)}` };
  }
}

export function JsonEditor({
  id,
  label,
  text,
  onText,
  optional = false,
  rows = 10,
}: {
  id: string;
  label: string;
  text: string;
  onText: (t: string) => void;
  optional?: boolean;
  rows?: number;
}) {
  const check = checkJson(text, optional);
  const [, force] = useState(0);
  useEffect(() => {
    force((n) => n + 1);
  }, [text]);
  const keydown = (e: KeyboardEvent) => {
    if (e.key !== 'Tab' || e.shiftKey) return;
    e.preventDefault();
    const t = e.target as HTMLTextAreaElement;
    t.setRangeText('  ', t.selectionStart, t.selectionEnd, 'end');
    onText(t.value);
  };
  const format = () => {
    if (check.ok && check.value !== undefined) onText(JSON.stringify(check.value, null, 2));
  };
  return html`<div class="field json-editor">
    <label for=${id}>${label}</label>
    <textarea
      id=${id}
      rows=${rows}
      spellcheck=${false}
      class="json-input"
      aria-describedby=${`${id}-status`}
      aria-invalid=${String(!check.ok)}
      value=${text}
      onInput=${(e: any) => onText(e.target.value)}
      onKeyDown=${keydown}
    ></textarea>
    <div class="json-bar">
      <div
        id=${`${id}-status`}
        class=${`json-status ${check.ok ? 'json-ok' : 'json-bad'}`}
        role="status"
        aria-live="polite"
      >
        ${check.status}
      </div>
      <button type="button" class="small" onClick=${format}>Format JSON</button>
    </div>
  </div>`;
}
