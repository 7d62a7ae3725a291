// Machines: every stored machine version with its state diagram.
import { html } from '../lib/html.js';
import { enc, getAll } from '../lib/api.js';
import { useAsync } from '../lib/use-async.js';
import { Diagram } from '../components/diagram.js';
import { Loading, Message } from '../components/message.js';

const NONE_YET = 'No machines yet: POST a definition to /api/v1/machines (see the API playground).';

export function MachinesPage() {
  const got = useAsync(() => getAll('/api/v1/machines?limit=1000'), []);
  if (!got.data)
    return html`<div class="page">
      <h1>Machines</h1>
      <${Loading} error=${got.error} />
    </div>`;
  return html`<div class="page">
    <h1>Machines</h1>
    ${!got.data.length ? html`<${Message} kind="info">${NONE_YET}</${Message}>` : null}
    ${got.data.map(
      (m: any) =>
        html`<section class="card machine" aria-label=${`${m.machine_name} ${m.version}`}>
          <h2>${m.machine_name} <span class="badge">v${m.version}</span></h2>
          ${m.description ? html`<p>${m.description}</p>` : null}
          <p>
            <a href=${`#/entities?machine_name=${enc(m.machine_name)}`}>Entities of ${m.machine_name}</a> ·
            <a href=${`#/entities/new?machine_name=${enc(m.machine_name)}`}>Create an entity</a>
          </p>
          <${Diagram} name=${m.machine_name} version=${m.version} />
        </section>`,
    )}
  </div>`;
}
