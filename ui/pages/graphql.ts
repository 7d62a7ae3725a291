// The GraphQL explorer: a query editor completing from the server's schema (read by introspection with the
// token), optional variables, and the answer of /graphql/ as sent.
import { useEffect, useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { errorText, request, type ApiResult } from '../lib/api.js';
import { pretty } from '../lib/format.js';
import { indexSchema, SCHEMA_QUERY, type SchemaIndex } from '../lib/graphql-complete.js';
import { GraphqlEditor } from '../components/graphql-editor.js';
import { checkJson, JsonEditor } from '../components/json-editor.js';
import { Message } from '../components/message.js';

export const GRAPHQL_URL = '/graphql/';

const FIRST_QUERY = `# Nautobot's root fields (sites, devices, ...) and NetBox's (site_list, ...) are both here.
{
  site_list(limit: 5) {
    id
    name
  }
}
`;

type Loaded = { index: SchemaIndex } | { error: string } | null;

async function loadSchema(): Promise<Loaded> {
  const r = await request('POST', GRAPHQL_URL, { body: { query: SCHEMA_QUERY } });
  if (!r.ok) return { error: errorText(r) };
  if (!r.body?.data) return { error: (r.body?.errors ?? []).map((e: any) => e.message).join(' ') || r.text };
  return { index: indexSchema(r.body.data) };
}

function AnswerView({ r }: { r: ApiResult }) {
  return html`<section class="card response" aria-label="Answer">
    <h2>Answer</h2>
    <p class=${`status-line ${r.ok && !r.body?.errors ? 'ok' : 'bad'}`}>
      Status: <strong data-testid="gql-status">${r.status} ${r.statusText}</strong> (${r.ms} ms)
    </p>
    <pre class="response-body" data-testid="gql-answer">${pretty(r.body)}</pre>
  </section>`;
}

export function GraphqlPage() {
  const [schema, setSchema] = useState<Loaded>(null);
  const [query, setQuery] = useState(FIRST_QUERY);
  const [variables, setVariables] = useState('');
  const [result, setResult] = useState<ApiResult | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void loadSchema().then(setSchema);
  }, []);
  const vars = checkJson(variables, true);
  const run = async () => {
    if (!vars.ok || busy) return;
    setBusy(true);
    setResult(await request('POST', GRAPHQL_URL, { body: { query, variables: vars.value ?? null } }));
    setBusy(false);
  };
  const index = schema && 'index' in schema ? schema.index : null;
  return html`<div class="page">
    <h1>GraphQL</h1>
    <p class="muted">
      Queries to <code>${GRAPHQL_URL}</code> (also <code>/api/graphql/</code>) with the token from the box above.
      Root fields, filters and limits: <code>docs/graphql.md</code>.
    </p>
    <p role="status" data-testid="schema-status">
      ${schema === null ? 'Reading the schema…' : index ? `Schema read: ${index.types.size} types.` : null}
    </p>
    ${schema && 'error' in schema ? html`<${Message} kind="error">Schema: ${schema.error}</${Message}>` : null}
    <form
      class="card gql-form"
      aria-label="GraphQL request"
      onSubmit=${(e: Event) => {
        e.preventDefault();
        void run();
      }}
    >
      <${GraphqlEditor} index=${index} text=${query} onText=${setQuery} onRun=${run} />
      <${JsonEditor}
        id="gql-variables"
        label="Variables (JSON)"
        text=${variables}
        onText=${setVariables}
        optional
        rows=${3}
      />
      <button type="submit" disabled=${!vars.ok || busy}>Run query</button>
    </form>
    <div aria-live="polite">
      ${result ? html`<${AnswerView} r=${result} />` : null}
    </div>
  </div>`;
}
