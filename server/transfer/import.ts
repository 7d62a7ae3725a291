// A CSV or YAML import: `POST` on a list with `Content-Type: text/csv` or `application/yaml`. The body is
// read as bytes (express.raw), checked as UTF-8 (a BOM is dropped), parsed by csv-parse or yaml into
// records of cells by column, and imported all or nothing (app/transfer/import.ts).
import express, { type Request, type RequestHandler, type Response } from 'express';
import { parse } from 'csv-parse/sync';
import YAML from 'yaml';
import type { AppContext } from '../context.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import { headerErrors, importColumns, importRecords, type ImportError } from '../../app/transfer/import.js';
import { permissionFor, refusal } from '../auth.js';
import { YAML_TYPES } from '../yaml-body.js';

export const CSV_TYPES = ['text/csv', 'application/csv'];
const IMPORT_TYPES = [...CSV_TYPES, ...YAML_TYPES];
/** The largest import body read (IMPORT_MAX_ROWS bounds the rows). */
const IMPORT_BODY_BYTES = '256mb';
/** Errors listed in a 400 (`count` says how many there were). */
const LISTED = 100;

/** Reads a CSV or YAML body as bytes, for the inventory list paths; other bodies are left to their parsers. */
export function importBody(): RequestHandler {
  return express.raw({ type: IMPORT_TYPES, limit: IMPORT_BODY_BYTES });
}

export const isImport = (req: Request): boolean => Buffer.isBuffer(req.body) && !!req.is(IMPORT_TYPES);

type Parsed = { header: string[]; records: Record<string, string>[] } | { errors: ImportError[] };

/** The text, or the line (as a data row: the header's line is 0) where the bytes stop being UTF-8. */
function utf8(bytes: Buffer): string | ImportError {
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    let line = 0;
    for (let from = 0; from < body.length; line++) {
      const nl = body.indexOf(0x0a, from);
      const end = nl < 0 ? body.length : nl + 1;
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(body.subarray(from, end));
      } catch {
        break;
      }
      from = end;
    }
    return { row: line, field: null, detail: `Line ${line + 1} is not UTF-8: send the file encoded as UTF-8.` };
  }
}

function parseCsv(text: string): Parsed {
  let rows: string[][];
  try {
    rows = parse(text, { skip_empty_lines: true, relax_column_count: false });
  } catch (e) {
    const err = e as Error & { records?: number; lines?: number; code?: string };
    const row = typeof err.records === 'number' ? err.records : 0;
    const detail =
      err.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH'
        ? `Row ${row} has a different number of cells than the header.`
        : `CSV parse error: ${err.message}`;
    return { errors: [{ row, field: null, detail }] };
  }
  const [header = [], ...data] = rows;
  return { header, records: data.map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i]]))) };
}

const cellOf = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

function parseYaml(text: string): Parsed {
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

function refused(res: Response, errors: readonly ImportError[], status = 400): void {
  res.status(status).json({ errors: errors.slice(0, LISTED), count: errors.length });
}

/** Answers a CSV / YAML import on the list of `r`. */
export async function answerImport(ctx: AppContext, r: ResourceDef, req: Request, res: Response): Promise<void> {
  const text = utf8(req.body as Buffer);
  if (typeof text !== 'string') return refused(res, [text]);
  const parsed = req.is(CSV_TYPES) ? parseCsv(text) : parseYaml(text);
  if ('errors' in parsed) return refused(res, parsed.errors);
  const max = ctx.config.importMaxRows;
  if (parsed.records.length > max) {
    res.status(413).json({
      detail:
        `The file has ${parsed.records.length} rows; an import takes at most ${max} (IMPORT_MAX_ROWS). ` +
        'Split it, or raise IMPORT_MAX_ROWS.',
      code: 'too_many_rows',
    });
    return;
  }
  const columns = await importColumns(ctx.inventory, r);
  const bad = headerErrors(columns, parsed.header);
  if (bad.length) return refused(res, bad);
  const updates = parsed.header.includes('id') && parsed.records.some((rec) => (rec.id ?? '') !== '');
  const no = updates ? refusal(req.principal, permissionFor(r, 'change')) : null;
  if (no) {
    res.status(no.status).json({ detail: no.detail });
    return;
  }
  const out = await importRecords(ctx.inventory, r, columns, parsed.records);
  if (!out.ok) return refused(res, out.errors, out.status);
  res.status(200).json({ created: out.created, updated: out.updated, unchanged: out.unchanged });
}
