// SQL metacharacters and comment payloads in filters, ordering, bodies and path ids: PostgreSQL
// and MySQL answer exactly what the memory backend answers, and the data is left intact.
import { expect } from 'chai';
import { startServer, type TestServer } from '../../support/server.js';
import { BACKENDS } from '../conformance/backends.js';

const PAYLOADS = [
  "'",
  "''",
  '"',
  '\\',
  "\\'",
  '%',
  '_',
  '%_%',
  "' OR '1'='1",
  "'; DROP TABLE dcim_site; --",
  '" OR ""="',
  '1; SELECT 1',
  '/*',
  '*/',
  '-- x',
  '#',
  '`',
  '$1',
  '?',
  ':name',
  '\u0000',
  'ab%cd',
  'a_b',
  "x' UNION SELECT id FROM users_token --",
];
const FILTERS = [
  'name',
  'name__ic',
  'name__isw',
  'name__iew',
  'name__ie',
  'name__nic',
  'name__re',
  'description__ire',
  'slug__n',
  'q',
  'cf_note',
  'cf_note__ic',
  'region',
  'tag',
  'status__ic',
];

async function seed(srv: TestServer): Promise<void> {
  await srv.req('POST', '/api/extras/custom-fields/', { name: 'note', type: 'text', content_types: ['dcim.site'] });
  await srv.req('POST', '/api/extras/tags/', { name: "O'Brien", slug: 'obrien' });
  const sites = PAYLOADS.filter((p) => p !== '\u0000').map((p, i) => ({
    name: `s${i} ${p}`,
    slug: `s${i}`,
    description: p,
    custom_fields: { note: `n ${p}` },
    tags: i % 2 ? ['obrien'] : [],
  }));
  const res = await srv.req('POST', '/api/dcim/sites/', sites);
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
}

async function answers(srv: TestServer): Promise<string[]> {
  const out: string[] = [];
  for (const f of FILTERS)
    for (const p of PAYLOADS) {
      const res = await srv.req(
        'GET',
        `/api/dcim/sites/?${new URLSearchParams([
          [f, p],
          ['limit', '1000'],
        ])}`,
      );
      out.push(
        `${f}=${JSON.stringify(p)} -> ${res.status} ${
          res.status === 200
            ? res.body.results
                .map((s: { slug: string }) => s.slug)
                .sort()
                .join(',')
            : Object.keys(res.body).join(',')
        }`,
      );
    }
  for (const p of PAYLOADS) {
    const res = await srv.req('GET', `/api/dcim/sites/?${new URLSearchParams([['ordering', p]])}`);
    out.push(`ordering=${JSON.stringify(p)} -> ${res.status}`);
    const byId = await srv.req('GET', `/api/dcim/sites/${encodeURIComponent(p)}/`);
    out.push(`id ${JSON.stringify(p)} -> ${byId.status}`);
  }
  out.push(...(await bodyAnswers(srv)));
  out.push(`count ${(await srv.req('GET', '/api/dcim/sites/?limit=1')).body.count}`);
  for (const path of [
    '/api/dcim/sites/',
    '/api/dcim/devices/',
    '/api/ipam/prefixes/',
    '/api/extras/tags/',
    '/api/v1/entities/',
  ])
    out.push(`${path} still answers ${(await srv.req('GET', path + '?limit=1')).status}`);
  return out;
}

/**
 * Payloads in body fields of every kind: text fields, custom fields, slugs, addresses, lifecycle ids, triggers and
 * context.
 */
