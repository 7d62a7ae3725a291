// The preview of a file to import: its header and first rows, numbered as the server numbers them (the
// first row under the header is 1), with the server's errors shown against their rows and cells. A row
// with an error beyond the first rows is shown too, after a gap.
import { html } from '../lib/html.js';
import type { Table } from '../lib/import-parse.js';
import type { RowError } from '../lib/transfer.js';

export const PREVIEW_ROWS = 10;

/** Row numbers shown: the first PREVIEW_ROWS, then every row an error names. */
function shownRows(table: Table, errors: readonly RowError[]): number[] {
  const rows = new Set<number>();
  for (let n = 1; n <= Math.min(PREVIEW_ROWS, table.rows.length); n++) rows.add(n);
  for (const e of errors) if (e.row >= 1 && e.row <= table.rows.length) rows.add(e.row);
  return [...rows].sort((a, b) => a - b);
}

const errorLine = (e: RowError) => html`<div>${e.field ? html`<strong>${e.field}</strong>: ` : ''}${e.detail}</div>`;

function rowView(table: Table, n: number, errors: readonly RowError[], gapBefore: boolean) {
  const mine = errors.filter((e) => e.row === n);
  const badFields = new Set(mine.map((e) => e.field));
  const cells = table.rows[n - 1];
  const gap = gapBefore ? html`<tr class="preview-gap"><td colspan=${table.header.length + 2}>…</td></tr>` : null;
  return html`${gap}<tr data-row=${n} class=${mine.length ? 'row-bad' : undefined}>
      <th scope="row">${n}</th>
      ${table.header.map(
        (h, i) =>
          html`<td class=${badFields.has(h) ? 'cell-bad' : undefined} aria-invalid=${badFields.has(h) || undefined}>
            ${cells[i] ?? ''}
          </td>`,
      )}
      <td class="row-error">${mine.map(errorLine)}</td>
    </tr>`;
}

export function ImportPreview({ table, errors }: { table: Table; errors: readonly RowError[] }) {
  const rows = shownRows(table, errors);
  const headerErrors = errors.filter((e) => e.row === 0);
  const elsewhere = errors.filter((e) => e.row > table.rows.length);
  const badHeader = new Set(headerErrors.map((e) => e.field));
  return html`<table class="grid preview" data-testid="import-preview">
    <caption>
      ${table.rows.length} ${table.rows.length === 1 ? 'row' : 'rows'}${
        table.rows.length > rows.length ? html` <span class="muted">(the first ${PREVIEW_ROWS} shown)</span>` : ''
      }
    </caption>
    <thead>
      <tr data-row="0" class=${headerErrors.length ? 'row-bad' : undefined}>
        <th scope="col">Row</th>
        ${table.header.map((h) => html`<th scope="col" class=${badHeader.has(h) ? 'cell-bad' : undefined}>${h}</th>`)}
        <th scope="col" class="row-error">
          Errors ${headerErrors.map(errorLine)}
        </th>
      </tr>
    </thead>
    <tbody>
      ${rows.map((n, i) => rowView(table, n, errors, i > 0 && rows[i - 1] !== n - 1))}
      ${elsewhere.map(
        (e) => html`<tr data-row=${e.row} class="row-bad">
          <th scope="row">${e.row}</th>
          <td colspan=${table.header.length}></td>
          <td class="row-error">${errorLine(e)}</td>
        </tr>`,
      )}
    </tbody>
  </table>`;
}
