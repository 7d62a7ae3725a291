// A CSV or YAML file as records of cells by column: the whole text at once (a request's import), or a
// CSV a part at a time (a background job's file, app/jobs/import-job.ts), with csv-parse and yaml.
import { parse as parseStream } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import YAML from 'yaml';
import type { ImportError } from './import.js';

export type Parsed = { header: string[]; records: Record<string, string>[] } | { errors: ImportError[] };

/** csv-parse's error as the row it stopped at (the header is row 0). */
export function csvError(e: unknown): ImportError {
  const err = e as Error & { records?: number; code?: string };
  const row = typeof err.records === 'number' ? err.records : 0;
  const detail =
    err.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH'
      ? `Row ${row} has a different number of cells than the header.`
      : `CSV parse error: ${err.message}`;
  return { row, field: null, detail };
}

export function parseCsv(text: string): Parsed {
  let rows: string[][];
  try {
    rows = parse(text, { skip_empty_lines: true, relax_column_count: false });
  } catch (e) {
    return { errors: [csvError(e)] };
  }
  const [header = [], ...data] = rows;
  return { header, records: data.map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i]]))) };
}

/** The CSV records (the header first) of a text given in parts, each part read as the parser needs it. */
export async function* csvRecords(parts: AsyncIterable<string>): AsyncGenerator<string[]> {
  const parser = parseStream({ skip_empty_lines: true, relax_column_count: false });
  const feed = (async () => {
    for await (const text of parts) {
      if (parser.destroyed) return;
      if (!parser.write(text))
        await new Promise<void>((res) => {
          // Whichever comes first removes the other: a listener left per wait would pile up on the parser.
          const go = () => {
            parser.off('drain', go);
            parser.off('close', go);
            res();
          };
          parser.once('drain', go);
          parser.once('close', go);
        });
    }
    if (!parser.destroyed) parser.end();
  })().catch((e: Error) => parser.destroy(e));
  try {
    for await (const cells of parser) yield cells as string[];
  } finally {
    parser.destroy();
    await feed;
  }
}

const cellOf = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

export function parseYaml(text: string): Parsed {
  let doc: unknown;
  try {
    doc = YAML.parse(text);
  } catch (e) {
    return { errors: [{ row: 0, field: null, detail: `YAML parse error - ${(e as Error).message.split('\n')[0]}` }] };
  }
  if (!Array.isArray(doc)) return { errors: [{ row: 0, field: null, detail: 'Expected a list of mappings.' }] };
  const header: string[] = [];
  const records: Record<string, string>[] = [];
  const errors: ImportError[] = [];
  doc.forEach((item: unknown, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      errors.push({ row: i + 1, field: null, detail: 'Expected a mapping of column to value.' });
      return;
    }
    const rec: Record<string, string> = {};
    for (const [k, v] of Object.entries(item)) {
      if (!header.includes(k)) header.push(k);
      rec[k] = cellOf(v);
    }
    records.push(rec);
  });
  return errors.length ? { errors } : { header, records };
}
