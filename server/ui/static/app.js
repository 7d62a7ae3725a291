// The web UI shell: token box, hash routing (#/machines, #/entities, #/entities/<id>, #/playground).
import { getToken, setToken } from './api.js';
import { clear, h, message } from './dom.js';
import { machinesPage } from './pages/machines.js';
import { entitiesPage } from './pages/entities.js';
import { entityPage } from './pages/entity.js';
import { playgroundPage } from './pages/playground.js';

const view = document.getElementById('view');

function parseHash() {
  const raw = location.hash.replace(/^#/, '') || '/machines';
  const [path, query = ''] = raw.split('?');
  return { parts: path.split('/').filter(Boolean).map(decodeURIComponent), params: new URLSearchParams(query) };
}

function route({ parts, params }) {
  const [page, id] = parts;
  if (page === 'entities' && id !== undefined) return { name: 'entities', title: `Entity ${id}`, render: (el) => entityPage(el, id) };
  if (page === 'entities') return { name: 'entities', title: 'Entities', render: (el) => entitiesPage(el, params) };
  if (page === 'playground') return { name: 'playground', title: 'API playground', render: (el) => playgroundPage(el, params) };
  return { name: 'machines', title: 'Machines', render: (el) => machinesPage(el) };
}

let renderSeq = 0;
async function render() {
  const seq = ++renderSeq;
  const r = route(parseHash());
  document.title = `${r.title} · netinv`;
  for (const a of document.querySelectorAll('nav a[data-page]')) {
    if (a.dataset.page === r.name) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  const el = h('div', { class: 'page' });
  clear(view).append(el);
  try {
    await r.render(el);
  } catch (e) {
    if (seq === renderSeq) el.append(message('error', String(e.message ?? e)));
  }
}

function tokenBox() {
  const form = document.getElementById('token-form');
  const input = document.getElementById('token-input');
  const status = document.getElementById('token-status');
  input.value = getToken();
  const show = () => { status.textContent = getToken() ? 'Token set.' : 'No token: API calls will be refused.'; };
  show();
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    setToken(input.value.trim());
    show();
    render();
  });
}

tokenBox();
window.addEventListener('hashchange', render);
render();
