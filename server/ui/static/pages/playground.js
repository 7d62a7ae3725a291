// API playground: the operations of /openapi.json; pick one, fill its parameters, edit the JSON
// body, send it with the token, read status, headers and body.
import { request } from '../api.js';
import { clear, field, h, message, pretty } from '../dom.js';
import { jsonEditor } from '../json-editor.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'options'];
let docPromise = null;

function loadDocument() {
  docPromise ??= fetch('/openapi.json').then((r) => { if (!r.ok) throw new Error(`/openapi.json: ${r.status}`); return r.json(); });
  return docPromise.catch((e) => { docPromise = null; throw e; });
}

function deref(doc, schema) {
  let s = schema ?? {};
  for (let i = 0; i < 20 && typeof s.$ref === 'string' && s.$ref.startsWith('#/'); i++) {
    s = s.$ref.slice(2).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')).reduce((o, k) => o?.[k], doc) ?? {};
  }
  return s;
}

/** A small example body from a schema: its first example, else the required properties filled in. */
export function exampleOf(doc, schema, depth = 0) {
  const s = deref(doc, schema);
  if (depth > 6) return null;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  const alt = s.anyOf ?? s.oneOf;
  if (alt) return exampleOf(doc, alt.find((a) => deref(doc, a).type !== 'null') ?? alt[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (Array.isArray(s.enum)) return s.enum[0];
  switch (type) {
    case 'object': return Object.fromEntries((s.required ?? []).map((k) => [k, exampleOf(doc, s.properties?.[k], depth + 1)]));
    case 'array': return s.minItems ? [exampleOf(doc, s.items, depth + 1)] : [];
    case 'integer': case 'number': return s.minimum ?? 0;
    case 'boolean': return false;
    case 'string': return 'string';
    default: return {};
  }
}

function operations(doc) {
  const out = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = new Map();
      for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])]) params.set(`${p.in}:${p.name}`, p);
      out.push({ id: op.operationId ?? `${method} ${path}`, method, path, op, params: [...params.values()] });
    }
  }
  return out;
}

const label = (o) => `${o.method.toUpperCase()} ${o.path} — ${o.op.summary ?? ''}`;

function responseView(r, ms) {
  const headers = [...r.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
  return h('section', { class: 'card response', 'aria-label': 'Response' },
    h('h2', {}, 'Response'),
    h('p', { class: `status-line ${r.ok ? 'ok' : 'bad'}` }, 'Status: ', h('strong', { 'data-testid': 'response-status' }, `${r.status} ${r.statusText}`), ` (${ms} ms)`),
    h('details', {}, h('summary', {}, 'Headers'), h('pre', { 'data-testid': 'response-headers' }, headers)),
    h('h3', {}, 'Body'), h('pre', { class: 'response-body', 'data-testid': 'response-body' }, r.text === '' ? '(empty)' : pretty(r.body)));
}

function operationForm(doc, o, out) {
  const pathInputs = new Map();
  const headerInputs = new Map();
  const parts = [h('h2', {}, h('span', { class: `method method-${o.method}` }, o.method.toUpperCase()), ' ', h('code', {}, o.path)),
    h('p', {}, o.op.summary ?? ''), o.op.description ? h('p', { class: 'muted' }, o.op.description) : null,
    o.op['x-permission'] ? h('p', { class: 'muted' }, `Needs permission ${o.op['x-permission']}.`) : null];
  for (const p of o.params.filter((x) => x.in === 'path')) {
    const input = h('input', { name: p.name, autocomplete: 'off' });
    pathInputs.set(p.name, input);
    parts.push(field(`${p.name} (path parameter)`, input, p.description));
  }
  for (const p of o.params.filter((x) => x.in === 'header')) {
    const input = h('input', { name: p.name, autocomplete: 'off' });
    headerInputs.set(p.name, input);
    parts.push(field(`${p.name} (header, optional)`, input, p.description));
  }
  const query = o.params.some((x) => x.in === 'query') ? h('input', { name: 'query', placeholder: 'limit=10&state=paid', autocomplete: 'off' }) : null;
  if (query) {
    const names = o.params.filter((x) => x.in === 'query').map((x) => x.name);
    parts.push(field('Query string', query, `Parameters: ${names.slice(0, 30).join(', ')}${names.length > 30 ? `, … (${names.length} in all; see /docs)` : ''}`));
  }
  const send = h('button', { type: 'submit' }, 'Send request');
  const bodySchema = o.op.requestBody?.content?.['application/json']?.schema;
  const editor = bodySchema ? jsonEditor({ label: 'Request body (JSON)', value: JSON.stringify(exampleOf(doc, bodySchema), null, 2), rows: 12, onChange: (ok) => { send.disabled = !ok; } }) : null;
  if (editor) parts.push(editor.element);
  const form = h('form', { class: 'card op-form', 'aria-label': `Request ${o.id}` }, ...parts, send);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    let url = o.path;
    for (const [name, input] of pathInputs) {
      if (!input.value) { input.focus(); out.replaceChildren(message('error', `Fill the path parameter ${name}.`)); return; }
      url = url.replace(`{${name}}`, encodeURIComponent(input.value));
    }
    const qs = query?.value.trim().replace(/^\?/, '');
    if (qs) url += `?${qs}`;
    const headers = {};
    for (const [name, input] of headerInputs) if (input.value.trim()) headers[name] = input.value.trim();
    if (editor && !editor.valid()) return;
    send.disabled = true;
    const t0 = performance.now();
    const r = await request(o.method.toUpperCase(), url, { body: editor ? editor.textarea.value : undefined, headers });
    send.disabled = false;
    out.replaceChildren(responseView(r, Math.round(performance.now() - t0)));
  });
  return form;
}

export async function playgroundPage(el, params) {
  el.append(h('h1', {}, 'API playground'), h('p', { class: 'muted' }, 'Operations of ', h('a', { href: '/openapi.json' }, '/openapi.json'), '. Requests carry the token from the box above.'));
  const doc = await loadDocument();
  const ops = operations(doc);
  const filter = h('input', { type: 'search', placeholder: 'e.g. entities, POST, create', autocomplete: 'off' });
  const select = h('select', { size: 12, class: 'op-list' });
  const formSlot = h('div');
  const out = h('div', { 'aria-live': 'polite' });
  const fill = () => {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const chosen = select.value;
    select.replaceChildren(...ops.filter((o) => words.every((w) => label(o).toLowerCase().includes(w) || o.id.toLowerCase().includes(w)))
      .map((o) => h('option', { value: o.id, selected: o.id === chosen }, label(o))));
  };
  const pick = () => {
    const o = ops.find((x) => x.id === select.value);
    clear(out);
    formSlot.replaceChildren(o ? operationForm(doc, o, out) : h('p', { class: 'muted' }, 'Pick an operation.'));
  };
  filter.addEventListener('input', fill);
  select.addEventListener('change', pick);
  fill();
  const wanted = params.get('op');
  if (wanted && ops.some((o) => o.id === wanted)) select.value = wanted;
  pick();
  el.append(h('div', { class: 'playground' },
    h('div', { class: 'op-picker' }, field('Filter operations', filter), field('Operation', select)),
    h('div', { class: 'op-detail' }, formSlot, out)));
}
