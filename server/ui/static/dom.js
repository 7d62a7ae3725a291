// Tiny DOM helpers: h('tag', {attrs}, ...children) builds elements; text is always text (no innerHTML).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (k === 'class') el.className = v;
    else if (k === 'value') el.value = String(v);
    else if (k in el && typeof v !== 'string') el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

let idSeq = 0;
/** A label and its control, linked by id. */
export function field(labelText, control, hint) {
  if (!control.id) control.id = `f${++idSeq}`;
  return h('div', { class: 'field' }, h('label', { for: control.id }, labelText), control, hint ? h('small', { class: 'hint' }, hint) : null);
}

export function pretty(value) {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

export function formatTime(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? String(iso) : d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

/** A message box: kind is 'error', 'ok' or 'info'. */
export function message(kind, ...content) {
  return h('div', { class: `msg msg-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, ...content);
}
