// API playground: the operations of /openapi.json; pick one, fill its parameters, edit the JSON
// body, send it with the token, read status, headers and body.
import { useMemo, useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { request, type ApiResult } from '../lib/api.js';
import { pretty } from '../lib/format.js';
import type { Catalog } from '../lib/catalog.js';
import type { OpenApiDoc, Schema } from '../lib/openapi.js';
import type { Pair } from '../lib/query.js';
import { checkJson, JsonEditor } from '../components/json-editor.js';
import { Message } from '../components/message.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'options'];

function deref(doc: OpenApiDoc, schema: Schema | undefined): Schema {
  let s: any = schema ?? {};
  for (let i = 0; i < 20 && typeof s.$ref === 'string' && s.$ref.startsWith('#/'); i++) {
    s =
      s.$ref
        .slice(2)
        .split('/')
        .map((p: string) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce((o: any, k: string) => o?.[k], doc) ?? {};
  }
  return s;
}

/** A small example body from a schema: its first example, else the required properties filled in. */
export function exampleOf(doc: OpenApiDoc, schema: Schema | undefined, depth = 0): unknown {
  const s = deref(doc, schema);
  if (depth > 6) return null;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.default !== undefined) return s.default;
  const alt = s.anyOf ?? s.oneOf;
  if (alt) return exampleOf(doc, alt.find((a: Schema) => deref(doc, a).type !== 'null') ?? alt[0], depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  if (Array.isArray(s.enum)) return s.enum[0];
  switch (type) {
    case 'object':
      return Object.fromEntries(
        (s.required ?? []).map((k: string) => [k, exampleOf(doc, s.properties?.[k], depth + 1)]),
      );
    case 'array':
      return s.minItems ? [exampleOf(doc, s.items, depth + 1)] : [];
    case 'integer':
    case 'number':
      return s.minimum ?? 0;
    case 'boolean':
      return false;
    case 'string':
      return 'string';
    default:
      return {};
  }
}

interface Operation {
  id: string;
  method: string;
  path: string;
  op: any;
  params: any[];
}

function operations(doc: OpenApiDoc): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = new Map<string, any>();
      for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])]) params.set(`${p.in}:${p.name}`, p);
      out.push({ id: op.operationId ?? `${method} ${path}`, method, path, op, params: [...params.values()] });
    }
  }
  return out;
}

const label = (o: Operation) => `${o.method.toUpperCase()} ${o.path} — ${o.op.summary ?? ''}`;

