// Machines: every stored machine version with its state diagram.
import { enc, getAll } from '../api.js';
import { h, message } from '../dom.js';
import { diagramFigure } from '../diagram.js';

export async function machinesPage(el) {
  el.append(h('h1', {}, 'Machines'));
  const machines = await getAll('/api/v1/machines?limit=1000');
  if (!machines.length) { el.append(message('info', 'No machines yet: POST a definition to /api/v1/machines (see the API playground).')); return; }
  const sections = machines.map((m) => {
    const slot = h('div', { class: 'diagram-slot' }, h('p', { class: 'muted' }, 'Loading diagram…'));
    const section = h('section', { class: 'card machine', 'aria-label': `${m.machine_name} ${m.version}` },
      h('h2', {}, m.machine_name, ' ', h('span', { class: 'badge' }, `v${m.version}`)),
      m.description ? h('p', {}, m.description) : null,
      h('p', {}, h('a', { href: `#/entities?machine_name=${enc(m.machine_name)}` }, `Entities of ${m.machine_name}`)),
      slot);
    diagramFigure(m.machine_name, m.version).then((fig) => slot.replaceChildren(fig));
    return section;
  });
  el.append(...sections);
}
