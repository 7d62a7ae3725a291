// The import preview's reading of a file, by the packages the server parses it with (csv-parse's browser
// build, yaml), so the preview's rows are numbered as the server's errors are: the first row under the header
// is 1. Loaded only when a preview is drawn (a chunk of its own). The server is the judge: a file the preview
// reads may still be refused, and the preview reads ragged rows loosely to show them.
import { parse as parseCsv } from 'csv-parse/browser/esm/sync';
import { parse as parseYaml } from 'yaml';
import type { Format } from './transfer.js';

export interface Table {
  readonly header: string[];
  readonly rows: string[][];
}

const cellOf = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

function csvTable(text: string): Table {
  const [header = [], ...rows] = parseCsv(text, {
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    relax_quotes: true,
  }) as string[][];
  return { header, rows };
}

function yamlTable(text: string): Table {
  const doc: unknown = parseYaml(text.replace(/^\uFEFF/, ''));
  if (!Array.isArray(doc)) throw new Error('Expected a list of mappings.');
  const header: string[] = [];
  for (const item of doc)
    if (item && typeof item === 'object' && !Array.isArray(item))
      for (const k of Object.keys(item)) if (!header.includes(k)) header.push(k);
  const rows = doc.map((item) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? header.map((h) => cellOf((item as Record<string, unknown>)[h]))
      : [cellOf(item)],
  );
  return { header, rows };
}

/** The file as a table, or why the preview cannot read it. */
export function tableOf(text: string, format: Format): Table | { error: string } {
  try {
    return format === 'csv' ? csvTable(text) : yamlTable(text);
  } catch (e) {
    return { error: String((e as Error).message ?? e).split('\n')[0] };
  }
}
