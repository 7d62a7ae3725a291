// Entities: the list endpoint's filters machine_name and state, a page of results, paging.
import { enc, getAll, getJson } from '../api.js';
import { field, formatTime, h, message } from '../dom.js';

const PAGE = 50;

async function statesByMachine(machines) {
  const names = [...new Set(machines.map((m) => m.machine_name))];
  const defs = await Promise.all(names.map((n) => getJson(`/api/v1/machines/${enc(n)}`).catch(() => null)));
  const out = new Map();
  names.forEach((n, i) => out.set(n, defs[i]?.definition?.states?.map((s) => s.name) ?? []));
  return out;
}

function option(value, text, selected) {
  return h('option', { value, selected: selected === value }, text);
}

export async function entitiesPage(el, params) {
  el.append(h('h1', {}, 'Entities'));
  const machineName = params.get('machine_name') ?? '';
  const state = params.get('state') ?? '';
  const offset = Number(params.get('offset') ?? 0) || 0;

  const machines = await getAll('/api/v1/machines?limit=1000');
  const states = await statesByMachine(machines);
  const machineSelect = h('select', { name: 'machine_name' }, option('', 'any machine', machineName),
    ...[...states.keys()].map((n) => option(n, n, machineName)));
  const stateSelect = h('select', { name: 'state' });
  const fillStates = () => {
    const names = machineSelect.value ? states.get(machineSelect.value) ?? [] : [...new Set([...states.values()].flat())].sort();
    const keep = stateSelect.value || state;
    stateSelect.replaceChildren(option('', 'any state', keep), ...names.map((s) => option(s, s, keep)));
  };
  fillStates();
  machineSelect.addEventListener('change', () => { stateSelect.value = ''; fillStates(); });

  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Entity filters' },
    field('Machine', machineSelect), field('State', stateSelect), h('button', { type: 'submit' }, 'Apply filters'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = new URLSearchParams();
    if (machineSelect.value) q.set('machine_name', machineSelect.value);
    if (stateSelect.value) q.set('state', stateSelect.value);
    location.hash = `#/entities${q.size ? `?${q}` : ''}`;
  });
  el.append(form, h('p', {}, 'New entities are created with ', h('a', { href: '#/playground?op=createEntity' }, 'POST …/create in the API playground'), '.'));

  const q = new URLSearchParams({ limit: String(PAGE), offset: String(offset), ordering: '-last_updated' });
  if (machineName) q.set('machine_name', machineName);
  if (state) q.set('state', state);
  const page = await getJson(`/api/v1/entities/?${q}`);
  if (!page.results.length) { el.append(message('info', 'No entities match these filters.')); return; }
  const rows = page.results.map((e) => h('tr', {},
    h('td', {}, h('a', { href: `#/entities/${enc(e.entity_id)}` }, e.entity_id)),
    h('td', {}, e.machine_name), h('td', {}, e.machine_version), h('td', {}, h('span', { class: 'state' }, e.state)),
    h('td', {}, String(e.version)), h('td', {}, formatTime(e.updated_at))));
  el.append(h('table', { class: 'grid' },
    h('caption', {}, `${page.count} entit${page.count === 1 ? 'y' : 'ies'}${machineName ? ` of ${machineName}` : ''}${state ? ` at ${state}` : ''}`),
    h('thead', {}, h('tr', {}, ...['Entity', 'Machine', 'Version', 'State', 'Changes', 'Updated'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, ...rows)));
  const link = (o, text) => {
    const p = new URLSearchParams(params); p.set('offset', String(o));
    return h('a', { href: `#/entities?${p}`, class: 'button' }, text);
  };
  el.append(h('nav', { class: 'pager', 'aria-label': 'Pages' },
    offset > 0 ? link(Math.max(0, offset - PAGE), 'Previous page') : null,
    h('span', {}, `${offset + 1}–${offset + page.results.length} of ${page.count}`),
    page.next ? link(offset + PAGE, 'Next page') : null));
}
