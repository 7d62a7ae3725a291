// The page of one object: its fields, the objects that point at it (found from the document's
// foreign keys), what its resource adds (a prefix's parent chain, children and addresses), edit and
// delete when the token may, and its change log.
import { useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { errorText, request } from '../lib/api.js';
import { useAsync } from '../lib/use-async.js';
import { loadOptions, type Catalog } from '../lib/catalog.js';
import { relatedTo, type Resource } from '../lib/openapi.js';
import { go } from '../lib/route.js';
import { Cell } from '../components/cell.js';
import { ChangeLog } from '../components/change-log.js';
import { RelatedList } from '../components/related-list.js';
import { Loading, Message } from '../components/message.js';
import { extrasFor } from './detail-extras.js';

export function DetailPage({ catalog, resource, id }: { catalog: Catalog; resource: Resource; id: string }) {
  const objPath = `${resource.listPath}${encodeURIComponent(id)}/`;
  const got = useAsync(() => request('GET', objPath), [objPath]);
  const options = useAsync(() => loadOptions(objPath), [objPath]);
  const [deleteError, setDeleteError] = useState('');
  const r = got.data;
  if (!r) return html`<${Loading} error=${got.error} />`;
  if (!r.ok) return html`<${Message} kind="error">${errorText(r)}</${Message}>`;
  const o = r.body;
  const canChange = !!options.data?.actions?.PUT;
  const remove = async () => {
    if (!confirm(`Delete ${resource.label.toLowerCase()} ${o.display}?`)) return;
    const d = await request('DELETE', objPath);
    if (d.ok) go(`/${resource.key}`);
    else setDeleteError(errorText(d));
  };
  const shown = resource.columns.filter((c) => !['url', 'display'].includes(c.name));
  const Extras = extrasFor(resource);
  return html`<div class="page detail-page">
    <p class="crumbs"><a href=${`#/${resource.key}`}>${resource.title}</a></p>
    <div class="page-head">
      <h1>${resource.label} <span data-testid="object-display">${o.display}</span></h1>
      ${
        canChange
          ? html`<a class="button" href=${`#/${resource.key}/${id}/edit`}>Edit</a>
              <button type="button" class="danger" onClick=${remove}>Delete</button>`
          : null
      }
    </div>
    ${deleteError ? html`<${Message} kind="error">${deleteError}</${Message}>` : null}
    <div class="detail-grid">
      <table class="grid fields" aria-label="Fields">
        <tbody>
          ${shown.map(
            (c) =>
              html`<tr>
                <th scope="row">${c.title}</th>
                <td>
                  ${
                    c.name === 'custom_fields'
                      ? html`<code>${JSON.stringify(o[c.name])}</code>`
                      : html`<${Cell} value=${o[c.name]} />`
                  }
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
      <div class="related-col">
        ${Extras ? html`<${Extras} catalog=${catalog} object=${o} />` : null}
        ${relatedTo(catalog.resources, resource.schema)
          .filter(({ resource: rr }) => !(Extras && rr.key === resource.key))
          .map(
            ({ resource: rr, field }) =>
              html`<${RelatedList}
                title=${`${rr.title} (${field.replace(/_id$/, '')})`}
                resource=${rr}
                pairs=${[[field, id]]}
              />`,
          )}
      </div>
    </div>
    <${ChangeLog} type=${resource.contentType} by=${['changed_object_id', id]} />
  </div>`;
}
