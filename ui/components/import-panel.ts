// "Import" on a list page: a file (a real file input) or pasted text, its format (detected from the file's
// name or its first line, and changeable), a preview of its first rows, then the POST with the format's
// Content-Type. A 400's errors are shown against their rows; a success says what was created and updated
// and reloads the list. "Run in the background" (or a 413 for too many rows) posts with ?background=true and
// shows the job's progress until it finishes.
import { useEffect, useRef, useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { errorText, type ApiResult } from '../lib/api.js';
import type { Table } from '../lib/import-parse.js';
import { jobUrl, pollJob, type JobState } from '../lib/job.js';
import {
  detectFormat,
  FORMATS,
  postImport,
  rowErrors,
  summaryOf,
  type Format,
  type RowError,
} from '../lib/transfer.js';
import { ImportPreview } from './import-preview.js';
import { JobProgress } from './job-progress.js';
import { Message } from './message.js';

interface Source {
  readonly name: string; // the file's name; '' for pasted text
  readonly text: string; // for the preview and the format's detection
  readonly body: string | Blob; // what is sent: an uploaded file's own bytes
}

interface Outcome {
  readonly kind: 'ok' | 'error' | 'info';
  readonly text: string;
}

/** The preview's table of a source, parsed in a chunk loaded on first use. */
function usePreview(source: Source | null, format: Format): Table | { error: string } | null {
  const [table, setTable] = useState<Table | { error: string } | null>(null);
  useEffect(() => {
    let live = true;
    if (!source?.text.trim()) setTable(null);
    else void import('../lib/import-parse.js').then((m) => live && setTable(m.tableOf(source.text, format)));
    return () => {
      live = false;
    };
  }, [source, format]);
  return table;
}

/** What a finished import answered: the summary, or the errors to show against the rows. */
function outcomeOf(body: unknown, fallback: string): { outcome: Outcome; errors: RowError[]; done: boolean } {
  const summary = summaryOf(body);
  if (summary) return { outcome: { kind: 'ok', text: `Imported. ${summary}` }, errors: [], done: true };
  const errors = rowErrors(body);
  const count = (body as { count?: number } | null)?.count ?? errors.length;
  const text = errors.length ? `Nothing was imported: ${count} ${count === 1 ? 'error' : 'errors'}.` : fallback;
  return { outcome: { kind: 'error', text }, errors, done: false };
}

/** The import's run: the POST (again as a job after a 413 for too many rows), the job followed, the outcome. */
function useImportRun(listPath: string, onImported: () => void) {
  const [busy, setBusy] = useState(false);
  const [job, setJob] = useState<JobState | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [errors, setErrors] = useState<RowError[]>([]);
  const alive = useRef(true);
  useEffect(
    () => () => {
      alive.current = false;
    },
    [],
  );
  const reset = () => {
    setErrors([]);
    setOutcome(null);
    setJob(null);
  };
  const finish = (body: unknown, fallback: string) => {
    const o = outcomeOf(body, fallback);
    setOutcome(o.outcome);
    setErrors(o.errors);
    if (o.done) onImported();
  };
  const followJob = async (r: ApiResult) => {
    const url = jobUrl(r.body, r.headers.get('location'));
    if (!url) return finish(null, 'The server started a job but did not say where it is.');
    const s = await pollJob(
      url,
      (st) => alive.current && setJob(st),
      () => !alive.current,
    );
    if ('error' in s) finish(null, s.error);
    else if (s.ok && !summaryOf(s.outcome)) {
      setOutcome({ kind: 'ok', text: 'Imported: the job completed.' }); // its result in a shape not known here
      onImported();
    } else if (s.ok) finish(s.outcome, '');
    else finish(s.outcome, `The job ${s.label.toLowerCase()}: ${JSON.stringify(s.outcome ?? null)}`);
  };
  const run = async (source: Source, format: Format, background: boolean) => {
    setBusy(true);
    reset();
    setOutcome({ kind: 'info', text: 'Importing…' });
    let r = await postImport(listPath, source.body, format, background);
    if (r.status === 413 && !background && r.body?.code === 'too_many_rows') {
      setOutcome({ kind: 'info', text: 'Too many rows for one request: running it as a background job…' });
      r = await postImport(listPath, source.body, format, true);
    }
    if (r.status === 202) await followJob(r);
    else finish(r.body, errorText(r));
    setBusy(false);
  };
  return { busy, job, outcome, errors, reset, run };
}

function FormatSelect({ value, onPick }: { value: Format; onPick: (f: Format) => void }) {
  return html`<select id="import-format" value=${value} onChange=${(e: any) => onPick(e.target.value as Format)}>
    ${(Object.keys(FORMATS) as Format[]).map((f) => html`<option value=${f}>${FORMATS[f].label}</option>`)}
  </select>`;
}

export function ImportPanel({
  listPath,
  title,
  onImported,
}: {
  listPath: string;
  title: string;
  onImported: () => void;
}) {
  const [source, setSource] = useState<Source | null>(null);
  const [format, setFormat] = useState<Format>('csv');
  const picked = useRef(false); // a format chosen by hand is kept while text is typed
  const [background, setBackground] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const table = usePreview(source, format);
  const imp = useImportRun(listPath, onImported);
  const take = (next: Source | null) => {
    setSource(next);
    if (next && (next.name || !picked.current)) setFormat(detectFormat(next.name, next.text));
    imp.reset();
  };
  const onFile = async (e: Event) => {
    const file = (e.target as HTMLInputElement).files?.[0];
    picked.current = false;
    take(file ? { name: file.name, text: await file.text(), body: file } : null);
  };
  const onText = (text: string) => {
    if (fileInput.current) fileInput.current.value = '';
    take(text ? { name: '', text, body: text } : null);
  };
  const submit = (e: Event) => {
    e.preventDefault();
    if (source) void imp.run(source, format, background);
  };
  return html`<form class="card import-panel" aria-labelledby="import-title" onSubmit=${submit}>
    <h2 id="import-title">Import ${title.toLowerCase()}</h2>
    <div class="import-source">
      <div class="field">
        <label for="import-file">File (CSV or YAML)</label>
        <input
          id="import-file"
          ref=${fileInput}
          type="file"
          accept=".csv,.yaml,.yml,text/csv,application/yaml"
          onChange=${onFile}
        />
      </div>
      <div class="field">
        <label for="import-text">or paste it</label>
        <textarea
          id="import-text"
          rows="5"
          spellcheck=${false}
          value=${source && !source.name ? source.text : ''}
          onInput=${(e: any) => onText(e.target.value)}
        ></textarea>
      </div>
    </div>
    <div class="import-options">
      <label for="import-format">Format</label>
      <${FormatSelect}
        value=${format}
        onPick=${(f: Format) => {
          picked.current = true;
          setFormat(f);
        }}
      />
      <label class="inline-check">
        <input type="checkbox" checked=${background} onChange=${(e: any) => setBackground(e.target.checked)} />
        Run in the background
      </label>
      <button type="submit" disabled=${!source || imp.busy}>Import</button>
    </div>
    ${table && 'error' in table ? html`<p class="field-error">The preview cannot read it: ${table.error}</p>` : null}
    ${table && !('error' in table) ? html`<${ImportPreview} table=${table} errors=${imp.errors} />` : null}
    ${imp.job ? html`<${JobProgress} state=${imp.job} />` : null}
    ${imp.outcome ? html`<${Message} kind=${imp.outcome.kind}>${imp.outcome.text}</${Message}>` : null}
  </form>`;
}
