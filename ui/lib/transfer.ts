// Export and import of a list as CSV or YAML (docs/import-export.md): the export's URL from the page's
// query, its download (fetched with the token, which the API takes only as a header, and saved from a Blob),
// the format of a file to import, and the import's POST.
import { request, tokenHeaders, type ApiResult } from './api.js';
import { toSearch, type Pair } from './query.js';

export type Format = 'csv' | 'yaml';

export const FORMATS: Record<Format, { label: string; type: string; ext: string }> = {
  csv: { label: 'CSV', type: 'text/csv', ext: 'csv' },
  yaml: { label: 'YAML', type: 'application/yaml', ext: 'yaml' },
};

/** Paging is the page's; an export is the whole filtered list. */
const NOT_EXPORTED = new Set(['limit', 'offset', 'format']);

/** The export of a list with the page's filters and ordering, without its paging. */
export function exportPath(listPath: string, pairs: readonly Pair[], format: Format): string {
  return `${listPath}?${toSearch([...pairs.filter(([k]) => !NOT_EXPORTED.has(k)), ['format', format]])}`;
}

/** The file name a `Content-Disposition: attachment; filename="…"` gives, else `fallback`. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? fallback;
}

/** Fetches an export with the token and hands it to the browser as a download; the API's words on a refusal. */
export async function downloadExport(path: string, fallbackName: string): Promise<{ ok: true } | { error: string }> {
  let res: Response;
  try {
    res = await fetch(path, { headers: tokenHeaders() });
  } catch (e) {
    return { error: `The API could not be reached: ${String(e)}` };
  }
  if (!res.ok) {
    const text = await res.text();
    let detail = text;
    try {
      detail = JSON.parse(text).detail ?? text;
    } catch {
      /* keep the text */
    }
    return { error: `${res.status}: ${detail}` };
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = fileNameOf(res.headers.get('content-disposition'), fallbackName);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000); // the download has started by then
  return { ok: true };
}

/** The format of a file to import: by its name's extension, else by its first line (`- ` or `---` is YAML). */
export function detectFormat(name: string, text: string): Format {
  if (/\.csv$/i.test(name)) return 'csv';
  if (/\.ya?ml$/i.test(name)) return 'yaml';
  const first =
    text
      .replace(/^\uFEFF/, '')
      .split('\n')
      .find((l) => l.trim() && !l.startsWith('#')) ?? '';
  return /^(---|- |-$)/.test(first.trim()) ? 'yaml' : 'csv';
}

/** POSTs an import (the file's own bytes when uploaded: the server checks their encoding). */
export function postImport(
  listPath: string,
  body: string | Blob,
  format: Format,
  background: boolean,
): Promise<ApiResult> {
  const path = background ? `${listPath}?background=true` : listPath;
  return request('POST', path, { body, headers: { 'Content-Type': FORMATS[format].type } });
}

/** One error of a refused import: `row` 0 is the header, `field` null the whole row. */
export interface RowError {
  readonly row: number;
  readonly field: string | null;
  readonly detail: string;
}

/** The errors of a 400 (or of a failed job), else none. */
export function rowErrors(body: unknown): RowError[] {
  const errors = (body as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors)
    ? errors
        .filter((e) => e && typeof e === 'object')
        .map((e) => ({
          row: typeof e.row === 'number' ? e.row : 0,
          field: typeof e.field === 'string' ? e.field : null,
          detail: String(e.detail ?? JSON.stringify(e)),
        }))
    : [];
}

/** What an import did, in words: `Created 2, updated 0, unchanged 1.` */
export function summaryOf(body: unknown): string | null {
  const b = body as { created?: unknown; updated?: unknown; unchanged?: unknown } | null;
  if (!b || typeof b.created !== 'number') return null;
  return `Created ${b.created}, updated ${Number(b.updated ?? 0)}, unchanged ${Number(b.unchanged ?? 0)}.`;
}
