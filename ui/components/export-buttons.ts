// "Export CSV" / "Export YAML" of a list with the page's filters and ordering: the file is fetched with the
// token and saved by the browser (lib/transfer.ts).
import { useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import type { Pair } from '../lib/query.js';
import { downloadExport, exportPath, FORMATS, type Format } from '../lib/transfer.js';

export function ExportButtons({
  listPath,
  plural,
  pairs,
}: {
  listPath: string;
  plural: string;
  pairs: readonly Pair[];
}) {
  const [busy, setBusy] = useState<Format | null>(null);
  const [error, setError] = useState('');
  const run = async (format: Format) => {
    setBusy(format);
    setError('');
    const r = await downloadExport(exportPath(listPath, pairs, format), `${plural}.${FORMATS[format].ext}`);
    setBusy(null);
    if ('error' in r) setError(`Export refused: ${r.error}`);
  };
  return html`<div class="export-buttons" role="group" aria-label="Export">
    ${(Object.keys(FORMATS) as Format[]).map(
      (f) =>
        html`<button type="button" class="small" disabled=${busy !== null} onClick=${() => run(f)}>
          Export ${FORMATS[f].label}
        </button>`,
    )}
    <span class=${error ? 'field-error' : 'muted'} role="status">${busy ? 'Exporting…' : error}</span>
  </div>`;
}
