// An object's records in the change log, newest first (docs/changes.md).
import { html } from '../lib/html.js';
import { enc, request } from '../lib/api.js';
import { useAsync } from '../lib/use-async.js';
import { formatTime } from '../lib/format.js';
import { Loading } from './message.js';

/** What changed between two snapshots, as `field: old → new` words. */
export function changedFields(before: unknown, after: unknown): string {
  if (!before || typeof before !== 'object' || !after || typeof after !== 'object') return '';
  const a = before as Record<string, unknown>;
  const b = after as Record<string, unknown>;
  return Object.keys(b)
    .filter((k) => k !== 'last_updated' && JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .map((k) => `${k}: ${short(a[k])} → ${short(b[k])}`)
    .join('; ');
}
const short = (v: unknown) =>
  v === null || v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** `by` picks the object: its id, or (entities, which have none) its `object_repr`. */
export function ChangeLog({
  type,
  by,
  describe = changedFields,
}: {
  type: string;
  by: readonly [string, string];
  describe?: (before: unknown, after: unknown) => string;
}) {
  const path =
    `/api/extras/object-changes/?changed_object_type=${enc(type)}&${by[0]}=${enc(by[1])}` + '&ordering=-seq&limit=50';
  const got = useAsync(() => request('GET', path), [path]);
  const r = got.data;
  if (!r) return html`<${Loading} error=${got.error} />`;
  if (!r.ok) {
    const why =
      r.status === 403
        ? 'this token may not read the change log (extras.view_objectchange)'
        : `${r.status} ${r.body?.detail ?? ''}`;
    return html`<p class="muted changes">Change log: ${why}.</p>`;
  }
  const rows: any[] = r.body.results;
  const shown = rows.length < r.body.count ? `newest ${rows.length} of ${r.body.count}` : rows.length;
  return html`<table class="grid changes">
    <caption>Change log (${shown}, newest first) — <a href=${path}>as JSON</a></caption>
    <thead>
      <tr>
        ${['Seq', 'When', 'Action', 'Change', 'User', 'Request'].map((t) => html`<th scope="col">${t}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (c) =>
          html`<tr>
            <td>${c.seq}</td>
            <td>${formatTime(c.time)}</td>
            <td>${c.action?.label ?? String(c.action)}</td>
            <td>${describe(c.prechange_data, c.object_data)}</td>
            <td>${c.user_name}</td>
            <td><code>${c.request_id}</code></td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}
