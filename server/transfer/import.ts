// A CSV or YAML import: `POST` on a list with `Content-Type: text/csv` or `application/yaml`. The body is
// read as bytes (express.raw), checked as UTF-8 (a BOM is dropped), parsed by csv-parse or yaml into
// records of cells by column, and imported all or nothing (app/transfer/import.ts).
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { AppContext } from '../context.js';
import type { ResourceDef } from '../../engine/schema/types.js';
import { headerErrors, importColumns, importRecords, type ImportError } from '../../app/transfer/import.js';
import { csvError, parseCsv, parseYaml } from '../../app/transfer/parse.js';
import { parse } from 'csv-parse/sync';
import { createJob } from '../../app/jobs/job-store.js';
import { jobView } from '../routes/jobs.js';
import { baseUrl } from '../routes/request-url.js';
import { permissionFor, refusal } from '../auth.js';
import { constrainedFor } from '../../app/write-scope.js';
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

function refused(res: Response, errors: readonly ImportError[], status = 400): void {
  res.status(status).json({ errors: errors.slice(0, LISTED), count: errors.length });
}

const BACKGROUND: Record<string, boolean> = {
  true: true,
  True: true,
  '1': true,
  false: false,
  False: false,
  '0': false,
};

/** `?background=`: true, false (absent), or null for a value that is neither. */
const backgroundParam = (v: unknown): boolean | null =>
  v === undefined ? false : typeof v === 'string' && v in BACKGROUND ? BACKGROUND[v] : null;

/** The header's columns (CSV: its first record; YAML: every mapping's keys), or the errors. */
function headerOf(text: string, csv: boolean): string[] | ImportError[] {
  if (!csv) {
    const parsed = parseYaml(text);
    return 'errors' in parsed ? [...parsed.errors] : parsed.header;
  }
  try {
    return (parse(text, { to: 1 }) as string[][])[0] ?? [];
  } catch (e) {
    return [csvError(e)];
  }
}

/**
 * `?background=true`: the header checked now (columns, and the change permission for an `id` column),
 * the file stored with a new job, 202 with the job; the rows are checked and written by the job
 * (app/jobs/), all or nothing, with no IMPORT_MAX_ROWS.
 */
async function answerBackground(ctx: AppContext, r: ResourceDef, req: Request, res: Response, text: string) {
  const csv = !!req.is(CSV_TYPES);
  const header = headerOf(text, csv);
  if (header.length && typeof header[0] !== 'string') return refused(res, header as ImportError[]);
  const bad = headerErrors(await importColumns(ctx.inventory, r), header as string[]);
  if (bad.length) return refused(res, bad);
  const no = (header as string[]).includes('id') ? refusal(req.principal, permissionFor(r, 'change')) : null;
  if (no) {
    res.status(no.status).json({ detail: no.detail });
    return;
  }
  const row = await createJob(ctx.storage, {
    r,
    format: csv ? 'csv' : 'yaml',
    text,
    user: req.principal?.name ?? '',
    requestId: String(res.get('X-Request-Id') ?? ''),
  });
  ctx.jobs.enqueue(row.id);
  const view = jobView(baseUrl(req), row, ctx.storage.ids);
  res.status(202).location(String(view.url)).json(view);
}

/** Answers a CSV / YAML import on the list of `r`. */
export async function answerImport(ctx: AppContext, r: ResourceDef, req: Request, res: Response): Promise<void> {
  const text = utf8(req.body as Buffer);
  if (typeof text !== 'string') return refused(res, [text]);
  const background = backgroundParam(req.query.background);
  if (background === null) {
    res.status(400).json({ background: ['Expected true or false.'] });
    return;
  }
  // An import writes through paths that do not apply object permission constraints yet (staged, or as a job).
  const constrained = ['add', 'change'].some((a) => constrainedFor(req.principal, r, a));
  if (constrained) {
    res.status(403).json({
      detail: 'An import needs permissions without constraints; write the objects through the API instead.',
      code: 'permission_denied',
    });
    return;
  }
  if (background) return answerBackground(ctx, r, req, res, text);
  const parsed = req.is(CSV_TYPES) ? parseCsv(text) : parseYaml(text);
  if ('errors' in parsed) return refused(res, parsed.errors);
  const max = ctx.config.importMaxRows;
  if (parsed.records.length > max) {
    res.status(413).json({
      detail:
        `The file has ${parsed.records.length} rows; an import takes at most ${max} (IMPORT_MAX_ROWS). ` +
        'Send it with ?background=true to import it as a background job, split it, or raise IMPORT_MAX_ROWS.',
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
