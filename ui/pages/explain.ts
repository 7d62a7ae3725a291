// The explain view: a list query's `explain=true` drawn as the plan tree. On memory each node shows
// the index that found its candidates and how many; on SQL the database's own plan follows, node by
// node with its index, estimated rows and cost. The time is the server's.
import type { ComponentChildren } from 'preact';
import { html } from '../lib/html.js';
import { request } from '../lib/api.js';
import { useAsync } from '../lib/use-async.js';
import { toSearch, type Pair } from '../lib/query.js';
import { href } from '../lib/route.js';
import type { Resource } from '../lib/openapi.js';
import { FilterBar } from '../components/filter-bar.js';
import { CopyBox } from '../components/copy-box.js';
import { Loading, Message } from '../components/message.js';
import { go } from '../lib/route.js';

interface PlanNode {
  text: string;
  kind: string;
  children?: PlanNode[];
  child?: PlanNode;
  plan?: PlanNode;
}
interface Trace {
  predicate: string;
  index: string;
  candidates: number | null;
}

function kids(n: PlanNode): PlanNode[] {
  return n.children ?? (n.child ? [n.child] : n.plan ? [n.plan] : []);
}

function NodeBox({
  title,
  kind,
  children,
  facts,
}: {
  title: string;
  kind: string;
  facts: ComponentChildren;
  children?: ComponentChildren;
}) {
  return html`<li class="plan-node" data-kind=${kind}>
    <div class="plan-box" tabindex="0"><span class="plan-kind">${kind}</span> <code>${title}</code> ${facts}</div>
    ${
      children
        ? html`<ul class="plan-tree">
            ${children}
          </ul>`
        : null
    }
  </li>`;
}

function MemoryNode({ node, traces }: { node: PlanNode; traces: readonly Trace[] }) {
  const t = traces.find((x) => x.predicate === node.text);
  const facts = t
    ? html`<span class="plan-index" data-testid="plan-index">index: ${t.index}</span>
        <span class="plan-count">${t.candidates === null ? 'every row tested' : `${t.candidates} candidates`}</span>`
    : null;
  const sub = kids(node);
  const title = node.kind === 'and' || node.kind === 'or' || node.kind === 'not' ? '' : node.text;
  return html`<${NodeBox} kind=${node.kind} title=${title} facts=${facts}>
    ${sub.length ? sub.map((c) => html`<${MemoryNode} node=${c} traces=${traces} />`) : null}</${NodeBox}>`;
}

/** A PostgreSQL (`Plan`/`Plans`) or MySQL (`query_block`) plan node. */
function DbNode({ node }: { node: any }) {
  if (node['Node Type']) {
    const facts = html`${node['Index Name'] ? html`<span class="plan-index">index: ${node['Index Name']}</span>` : null}
      <span class="plan-count">${node['Plan Rows']} rows est.</span> <span class="muted">cost ${
        node['Total Cost']
      }</span>`;
    const sub: any[] = node.Plans ?? [];
    return html`<${NodeBox} kind=${node['Node Type']} title=${node['Relation Name'] ?? ''} facts=${facts}>
      ${sub.length ? sub.map((c) => html`<${DbNode} node=${c} />`) : null}</${NodeBox}>`;
  }
  return html`<li class="plan-node"><pre>${JSON.stringify(node, null, 2)}</pre></li>`;
}

export function ExplainPage({ resource, pairs }: { resource: Resource; pairs: readonly Pair[] }) {
  const qs = toSearch([...pairs, ['explain', 'true']]);
  const got = useAsync(() => request('GET', `${resource.listPath}?${qs}`), [resource.listPath, qs]);
  const r = got.data;
  const errors = r && r.status === 400 ? r.body : {};
  const e = r?.ok ? r.body : null;
  const dbPlan = e?.execution?.database_plan;
  return html`<div class="page explain-page">
    <p class="crumbs"><a href=${href(`/${resource.key}`, pairs)}>${resource.title}: back to the list</a></p>
    <h1>Explain: ${resource.title.toLowerCase()}</h1>
    <${FilterBar}
      resource=${resource}
      pairs=${pairs}
      errors=${errors}
      choices=${{}}
      onChange=${(p: Pair[]) => go(`/explain/${resource.key}`, p)}
    />
    <${CopyBox} label="Query" text=${`${resource.listPath}?${qs}`} />
    ${
      !r
        ? html`<${Loading} error=${got.error} />`
        : !r.ok
          ? r.status === 400
            ? null
            : html`<${Message} kind="error">${r.status}: ${r.body?.detail ?? r.text}</${Message}>`
          : html`<section class="card explain" aria-label="Query plan">
              <p class="explain-facts">
                <span>storage <strong>${e.storage}</strong></span>
                <span data-testid="explain-time"
                  >time <strong>${e.ms ?? '?'} ms</strong> on the server (${r.ms} ms round trip)</span
                >
                ${e.execution?.strategy ? html`<span>strategy <strong>${e.execution.strategy}</strong></span>` : null}
                ${
                  e.execution?.candidates !== undefined
                    ? html`<span>candidates <strong>${e.execution.candidates}</strong></span>`
                    : null
                }
                ${
                  e.execution?.matched !== undefined
                    ? html`<span>matched <strong data-testid="explain-matched">${e.execution.matched}</strong></span>`
                    : null
                }
              </p>
              <p><code>${e.plan}</code></p>
              <ul class="plan-tree plan-root" data-testid="plan-tree">
                <${MemoryNode} node=${e.tree} traces=${e.execution?.predicates ?? []} />
              </ul>
              ${
                e.execution?.page
                  ? html`<p class="muted">Page: ordering ${e.execution.page.ordering}, ${e.execution.page.method}.</p>`
                  : null
              }
              ${
                e.execution?.sql
                  ? html`<h2>SQL</h2>
                      <pre>${e.execution.sql}</pre>
                      <p class="muted">Parameters: ${JSON.stringify(e.execution.params)}</p>`
                  : null
              }
              ${
                dbPlan
                  ? html`<h2>Database plan</h2>
                      <ul class="plan-tree plan-root">
                        ${
                          Array.isArray(dbPlan)
                            ? dbPlan.map((p: any) => html`<${DbNode} node=${p.Plan ?? p} />`)
                            : html`<${DbNode} node=${dbPlan} />`
                        }
                      </ul>`
                  : null
              }
              ${e.ignored?.length ? html`<p class="muted">Ignored parameters: ${e.ignored.join(', ')}</p>` : null}
            </section>`
    }
  </div>`;
}
