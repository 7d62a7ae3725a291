// One entity: its state, its machine's diagram, its history (oldest first), its records in the change
// log (newest first) and the form that sends an event (see event-form.ts).
import { html } from '../lib/html.js';
import { enc, getJson } from '../lib/api.js';
import { useAsync } from '../lib/use-async.js';
import { formatTime, pretty } from '../lib/format.js';
import { Diagram } from '../components/diagram.js';
import { ChangeLog } from '../components/change-log.js';
import { Loading, Message } from '../components/message.js';
import { EventForm } from './event-form.js';
import { useState } from 'preact/hooks';

async function loadEntity(entityId: string) {
  const base = `/api/v1/entities/${enc(entityId)}`;
  const entity = await getJson(base);
  const [history, definition] = await Promise.all([
    getJson(`${base}/history?limit=1000`),
    getJson(`/api/v1/machines/${enc(entity.machine_name)}/versions/${enc(entity.machine_version)}`),
  ]);
  return { entity, history, definition: definition.definition ?? definition };
}

const stateOf = (d: any) => (d && typeof d === 'object' ? (d.state ?? '—') : '—');
const stateChange = (before: unknown, after: unknown) =>
  before ? `${stateOf(before)} → ${stateOf(after)}` : stateOf(after);

function HistoryTable({ rows, count }: { rows: any[]; count: number }) {
  const shown = rows.length < count ? `first ${rows.length} of ${count} rows` : `${count} row${count === 1 ? '' : 's'}`;
  return html`<table class="grid history">
    <caption>
      History (${shown}, oldest first)
    </caption>
    <thead>
      <tr>
        ${['#', 'When', 'Trigger', 'From', 'To', 'Context'].map((t) => html`<th scope="col">${t}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (r, i) =>
          html`<tr>
            <td>${i + 1}</td>
            <td>${formatTime(r.created_at)}</td>
            <td><code>${r.trigger}</code></td>
            <td>${r.source_state ?? '—'}</td>
            <td>${r.target_state}</td>
            <td>
              <details>
                <summary>${Object.keys(r.context ?? {}).length} keys</summary>
                <pre>${pretty(r.context)}</pre>
              </details>
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

export function EntityPage({ entityId }: { entityId: string }) {
  const got = useAsync(() => loadEntity(entityId), [entityId]);
  const [notice, setNotice] = useState('');
  if (!got.data) return html`<div class="page"><${Loading} error=${got.error} /></div>`;
  const { entity, history, definition } = got.data;
  const done = (text: string) => {
    setNotice(text);
    got.reload();
  };
  return html`<div class="page entity-page">
    <p class="crumbs">
      <a href=${`#/entities?machine_name=${enc(entity.machine_name)}`}>Entities of ${entity.machine_name}</a>
    </p>
    <h1>Entity <code>${entity.entity_id}</code></h1>
    ${notice ? html`<${Message} kind="ok">Event accepted — ${notice}</${Message}>` : null}
    <dl class="facts">
      <dt>State</dt>
      <dd><span class="state" data-testid="entity-state">${entity.state}</span></dd>
      <dt>Machine</dt>
      <dd>${entity.machine_name} v${entity.machine_version}</dd>
      <dt>Changes</dt>
      <dd>${entity.version}</dd>
      <dt>Updated</dt>
      <dd>${formatTime(entity.updated_at)}</dd>
    </dl>
    <details class="context">
      <summary>Context</summary>
      <pre>${pretty(entity.context)}</pre>
    </details>
    <div class="two-col">
      <${EventForm}
        key=${`${entity.state}-${entity.version}`}
        entity=${entity}
        definition=${definition}
        onDone=${done}
      />
      <div class="diagram-slot">
        <${Diagram} name=${entity.machine_name} version=${entity.machine_version} state=${entity.state} />
      </div>
    </div>
    <${HistoryTable} rows=${history.results} count=${history.count} />
    <${ChangeLog}
      key=${entity.version}
      type="lifecycle.entity"
      by=${['object_repr', entity.entity_id]}
      describe=${stateChange}
    />
  </div>`;
}