function ResponseView({ r }: { r: ApiResult }) {
  const headers = [...r.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
  return html`<section class="card response" aria-label="Response">
    <h2>Response</h2>
    <p class=${`status-line ${r.ok ? 'ok' : 'bad'}`}>
      Status: <strong data-testid="response-status">${r.status} ${r.statusText}</strong> (${r.ms} ms)
    </p>
    <details>
      <summary>Headers</summary>
      <pre data-testid="response-headers">${headers}</pre>
    </details>
    <h3>Body</h3>
    <pre class="response-body" data-testid="response-body">${r.text === '' ? '(empty)' : pretty(r.body)}</pre>
  </section>`;
}

const BODY_LABEL = 'Request body (JSON)';

/** The query string's input, naming the parameters the operation reads (the first 30). */
function queryField(queryNames: readonly string[], value: string, onInput: (e: any) => void) {
  const more = queryNames.length > 30 ? `, … (${queryNames.length} in all; see /docs)` : '';
  return html`<div class="field">
    <label for="op-query">Query string</label>
    <input id="op-query" placeholder="limit=10&state=paid" autocomplete="off" value=${value} onInput=${onInput} />
    <small class="hint">Parameters: ${queryNames.slice(0, 30).join(', ')}${more}</small>
  </div>`;
}

function OperationForm({ doc, o }: { doc: OpenApiDoc; o: Operation }) {
  const bodySchema = o.op.requestBody?.content?.['application/json']?.schema;
  const [inputs, setInputs] = useState<Record<string, string>>({});
  const [body, setBody] = useState(() => (bodySchema ? JSON.stringify(exampleOf(doc, bodySchema), null, 2) : ''));
  const [result, setResult] = useState<ApiResult | null>(null);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const pathParams = o.params.filter((x) => x.in === 'path');
  const headerParams = o.params.filter((x) => x.in === 'header');
  const queryNames = o.params.filter((x) => x.in === 'query').map((x) => x.name);
  const check = checkJson(body, !bodySchema);
  const set = (k: string) => (e: any) => setInputs({ ...inputs, [k]: e.target.value });
  const submit = async (e: Event) => {
    e.preventDefault();
    let url = o.path;
    for (const p of pathParams) {
      if (!inputs[`path:${p.name}`]) {
        setProblem(`Fill the path parameter ${p.name}.`);
        return;
      }
      url = url.replace(`{${p.name}}`, encodeURIComponent(inputs[`path:${p.name}`]));
    }
    const qs = (inputs.query ?? '').trim().replace(/^\?/, '');
    if (qs) url += `?${qs}`;
    const headers: Record<string, string> = {};
    for (const p of headerParams)
      if ((inputs[`header:${p.name}`] ?? '').trim()) headers[p.name] = inputs[`header:${p.name}`].trim();
    if (bodySchema && !check.ok) return;
    setProblem('');
    setBusy(true);
    setResult(await request(o.method.toUpperCase(), url, { body: bodySchema ? body : undefined, headers }));
    setBusy(false);
  };
  return html`<div>
    <form class="card op-form" aria-label=${`Request ${o.id}`} onSubmit=${submit}>
      <h2><span class=${`method method-${o.method}`}>${o.method.toUpperCase()}</span> <code>${o.path}</code></h2>
      <p>${o.op.summary ?? ''}</p>
      ${o.op.description ? html`<p class="muted">${o.op.description}</p>` : null}
      ${o.op['x-permission'] ? html`<p class="muted">Needs permission ${o.op['x-permission']}.</p>` : null}
      ${pathParams.map(
        (p) =>
          html`<div class="field">
            <label for=${`pp-${p.name}`}>${p.name} (path parameter)</label>
            <input
              id=${`pp-${p.name}`}
              autocomplete="off"
              value=${inputs[`path:${p.name}`] ?? ''}
              onInput=${set(`path:${p.name}`)}
            />
            ${p.description ? html`<small class="hint">${p.description}</small>` : null}
          </div>`,
      )}
      ${headerParams.map(
        (p) =>
          html`<div class="field">
            <label for=${`hp-${p.name}`}>${p.name} (header, optional)</label>
            <input
              id=${`hp-${p.name}`}
              autocomplete="off"
              value=${inputs[`header:${p.name}`] ?? ''}
              onInput=${set(`header:${p.name}`)}
            />
          </div>`,
      )}
      ${queryNames.length ? queryField(queryNames, inputs.query ?? '', set('query')) : null}
      ${
        bodySchema
          ? html`<${JsonEditor} id="op-body" label=${BODY_LABEL} text=${body} onText=${setBody} rows=${12} />`
          : null
      }
      ${problem ? html`<${Message} kind="error">${problem}</${Message}>` : null}
      <button type="submit" disabled=${(bodySchema && !check.ok) || busy}>Send request</button>
    </form>
    <div aria-live="polite">${result ? html`<${ResponseView} r=${result} />` : null}</div>
  </div>`;
}

const pick = () => html`<p class="muted">Pick an operation.</p>`;

export function PlaygroundPage({ catalog, pairs }: { catalog: Catalog; pairs: readonly Pair[] }) {
  const ops = useMemo(() => operations(catalog.doc), [catalog.doc]);
  const [filter, setFilter] = useState('');
  const [chosen, setChosen] = useState(() => pairs.find(([k]) => k === 'op')?.[1] ?? '');
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = ops.filter((o) =>
    words.every((w) => label(o).toLowerCase().includes(w) || o.id.toLowerCase().includes(w)),
  );
  const op = ops.find((o) => o.id === chosen);
  return html`<div class="page">
    <h1>API playground</h1>
    <p class="muted">
      Operations of <a href="/openapi.json">/openapi.json</a>. Requests carry the token from the box above.
    </p>
    <div class="playground">
      <div class="op-picker">
        <div class="field">
          <label for="op-filter">Filter operations</label>
          <input
            id="op-filter"
            type="search"
            placeholder="e.g. entities, POST, create"
            autocomplete="off"
            value=${filter}
            onInput=${(e: any) => setFilter(e.target.value)}
          />
        </div>
        <div class="field">
          <label for="op-list">Operation</label>
          <select
            id="op-list"
            size="12"
            class="op-list"
            value=${chosen}
            onChange=${(e: any) => setChosen(e.target.value)}
          >
            ${shown.map((o) => html`<option value=${o.id} selected=${o.id === chosen}>${label(o)}</option>`)}
          </select>
        </div>
      </div>
      <div class="op-detail">${op ? html`<${OperationForm} key=${op.id} doc=${catalog.doc} o=${op} />` : pick()}</div>
    </div>
  </div>`;
}
