// The web UI shell: header with navigation, token box and theme, and the page the hash route names.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html } from './lib/html.js';
import { useRoute, type Route } from './lib/route.js';
import { useAsync } from './lib/use-async.js';
import { findResource, loadCatalog, type Catalog } from './lib/catalog.js';
import { TokenBox } from './components/token-box.js';
import { LoginBox } from './components/login-box.js';
import { ThemeToggle } from './components/theme-toggle.js';
import { Loading, Message } from './components/message.js';
import { HomePage } from './pages/home.js';
import { ListPage } from './pages/list.js';
import { DetailPage } from './pages/detail.js';
import { FormPage } from './pages/form.js';
import { ExplainPage } from './pages/explain.js';
import { HierarchyPage } from './pages/hierarchy.js';
import { MachinesPage } from './pages/machines.js';
import { EntitiesPage } from './pages/entities.js';
import { EntityPage } from './pages/entity.js';
import { EntityNewPage } from './pages/entity-new.js';
import { PlaygroundPage } from './pages/playground.js';
import { GraphqlPage } from './pages/graphql.js';

interface Page {
  readonly nav: string;
  readonly title: string;
  readonly view: unknown;
}

/** The page of a route; inventory routes are `/<app>/<plural>[/<id>[/edit|/tree]]` of any resource the document has. */
export function pageOf(route: Route, catalog: Catalog): Page {
  const [a, b, c, d] = route.parts;
  const { pairs } = route;
  if (a === 'machines') return { nav: 'machines', title: 'Machines', view: html`<${MachinesPage} />` };
  if (a === 'entities' && b === 'new')
    return { nav: 'entities', title: 'Create an entity', view: html`<${EntityNewPage} pairs=${pairs} />` };
  if (a === 'entities' && b !== undefined)
    return { nav: 'entities', title: `Entity ${b}`, view: html`<${EntityPage} key=${b} entityId=${b} />` };
  if (a === 'entities')
    return {
      nav: 'entities',
      title: 'Entities',
      view: html`<${EntitiesPage} key=${JSON.stringify(pairs)} pairs=${pairs} />`,
    };
  if (a === 'playground')
    return {
      nav: 'playground',
      title: 'API playground',
      view: html`<${PlaygroundPage} catalog=${catalog} pairs=${pairs} />`,
    };
  if (a === 'graphql') return { nav: 'graphql', title: 'GraphQL', view: html`<${GraphqlPage} />` };
  if (a === 'explain' && b && c) {
    const r = findResource(catalog, `${b}/${c}`);
    if (r)
      return {
        nav: 'inventory',
        title: `Explain ${r.title}`,
        view: html`<${ExplainPage} resource=${r} pairs=${pairs} />`,
      };
  }
  const r = a && b ? findResource(catalog, `${a}/${b}`) : undefined;
  if (r && c === 'new')
    return { nav: 'inventory', title: `Add ${r.label}`, view: html`<${FormPage} catalog=${catalog} resource=${r} />` };
  if (r && c && d === 'edit')
    return {
      nav: 'inventory',
      title: `Edit ${r.label}`,
      view: html`<${FormPage} key=${c} catalog=${catalog} resource=${r} id=${c} />`,
    };
  if (r && c && d === 'tree' && r.key === 'ipam/prefixes')
    return {
      nav: 'inventory',
      title: 'Prefix hierarchy',
      view: html`<${HierarchyPage} key=${c} catalog=${catalog} id=${c} />`,
    };
  if (r && c)
    return {
      nav: 'inventory',
      title: `${r.label} ${c}`,
      view: html`<${DetailPage} key=${c} catalog=${catalog} resource=${r} id=${c} />`,
    };
  if (r)
    return { nav: 'inventory', title: r.title, view: html`<${ListPage} key=${r.key} resource=${r} pairs=${pairs} />` };
  if (a)
    return {
      nav: '',
      title: 'Not found',
      view: html`<${Message} kind="error">No page at #/${route.parts.join('/')}.</${Message}>`,
    };
  return { nav: 'inventory', title: 'Inventory', view: html`<${HomePage} catalog=${catalog} />` };
}

const NAV = [
  ['inventory', '#/', 'Inventory'],
  ['machines', '#/machines', 'Machines'],
  ['entities', '#/entities', 'Entities'],
  ['playground', '#/playground', 'API playground'],
  ['graphql', '#/graphql', 'GraphQL'],
];

function App() {
  const route = useRoute();
  const catalog = useAsync(loadCatalog, []);
  const [epoch, setEpoch] = useState(0); // a saved token re-reads the page
  const [signedIn, setSignedIn] = useState(0); // a sign-in shows its token in the token box
  const page = catalog.data ? pageOf(route, catalog.data) : null;
  useEffect(() => {
    if (page) document.title = `${page.title} · netinv`;
  }, [page?.title]);
  return html`<a
      class="skip"
      href="#view"
      onClick=${(e: Event) => {
        e.preventDefault();
        document.getElementById('view')?.focus();
      }}
      >Skip to content</a
    >
    <header class="top">
      <a class="brand" href="#/">netinv</a>
      <nav aria-label="Main">
        ${NAV.map(
          ([k, to, text]) =>
            html`<a href=${to} data-page=${k} aria-current=${page?.nav === k ? 'page' : undefined}>${text}</a>`,
        )}
        <a href="/docs">API docs</a>
      </nav>
      <${LoginBox}
        onSaved=${() => {
          setSignedIn((n) => n + 1);
          setEpoch((n) => n + 1);
        }}
      />
      <${TokenBox} key=${signedIn} onSaved=${() => setEpoch((n) => n + 1)} />
      <${ThemeToggle} />
    </header>
    <main id="view" tabindex="-1" key=${epoch}>
      ${page ? page.view : html`<${Loading} error=${catalog.error} />`}
    </main>`;
}

const root = document.getElementById('app')!;
root.replaceChildren(); // the page's "Loading…" placeholder: render() keeps what it did not create
render(html`<${App} />`, root);
