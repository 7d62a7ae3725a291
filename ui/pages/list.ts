// A list page of any inventory resource: filter bar, table ordered by column, paging, the query as a
// query string and a curl command, the way to its explain view, and export and import as CSV or YAML.
// Everything comes from the resource's list operation in the OpenAPI document and its OPTIONS.
import { useMemo, useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { request } from '../lib/api.js';
import { useAsync } from '../lib/use-async.js';
import { loadOptions } from '../lib/catalog.js';
import { CONTROL_PARAMS, listColumns, type Resource } from '../lib/openapi.js';
import { curlCommand, toSearch, withParam, type Pair } from '../lib/query.js';
import { go, href } from '../lib/route.js';
import { FilterBar } from '../components/filter-bar.js';
import { Pager } from '../components/pager.js';
import { CopyBox } from '../components/copy-box.js';
import { Cell } from '../components/cell.js';
import { ExportButtons } from '../components/export-buttons.js';
import { ImportPanel } from '../components/import-panel.js';
import { Loading, Message } from '../components/message.js';

export const PAGE_SIZE = 50;

function choicesOf(options: Awaited<ReturnType<typeof loadOptions>>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, meta] of Object.entries(options?.actions?.POST ?? {}))
    if (meta.choices) out[name] = meta.choices.map((c) => c.value);
  return out;
}

export function ListPage({ resource, pairs }: { resource: Resource; pairs: readonly Pair[] }) {
  const path = `/${resource.key}`;
  const filters = pairs.filter(([k]) => !CONTROL_PARAMS.has(k));
  const ordering = pairs.find(([k]) => k === 'ordering')?.[1] ?? '';
  const offset = Number(pairs.find(([k]) => k === 'offset')?.[1] ?? 0) || 0;
  const apiPairs: Pair[] = [
    ...filters,
    ...(ordering ? [['ordering', ordering] as Pair] : []),
    ['limit', String(PAGE_SIZE)],
    ['offset', String(offset)],
  ];
  const qs = toSearch(apiPairs);
  const page = useAsync(() => request('GET', `${resource.listPath}?${qs}`), [resource.listPath, qs]);
  const options = useAsync(() => loadOptions(resource.listPath), [resource.listPath]);
  const choices = useMemo(() => choicesOf(options.data ?? null), [options.data]);
  const { first, columns } = columnsOf(resource, page.data?.ok ? page.data.body.results : []);
  const errors: Record<string, string[]> = page.data && page.data.status === 400 ? page.data.body : {};
  const setFilters = (next: Pair[]) => go(path, [...next, ...(ordering ? [['ordering', ordering] as Pair] : [])]);
  const orderBy = (name: string) =>
    go(path, withParam(withParam(pairs, 'offset', null), 'ordering', ordering === name ? `-${name}` : name));
  const canAdd = !!options.data?.actions?.POST;
  const r = page.data;

  return html`<div class="page list-page">
    <${ListHead} resource=${resource} pairs=${apiPairs} canAdd=${canAdd} onImported=${page.reload} />
    <${FilterBar} resource=${resource} pairs=${filters} errors=${errors} choices=${choices} onChange=${setFilters} />
    <div class="query-tools">
      <${CopyBox}
        label="Query"
        text=${`${resource.listPath}${filters.length ? `?${toSearch(filters)}` : ''}`}
        testid="query-string"
      />
      <${CopyBox} label="curl" text=${curlCommand(location.origin, resource.listPath, apiPairs)} testid="curl" />
      <a href=${href(`/explain${path}`, [...filters, ...(ordering ? [['ordering', ordering] as Pair] : [])])}
        >Explain this query</a
      >
    </div>
    ${
      !r
        ? html`<${Loading} error=${page.error} />`
        : r.status === 400
          ? html`<${Message} kind="error">The API refused this query (400); see the filters above.</${Message}>`
          : !r.ok
            ? html`<${Message} kind="error">${r.status}: ${r.body?.detail ?? r.text}</${Message}>`
            : html`<table class="grid list" aria-busy=${page.loading}>
                  <caption>
                    ${r.body.count} ${
                      r.body.count === 1 ? resource.label.toLowerCase() : resource.title.toLowerCase()
                    } <span class="muted">(${r.ms} ms)</span>
                  </caption>
                  <thead>
                    <tr>
                      ${[first, ...columns].map((c) => headerCell(c, resource, ordering, orderBy))}
                    </tr>
                  </thead>
                  <tbody>
                    ${r.body.results.map((o: any) => resultRow(o, path, columns))}
                  </tbody>
                </table>
                <${Pager}
                  offset=${offset}
                  shown=${r.body.results.length}
                  count=${r.body.count}
                  limit=${PAGE_SIZE}
                  href=${(o: number) => href(path, withParam(pairs, 'offset', o ? String(o) : null))}
                />`
    }
  </div>`;
}

/** The title, "Export CSV" / "Export YAML" of the page's query, and, where the token may add, "Import" and "Add". */
function ListHead(p: { resource: Resource; pairs: readonly Pair[]; canAdd: boolean; onImported: () => void }) {
  const { resource, canAdd } = p;
  const [importing, setImporting] = useState(false);
  const toggle = () => setImporting(!importing);
  return html`<div class="page-head">
      <h1>${resource.title}</h1>
      <${ExportButtons} listPath=${resource.listPath} plural=${resource.plural} pairs=${p.pairs} />
      ${
        canAdd
          ? html`<button type="button" class="small" aria-expanded=${importing} onClick=${toggle}>
                Import
              </button>
              <a class="button" href=${`#/${resource.key}/new`}>Add ${resource.label.toLowerCase()}</a>`
          : null
      }
    </div>
    ${
      importing
        ? html`<${ImportPanel} listPath=${resource.listPath} title=${resource.title} onImported=${p.onImported} />`
        : null
    }`;
}

type Column = { readonly name: string; readonly title: string };

/** The columns shown: the display first, then up to seven more. */
function columnsOf(resource: Resource, rows: readonly any[]): { first: Column; columns: Column[] } {
  // The column the display repeats (a prefix's `prefix`, a site's `name`) is the first column, not a second.
  const all = listColumns(resource, 8);
  const same = rows.length
    ? all.find((c) => rows.every((o) => typeof o[c.name] === 'string' && o[c.name] === o.display))
    : undefined;
  const columns = all.filter((c) => c !== same).slice(0, 7);
  return { first: { name: same?.name ?? 'display', title: resource.label }, columns };
}

/** A column's header, a button ordering by it where the API can. */
function headerCell(c: Column, resource: Resource, ordering: string, orderBy: (name: string) => void) {
  const sortable = resource.orderable.includes(c.name);
  const sort = ordering === c.name ? 'ascending' : ordering === `-${c.name}` ? 'descending' : undefined;
  return html`<th scope="col" aria-sort=${sort}>
    ${
      sortable
        ? html`<button type="button" class="th-sort" onClick=${() => orderBy(c.name)}>
            ${c.title}${sort === 'ascending' ? ' ▲' : sort === 'descending' ? ' ▼' : ''}
          </button>`
        : c.title
    }
  </th>`;
}

function resultRow(o: any, path: string, columns: readonly Column[]) {
  return html`<tr>
    <td><a href=${`#${path}/${o.id}`}>${o.display ?? o.id}</a></td>
    ${columns.map((c) => html`<td><${Cell} value=${o[c.name]} /></td>`)}
  </tr>`;
}
