// Creating an entity from a form: id, machine and version (the highest when none is picked), context.
import { useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { enc, getAll, request } from '../lib/api.js';
import { useAsync } from '../lib/use-async.js';
import { go } from '../lib/route.js';
import type { Pair } from '../lib/query.js';
import { checkJson, JsonEditor } from '../components/json-editor.js';
import { Loading, Message } from '../components/message.js';

export function EntityNewPage({ pairs }: { pairs: readonly Pair[] }) {
  const machines = useAsync(() => getAll('/api/v1/machines?limit=1000'), []);
  const [id, setId] = useState('');
  const [machine, setMachine] = useState(pairs.find(([k]) => k === 'machine_name')?.[1] ?? '');
  const [version, setVersion] = useState('');
  const [json, setJson] = useState('');
  const [error, setError] = useState('');
  if (!machines.data)
    return html`<div class="page">
      <h1>Create an entity</h1>
      <${Loading} error=${machines.error} />
    </div>`;
  const names = [...new Set(machines.data.map((m: any) => m.machine_name as string))];
  const chosen = machine || names[0] || '';
  const versions = machines.data.filter((m: any) => m.machine_name === chosen).map((m: any) => m.version as string);
  const check = checkJson(json, true);
  const submit = async (e: Event) => {
    e.preventDefault();
    const body: Record<string, unknown> = { machine_name: chosen };
    if (version) body.machine_version = version;
    if (check.value !== undefined) body.context = check.value;
    const r = await request('POST', `/api/v1/entities/${enc(id.trim())}/create`, { body });
    if (r.ok) {
      go(`/entities/${id.trim()}`);
      return;
    }
    setError(`${r.status} ${r.body?.code ?? ''}: ${r.body?.detail ?? JSON.stringify(r.body)}`);
  };
  return html`<div class="page">
    <p class="crumbs"><a href="#/entities">Entities</a></p>
    <h1>Create an entity</h1>
    <form class="card entity-form" aria-label="Create an entity" onSubmit=${submit}>
      <div class="field">
        <label for="ne-id">Entity id</label>
        <input
          id="ne-id"
          required
          pattern="[A-Za-z0-9._:\\-]{1,128}"
          value=${id}
          onInput=${(e: any) => setId(e.target.value)}
        />
        <small class="hint">1–128 characters of A-Z a-z 0-9 . _ : -</small>
      </div>
      <div class="field">
        <label for="ne-machine">Machine</label>
        <select
          id="ne-machine"
          value=${chosen}
          onChange=${(e: any) => {
            setMachine(e.target.value);
            setVersion('');
          }}
        >
          ${names.map((n) => html`<option value=${n} selected=${n === chosen}>${n}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="ne-version">Version</label>
        <select id="ne-version" value=${version} onChange=${(e: any) => setVersion(e.target.value)}>
          <option value="">the highest</option>
          ${versions.map((v: string) => html`<option value=${v} selected=${v === version}>${v}</option>`)}
        </select>
      </div>
      <${JsonEditor}
        id="ne-context"
        label="Context (JSON, optional)"
        text=${json}
        onText=${setJson}
        optional
        rows=${4}
      />
      <button type="submit" disabled=${!check.ok}>Create entity</button>
      ${error ? html`<${Message} kind="error">${error}</${Message}>` : null}
    </form>
  </div>`;
}
