// The filter contract, run over HTTP against each storage backend with the same data and cases.
import { expect } from 'chai';
import type { TestServer } from '../../support/server.js';
import { serverOn } from '../../support/server-on.js';
import { BACKENDS } from './backends.js';
import { CASES, type Case } from './cases.js';
import { DATASETS, type Dataset } from './datasets.js';
import { ID_STYLES, type IdStyleName } from '../../../engine/schema/id-style.js';

/** Load a dataset through the API; '@label' values become ids; labels become descriptions. */
export async function loadDataset(srv: TestServer, ds: Dataset): Promise<Map<string, string | number>> {
  const ids = new Map<string, string | number>();
  for (const [path, objects] of ds.load) {
    const bodies = objects.map((o) => {
      const { _label, ...rest } = o as Record<string, unknown> & { _label: string };
      const body: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(rest))
        body[k] = typeof v === 'string' && v.startsWith('@') ? ids.get(v.slice(1)) : v;
      if (path === ds.path && !('description' in body)) body.description = _label;
      return body;
    });
    const res = await srv.req('POST', path, bodies);
    if (res.status !== 201)
      throw new Error(`loading ${ds.name} into ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    (res.body as { id: string | number }[]).forEach((o, i) => ids.set((objects[i] as { _label: string })._label, o.id));
  }
  return ids;
}

/** The case's query with each '@label' replaced by the id of the object loaded under that label. */
function queryString(q: string, ids: ReadonlyMap<string, string | number>): string {
  const params = new URLSearchParams();
  for (const part of q.replace(/@(\w+)/g, (m, label: string) => String(ids.get(label) ?? m)).split('&')) {
    const i = part.indexOf('=');
    params.append(part.slice(0, i), part.slice(i + 1));
  }
  if (!params.has('limit')) params.set('limit', '1000');
  return params.toString();
}

async function runCase(
  srv: TestServer,
  path: string,
  c: Case,
  ids: ReadonlyMap<string, string | number>,
): Promise<void> {
  const res = await srv.req('GET', `${path}?${queryString(c.q, ids)}`);
  if (Array.isArray(c.expect)) {
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const got = (res.body.results as { description: string }[]).map((o) => o.description);
    if (c.ordered) expect(got).to.deep.equal(c.expect);
    else expect([...got].sort()).to.deep.equal([...c.expect].sort());
    if (!c.q.includes('limit=')) expect(res.body.count).to.equal(c.expect.length);
  } else {
    const e = c.expect as { status: number; keys: readonly string[] };
    expect(res.status).to.equal(e.status);
    expect(Object.keys(res.body).sort()).to.deep.equal([...e.keys].sort());
    for (const k of e.keys) expect(res.body[k]).to.be.an('array').that.is.not.empty;
  }
}

/** A well-formed id of each style that names no object (`@none`). */
const NO_OBJECT: Readonly<Record<IdStyleName, string>> = {
  uuid: '00000000-0000-4000-8000-000000000000',
  integer: '999999999',
};

for (const backend of BACKENDS)
  for (const idStyle of ID_STYLES)
    describe(`conformance on ${backend.name}, ${idStyle} ids`, function () {
      this.timeout(120000);
      for (const ds of DATASETS) {
        describe(ds.name, () => {
          let ids: ReadonlyMap<string, string | number> = new Map();
          const srv = serverOn(
            backend,
            async (s) => {
              ids = new Map([...(await loadDataset(s, ds)), ['none', NO_OBJECT[idStyle]]]);
            },
            { idStyle },
          );
          for (const c of CASES[ds.name].filter((x) => !x.only || x.only === idStyle))
            it(`${c.q} -> ${Array.isArray(c.expect) ? c.expect.join(' ') || '(none)' : '400'}`, () =>
              runCase(srv, ds.path, c, ids));
        });
      }
    });
