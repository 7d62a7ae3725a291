// The prefix hierarchy: the containment tree under a prefix, its direct children a page at a time
// (the `parent` filter, answered from the containment index), the free blocks between them
// (available-prefixes) and a utilisation bar for each prefix opened. Only what is on screen is asked for.
import { useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { enc, errorText, request } from '../lib/api.js';
import { useAsync } from '../lib/use-async.js';
import type { Catalog } from '../lib/catalog.js';
import { parseBlock, usedShare, type Block } from '../lib/ip.js';
import { Loading, Message } from '../components/message.js';

/** Children asked for at a time: about a screenful. */
export const CHILD_PAGE = 50;

interface Row {
  kind: 'prefix' | 'free';
  prefix: string;
  block: Block;
  object?: any;
}

function UseBar({ share }: { share: number }) {
  const pct = Math.round(share * 1000) / 10;
  return html`<span
    class="usebar"
    role="meter"
    aria-valuemin="0"
    aria-valuemax="100"
    aria-valuenow=${pct}
    aria-label="Utilisation"
  >
    <span class="usebar-fill" style=${`width: ${pct}%`}></span><span class="usebar-text">${pct}%</span></span
  >`;
}

/** The children of one prefix with the free space between them; children open in place. */
function Level({ object, depth }: { object: any; depth: number }) {
  const [pages, setPages] = useState(1);
  const got = useAsync(async () => {
    const [kids, free] = await Promise.all([
      // A list page carries `children` only when asked by fields=. `parent` by CIDR, not id: the
      // server turns only a UUID into its prefix (an integer store's `parent=17` names no prefix).
      request(
        'GET',
        `/api/ipam/prefixes/?parent=${enc(object.prefix)}&fields=id,url,display,prefix,status,description,children` +
          `&limit=${CHILD_PAGE * pages}&offset=0`,
      ),
      request('GET', `/api/ipam/prefixes/${object.id}/available-prefixes/`),
    ]);
    return { kids, free };
  }, [object.id, pages]);
  if (!got.data) return html`<li class="tree-loading"><${Loading} error=${got.error} /></li>`;
  const { kids, free } = got.data;
  if (!kids.ok) return html`<li><${Message} kind="error">${errorText(kids)}</${Message}></li>`;
  const freeBlocks: Row[] = free.ok
    ? free.body.map((f: any) => ({ kind: 'free', prefix: f.prefix, block: parseBlock(f.prefix)! }))
    : [];
  const children: Row[] = kids.body.results.map((o: any) => ({
    kind: 'prefix',
    prefix: o.prefix,
    block: parseBlock(o.prefix)!,
    object: o,
  }));
  const complete = !kids.body.next;
  const last = children[children.length - 1]?.block.network;
  const rows = [
    ...children,
    ...freeBlocks.filter((f) => complete || last === undefined || f.block.network < last),
  ].sort((x, y) => (x.block.network < y.block.network ? -1 : x.block.network > y.block.network ? 1 : 0));
  return html`${rows.map((r) =>
    r.kind === 'free'
      ? html`<li class="tree-row tree-free" data-testid="free-block">
          <span class="tree-prefix">${r.prefix}</span> <span class="muted">free</span>
        </li>`
      : html`<${Node} object=${r.object} depth=${depth} />`,
  )}
  ${
    !complete
      ? html`<li class="tree-row">
          <button type="button" class="small" onClick=${() => setPages(pages + 1)}>
            Show more children (${children.length} of ${kids.body.count})
          </button>
        </li>`
      : null
  }`;
}

function Node({ object, depth, open: startOpen = false }: { object: any; depth: number; open?: boolean }) {
  const [open, setOpen] = useState(startOpen);
  const kids = object.children;
  const free = useAsync(
    async () => (open ? request('GET', `/api/ipam/prefixes/${object.id}/available-prefixes/`) : null),
    [object.id, open],
  );
  const block = parseBlock(object.prefix)!;
  const share = free.data?.ok
    ? usedShare(
        block,
        free.data.body.map((f: any) => parseBlock(f.prefix)!),
      )
    : null;
  return html`<li class="tree-row" data-testid="tree-node" aria-expanded=${kids ? open : undefined}>
    <div class="tree-line">
      ${
        kids
          ? html`<button
              type="button"
              class="tree-toggle"
              aria-label=${`${open ? 'Close' : 'Open'} ${object.prefix}`}
              onClick=${() => setOpen(!open)}
            >
              ${open ? '▾' : '▸'}
            </button>`
          : html`<span class="tree-toggle"></span>`
      }
      <a class="tree-prefix" href=${`#/ipam/prefixes/${object.id}`}>${object.prefix}</a>
      <span class="muted">${object.status?.label ?? ''}</span>
      ${kids !== undefined ? html`<span class="badge">${kids} child${kids === 1 ? '' : 'ren'}</span>` : null}
      ${share !== null ? html`<${UseBar} share=${share} />` : null}
      <span class="muted tree-desc">${object.description}</span>
    </div>
    ${
      open
        ? html`<ul class="tree">
            ${html`<${Level} object=${object} depth=${depth + 1} />`}
          </ul>`
        : null
    }
  </li>`;
}

export function HierarchyPage({ id }: { catalog: Catalog; id: string }) {
  const got = useAsync(() => request('GET', `/api/ipam/prefixes/${encodeURIComponent(id)}/`), [id]);
  if (!got.data) return html`<${Loading} error=${got.error} />`;
  if (!got.data.ok) return html`<${Message} kind="error">${errorText(got.data)}</${Message}>`;
  const root = got.data.body;
  return html`<div class="page hierarchy-page">
    <p class="crumbs">
      <a href="#/ipam/prefixes">Prefixes</a> / <a href=${`#/ipam/prefixes/${root.id}`}>${root.prefix}</a>
    </p>
    <h1>Hierarchy under ${root.prefix}</h1>
    ${
      root.parent
        ? html`<p><a href=${`#/ipam/prefixes/${root.parent.id}/tree`}>Up to ${root.parent.display}</a></p>`
        : null
    }
    <ul class="tree tree-root" data-testid="hierarchy">
      <${Node} object=${root} depth=${0} open=${true} />
    </ul>
  </div>`;
}
