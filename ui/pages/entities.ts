// Entities: the list endpoint's filters machine_name and state, a page of results, paging.
import { useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { enc, getAll, getJson } from '../lib/api.js';
import { useAsync } from '../lib/use-async.js';
import { formatTime } from '../lib/format.js';
import { go, href } from '../lib/route.js';
import { withParam, type Pair } from '../lib/query.js';
import { Pager } from '../components/pager.js';
import { Loading, Message } from '../components/message.js';

const PAGE = 50;
const COLUMNS = ['Entity', 'Machine', 'Version', 'State', 'Changes', 'Updated'];

async function statesByMachine(): Promise<Map<string, string[]>> {
  const machines = await getAll('/api/v1/machines?limit=1000');
  const names = [...new Set(machines.map((m: any) => m.machine_name as string))];
  const defs = await Promise.all(names.map((n) => getJson(`/api/v1/machines/${enc(n)}`).catch(() => null)));
  return new Map(names.map((n, i) => [n, defs[i]?.definition?.states?.map((s: any) => s.name) ?? []]));
}

export function EntitiesPage({ pairs }: { pairs: readonly Pair[] }) {
  const get = (k: string) => pairs.find(([n]) => n === k)?.[1] ?? '';
  const offset = Number(get('offset')) || 0;
  const states = useAsync(statesByMachine, []);
  const [machine, setMachine] = useState(get('machine_name'));
  const [state, setState] = useState(get('state'));
  const q = new URLSearchParams({ limit: String(PAGE), offset: String(offset), ordering: '-last_updated' });
  if (get('machine_name')) q.set('machine_name', get('machine_name'));
  if (get('state')) q.set('state', get('state'));
  const page = useAsync(() => getJson(`/api/v1/entities/?${q}`), [q.toString()]);
  if (!states.data)
    return html`<div class="page">
      <h1>Entities</h1>
      <${Loading} error=${states.error} />
    </div>`;
  const stateNames = machine ? (states.data.get(machine) ?? []) : [...new Set([...states.data.values()].flat())].sort();
  const submit = (e: Event) => {
    e.preventDefault();
    const p: Pair[] = [];
    if (machine) p.push(['machine_name', machine]);
    if (state) p.push(['state', state]);
    go('/entities', p);
  };
  const p = page.data;
  return html`<div class="page">
    <div class="page-head">
      <h1>Entities</h1>
      <a class="button" href=${`#/entities/new${machine ? `?machine_name=${enc(machine)}` : ''}`}>Create an entity</a>
    </div>
    ${filters({ names: [...states.data.keys()], stateNames, machine, state, setMachine, setState, submit })}
    ${results(p, page.error, pairs, offset, get)}
  </div>`;
}

interface FilterProps {
  readonly names: readonly string[];
  readonly stateNames: readonly string[];
  readonly machine: string;
  readonly state: string;
  setMachine(m: string): void;
  setState(s: string): void;
  submit(e: Event): void;
}

/** The machine and state filters (the states offered are the chosen machine's). */
function filters({ names, stateNames, machine, state, setMachine, setState, submit }: FilterProps) {
  return html`<form class="filters" role="search" aria-label="Entity filters" onSubmit=${submit}>
    <div class="field">
      <label for="f-machine">Machine</label>
      <select
        id="f-machine"
        name="machine_name"
        value=${machine}
        onChange=${(e: any) => {
          setMachine(e.target.value);
          setState('');
        }}
      >
        <option value="">any machine</option>
        ${names.map((n) => html`<option value=${n} selected=${n === machine}>${n}</option>`)}
      </select>
    </div>
    <div class="field">
      <label for="f-state">State</label>
      <select id="f-state" name="state" value=${state} onChange=${(e: any) => setState(e.target.value)}>
        <option value="">any state</option>
        ${stateNames.map((s) => html`<option value=${s} selected=${s === state}>${s}</option>`)}
      </select>
    </div>
    <button type="submit">Apply filters</button>
  </form>`;
}

/** A page of entities with its pager, or why there is none. */
function results(p: any, error: unknown, pairs: readonly Pair[], offset: number, get: (k: string) => string) {
  const of = get('machine_name') ? ` of ${get('machine_name')}` : '';
  const at = get('state') ? ` at ${get('state')}` : '';
  return !p
    ? html`<${Loading} error=${error} />`
    : !p.results.length
      ? html`<${Message} kind="info">No entities match these filters.</${Message}>`
      : html`<table class="grid">
            <caption>${p.count} entit${p.count === 1 ? 'y' : 'ies'}${of}${at}</caption>
            <thead>
              <tr>
                ${COLUMNS.map((t) => html`<th scope="col">${t}</th>`)}
              </tr>
            </thead>
            <tbody>
              ${p.results.map(
                (e: any) =>
                  html`<tr>
                    <td><a href=${`#/entities/${enc(e.entity_id)}`}>${e.entity_id}</a></td>
                    <td>${e.machine_name}</td>
                    <td>${e.machine_version}</td>
                    <td><span class="state">${e.state}</span></td>
                    <td>${e.version}</td>
                    <td>${formatTime(e.updated_at)}</td>
                  </tr>`,
              )}
            </tbody>
          </table>
          <${Pager}
            offset=${offset}
            shown=${p.results.length}
            count=${p.count}
            limit=${PAGE}
            href=${(o: number) => href('/entities', withParam(pairs, 'offset', String(o)))}
          />`;
}
