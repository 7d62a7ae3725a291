// One entity: its state, its machine's diagram, its history (oldest first), its records in the change
// log (newest first) and a form to send an
// event offering the triggers available now (transitions whose normalised source holds the state).
import { enc, getJson, request } from '../api.js';
import { append, field, formatTime, h, message, pretty } from '../dom.js';
import { diagramFigure } from '../diagram.js';
import { jsonEditor } from '../json-editor.js';

export function availableTriggers(definition, state) {
  const out = [];
  for (const t of definition.transitions) {
    const source = Array.isArray(t.source) ? t.source : [t.source];
    if (source.includes(state) && !out.includes(t.trigger)) out.push(t.trigger);
  }
  return out;
}

function transitionsFor(definition, state, trigger) {
  return definition.transitions.filter((t) => t.trigger === trigger && (Array.isArray(t.source) ? t.source : [t.source]).includes(state));
}

function historyTable(rows, count) {
  const shown = rows.length < count ? `first ${rows.length} of ${count} rows` : `${count} row${count === 1 ? '' : 's'}`;
  return h('table', { class: 'grid history' },
    h('caption', {}, `History (${shown}, oldest first)`),
    h('thead', {}, h('tr', {}, ...['#', 'When', 'Trigger', 'From', 'To', 'Context'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, ...rows.map((r, i) => h('tr', {},
      h('td', {}, String(i + 1)), h('td', {}, formatTime(r.created_at)), h('td', {}, h('code', {}, r.trigger)),
      h('td', {}, r.source_state ?? '—'), h('td', {}, r.target_state),
      h('td', {}, h('details', {}, h('summary', {}, `${Object.keys(r.context ?? {}).length} keys`), h('pre', {}, pretty(r.context))))))));
}

/** The entity's records in the change log (newest first): who changed it, when, in which request. */
function changesTable(changes) {
  if (!changes.ok) {
    const why = changes.status === 403 ? 'this token may not read the change log (extras.view_objectchange)' : `${changes.status} ${changes.body?.detail ?? ''}`;
    return h('p', { class: 'muted changes' }, `Change log: ${why}.`);
  }
  const rows = changes.body.results;
  const stateOf = (d) => (d && typeof d === 'object' ? d.state ?? '—' : '—');
  return h('table', { class: 'grid changes' },
    h('caption', {}, `Change log (${rows.length < changes.body.count ? `newest ${rows.length} of ${changes.body.count}` : `${rows.length}`}, newest first) — `,
      h('a', { href: `/api/extras/object-changes/?changed_object_type=lifecycle.entity&object_repr=${enc(changes.entityId)}` }, 'as JSON')),
    h('thead', {}, h('tr', {}, ...['Seq', 'When', 'Action', 'State', 'User', 'Request'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, ...rows.map((c) => h('tr', {},
      h('td', {}, String(c.seq)), h('td', {}, formatTime(c.time)), h('td', {}, c.action?.label ?? String(c.action)),
      h('td', {}, c.prechange_data ? `${stateOf(c.prechange_data)} → ${stateOf(c.object_data)}` : stateOf(c.object_data)),
      h('td', {}, c.user_name), h('td', {}, h('code', {}, c.request_id))))));
}

function eventForm(entity, definition, onDone) {
  const triggers = availableTriggers(definition, entity.state);
  if (!triggers.length) return message('info', `No transition leaves state ${entity.state}.`);
  const triggerSelect = h('select', { name: 'trigger' }, ...triggers.map((t) => h('option', { value: t }, t)));
  const guardInfo = h('div', { class: 'guards muted', 'aria-live': 'polite' });
  const showGuards = () => {
    const ts = transitionsFor(definition, entity.state, triggerSelect.value);
    guardInfo.replaceChildren(...ts.map((t) => h('div', {}, `→ ${t.dest}`, t.guards.length ? `: needs ${t.guards.map((g) => JSON.stringify(g)).join(' and ')}` : ' (no guard)')));
  };
  triggerSelect.addEventListener('change', showGuards);
  showGuards();
  const send = h('button', { type: 'submit' }, 'Send event');
  const context = jsonEditor({ label: 'Event context (JSON, optional)', optional: true, rows: 6, onChange: (ok) => { send.disabled = !ok; } });
  const cas = h('input', { type: 'checkbox', name: 'expected_state', checked: true });
  const result = h('div', { class: 'result', 'aria-live': 'polite' });
  const form = h('form', { class: 'card event-form', 'aria-label': 'Send an event' },
    h('h2', {}, 'Send an event'),
    field('Trigger', triggerSelect), guardInfo, context.element,
    h('div', { class: 'field inline' }, cas, h('label', { for: (cas.id = 'cas-box') }, `Only if still at ${entity.state} (expected_state)`)),
    send, result);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!context.valid()) return;
    const body = { trigger: triggerSelect.value };
    if (context.value() !== undefined) body.context = context.value();
    if (cas.checked) body.expected_state = entity.state;
    send.disabled = true;
    const r = await request('POST', `/api/v1/entities/${enc(entity.entity_id)}/events`, { body });
    send.disabled = false;
    if (r.ok) { await onDone(`${r.body.trigger}: ${r.body.source_state} → ${r.body.target_state}`); return; }
    result.replaceChildren(message('error', `${r.status} ${r.body?.code ?? ''}: ${r.body?.detail ?? r.text}`,
      r.body?.available_triggers ? ` Available: ${r.body.available_triggers.join(', ')}.` : ''));
  });
  return form;
}

export async function entityPage(el, entityId, notice) {
  const base = `/api/v1/entities/${enc(entityId)}`;
  const entity = await getJson(base);
  const [history, definition, changes] = await Promise.all([
    getJson(`${base}/history?limit=1000`),
    getJson(`/api/v1/machines/${enc(entity.machine_name)}/versions/${enc(entity.machine_version)}`),
    request('GET', `/api/extras/object-changes/?changed_object_type=lifecycle.entity&object_repr=${enc(entity.entity_id)}&limit=50`),
  ]);
  const rerender = async (text) => { el.replaceChildren(); await entityPage(el, entityId, text); };
  append(el, [
    h('p', { class: 'crumbs' }, h('a', { href: `#/entities?machine_name=${enc(entity.machine_name)}` }, `Entities of ${entity.machine_name}`)),
    h('h1', {}, 'Entity ', h('code', {}, entity.entity_id)),
    notice ? message('ok', `Event accepted — ${notice}`) : null,
    h('dl', { class: 'facts' },
      h('dt', {}, 'State'), h('dd', {}, h('span', { class: 'state', 'data-testid': 'entity-state' }, entity.state)),
      h('dt', {}, 'Machine'), h('dd', {}, `${entity.machine_name} v${entity.machine_version}`),
      h('dt', {}, 'Changes'), h('dd', {}, String(entity.version)),
      h('dt', {}, 'Updated'), h('dd', {}, formatTime(entity.updated_at))),
    h('details', { class: 'context' }, h('summary', {}, 'Context'), h('pre', {}, pretty(entity.context))),
  ]);
  const layout = h('div', { class: 'two-col' }, eventForm(entity, definition, rerender), h('div', { class: 'diagram-slot' }, await diagramFigure(entity.machine_name, entity.machine_version, entity.state)));
  el.append(layout, historyTable(history.results, history.count), changesTable({ ...changes, entityId: entity.entity_id }));
}