async function bodyAnswers(srv: TestServer): Promise<string[]> {
  const out: string[] = [];
  const site = (await srv.req('GET', '/api/dcim/sites/?slug=s0')).body.results[0];
  const seen = (r: { status: number; body: any }, pick: (b: any) => unknown) =>
    `${r.status} ${
      r.status < 300
        ? JSON.stringify(pick(r.body))
        : Object.keys(r.body ?? {})
            .sort()
            .join(',')
    }`;
  for (const [i, p] of PAYLOADS.entries()) {
    const patch = await srv.req('PATCH', `/api/dcim/sites/${site.id}/`, {
      description: p,
      physical_address: p,
      facility: p.slice(0, 50),
      custom_fields: { note: p },
    });
    out.push(
      `site text fields ${JSON.stringify(p)} -> ` +
        `${seen(patch, (b) => [b.description, b.physical_address, b.facility, b.custom_fields.note])}`,
    );
    const back = await srv.req('GET', `/api/dcim/sites/${site.id}/`);
    out.push(
      `  read back -> ${seen(back, (b) => [b.description, b.physical_address, b.facility, b.custom_fields.note])}`,
    );
    out.push(
      `site slug ${JSON.stringify(p)} -> ` +
        seen(await srv.req('POST', '/api/dcim/sites/', { name: `slug ${i}`, slug: p }), (b) => b.slug),
    );
    out.push(
      `tag ${JSON.stringify(p)} -> ` +
        seen(await srv.req('POST', '/api/extras/tags/', { name: `t ${i} ${p}`, slug: `t-${i}` }), (b) => b.name),
    );
    out.push(
      `site tags [${JSON.stringify(p)}] -> ` +
        seen(
          await srv.req('POST', '/api/dcim/sites/', { name: `tagged ${i}`, slug: `tagged-${i}`, tags: [p] }),
          (b) => b.tags,
        ),
    );
    out.push(
      `prefix ${JSON.stringify(p)} -> ` +
        `${seen(await srv.req('POST', '/api/ipam/prefixes/', { prefix: p, status: 'active' }), (b) => b.prefix)}`,
    );
    out.push(
      `prefix description ${JSON.stringify(p)} -> ` +
        seen(
          await srv.req('POST', '/api/ipam/prefixes/', { prefix: `10.${i}.0.0/16`, status: 'active', description: p }),
          (b) => b.description,
        ),
    );
    out.push(
      `entity id ${JSON.stringify(p)} -> ` +
        seen(
          await srv.req('POST', `/api/v1/entities/${encodeURIComponent(p)}/create`, { machine_name: 'order_flow' }),
          (b) => b.entity_id,
        ),
    );
    out.push(
      `machine_name ${JSON.stringify(p)} -> ` +
        seen(await srv.req('POST', `/api/v1/entities/m-${i}/create`, { machine_name: p }), (b) => b.machine_name),
    );
    const created = await srv.req('POST', `/api/v1/entities/c-${i}/create`, {
      machine_name: 'order_flow',
      context: { [p]: p, note: p },
    });
    out.push(`entity context ${JSON.stringify(p)} -> ${seen(created, (b) => b.context)}`);
    out.push(
      `trigger ${JSON.stringify(p)} -> ` +
        seen(
          await srv.req('POST', `/api/v1/entities/c-${i}/events`, { trigger: p, context: { note: p } }),
          (b) => b.trigger,
        ),
    );
    out.push(
      `expected_state ${JSON.stringify(p)} -> ` +
        seen(
          await srv.req('POST', `/api/v1/entities/c-${i}/events`, { trigger: 'cancel', expected_state: p }),
          (b) => b.target_state,
        ),
    );
  }
  return out;
}

describe('injection corpus: SQL backends answer like memory', function () {
  this.timeout(120000);
  let reference: string[] = [];
  before(async () => {
    const mem = await startServer();
    await seed(mem);
    reference = await answers(mem);
    await mem.close();
  });
  for (const backend of BACKENDS.filter((b) => b.name !== 'memory')) {
    it(`${backend.name}: every payload gives the memory answer and the data stays intact`, async function () {
      const db = await backend.url();
      if (!db) {
        console.log(`    (skipped: ${backend.name} not configured)`);
        this.skip();
      }
      const srv = await startServer({ storage: db!.url });
      try {
        await seed(srv);
        const got = await answers(srv);
        for (let i = 0; i < reference.length; i++) expect(got[i]).to.equal(reference[i]);
      } finally {
        await srv.close();
        await db!.drop();
      }
    });
  }
});
