// A minimal JSON editor: a textarea that checks the text as it is typed and shows where a parse
// error is. Empty text is allowed when `optional`.
import { h } from './dom.js';

let seq = 0;

function describeError(text, err) {
  const msg = String(err.message ?? err);
  const m = /position (\d+)/.exec(msg);
  if (!m || /line \d+/.test(msg)) return msg;
  const pos = Number(m[1]);
  const before = text.slice(0, pos).split('\n');
  return `${msg} (line ${before.length}, column ${before[before.length - 1].length + 1})`;
}

/**
 * Returns {element, textarea, value(), valid(), set(text)}. `onChange(valid)` runs after each edit.
 */
export function jsonEditor({ label, value = '', optional = false, rows = 10, onChange = () => {} }) {
  const id = `json${++seq}`;
  const status = h('div', { id: `${id}-status`, class: 'json-status', role: 'status', 'aria-live': 'polite' });
  const textarea = h('textarea', { id, rows, spellcheck: 'false', class: 'json-input', 'aria-describedby': status.id, value });
  let ok = true;
  let parsed;

  function check() {
    const text = textarea.value;
    if (text.trim() === '') {
      ok = optional; parsed = undefined;
      status.textContent = optional ? 'Empty (optional).' : 'A JSON value is required.';
    } else {
      try {
        parsed = JSON.parse(text); ok = true;
        status.textContent = 'Valid JSON.';
      } catch (e) {
        ok = false; parsed = undefined;
        status.textContent = `JSON error: ${describeError(text, e)}`;
      }
    }
    status.className = `json-status ${ok ? 'json-ok' : 'json-bad'}`;
    textarea.setAttribute('aria-invalid', String(!ok));
    onChange(ok);
  }

  textarea.addEventListener('input', check);
  textarea.addEventListener('keydown', (e) => {
    if (e.key !== 'Tab' || e.shiftKey) return;   // Tab indents; Shift+Tab still leaves the field
    e.preventDefault();
    textarea.setRangeText('  ', textarea.selectionStart, textarea.selectionEnd, 'end');
    check();
  });
  const format = h('button', { type: 'button', class: 'small', onclick: () => { if (ok && parsed !== undefined) { textarea.value = JSON.stringify(parsed, null, 2); check(); } } }, 'Format JSON');
  const element = h('div', { class: 'field json-editor' }, h('label', { for: id }, label), textarea, h('div', { class: 'json-bar' }, status, format));
  queueMicrotask(check);
  return {
    element, textarea,
    valid: () => ok,
    value: () => parsed,
    set(text) { textarea.value = text; check(); },
  };
}
