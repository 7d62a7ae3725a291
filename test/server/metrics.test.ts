// GET /metrics (#19 item 5): Prometheus text over real sockets. The text parses as exposition
// format 0.0.4 (a parser of its line grammar here); request counts go up per route pattern (ids
// never appear in a label; a path no route serves is `unmatched`); histogram buckets are cumulative
// and `_count` equals the +Inf bucket and the requests counted; the change seq follows the writes on
// every backend; a request whose client left before any answer is status 499; the replica gauges
// exist with READ_REPLICA=memory (PostgreSQL) and not without.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import express from 'express';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { serverOn } from '../support/backend-server.js';
import { startProcess } from '../support/process.js';
import { startServer, type TestServer } from '../support/server.js';
import { Metrics } from '../../server/metrics/index.js';
import { recording, requestRecorder } from '../../server/observability.js';
import type { Storage } from '../../storage/types.js';

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}
interface Family {
  type: string;
  help?: string;
  readonly samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const VALUE = String.raw`(?:[+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|NaN|[+-]Inf)`;
const LABEL = String.raw`[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*"`;
const SAMPLE_RE = new RegExp(String.raw`^(${NAME})(?:\{((?:${LABEL})(?:,${LABEL})*)?,?\})? (${VALUE})(?: -?\d+)?$`);
const SUFFIXES: Record<string, string[]> = {
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
  counter: [''],
  gauge: [''],
  untyped: [''],
};

/**
 * The exposition text as families; throws on any line outside the format's grammar or a sample of an undeclared family.
 */
function parseExposition(text: string): Map<string, Family> {
  expect(text.endsWith('\n'), 'ends with a newline').to.equal(true);
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  const owner = (sample: string): Family | undefined => {
    for (const [name, f] of families) if (SUFFIXES[f.type].some((s) => name + s === sample)) return f;
    return undefined;
  };
  for (const line of text.slice(0, -1).split('\n')) {
    let m: RegExpExecArray | null;
    if ((m = new RegExp(`^# HELP (${NAME}) (.*)$`).exec(line))) {
      const f = families.get(m[1]) ?? { type: 'untyped', samples: [] };
      expect(f.help, `one HELP for ${m[1]}`).to.equal(undefined);
      expect(/\\[^\\n]/.test(m[2].replace(/\\\\/g, '')), `HELP escapes of ${m[1]}`).to.equal(false);
      f.help = m[2];
      families.set(m[1], f);
    } else if ((m = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line))) {
      const f = families.get(m[1]) ?? { type: 'untyped', samples: [] };
      expect(f.samples, `TYPE of ${m[1]} before its samples`).to.have.length(0);
      f.type = m[2];
      families.set(m[1], f);
    } else if (line.startsWith('#')) {
      continue; // a comment
    } else {
      m = SAMPLE_RE.exec(line);
      if (!m) throw new Error(`not an exposition line: ${JSON.stringify(line)}`);
      const labels: Record<string, string> = {};
      for (const l of (m[2] ?? '').matchAll(
        new RegExp(`(${'[a-zA-Z_][a-zA-Z0-9_]*'})="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"`, 'g'),
      )) {
        expect(labels, `label ${l[1]} once in ${line}`).not.to.have.property(l[1]);
        labels[l[1]] = l[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      }
      const f = owner(m[1]);
      if (!f) throw new Error(`sample of no declared family: ${line}`);
      const key = `${m[1]}${JSON.stringify(Object.entries(labels).sort())}`;
      expect(seen.has(key), `one sample per series: ${line}`).to.equal(false);
      seen.add(key);
      f.samples.push({
        name: m[1],
        labels,
        value: m[3] === 'NaN' ? NaN : m[3] === '+Inf' ? Infinity : m[3] === '-Inf' ? -Infinity : Number(m[3]),
      });
    }
  }
  return families;
}

async function scrape(url: string): Promise<Map<string, Family>> {
  const res = await fetch(`${url}/metrics`);
  expect(res.status).to.equal(200);
  expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await res.text());
}

/** The one value of `name` whose labels include these (undefined without such a series). */
function value(fams: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  const base = name.replace(/_(bucket|sum|count)$/, '');
  const f = fams.get(name) ?? fams.get(base);
  const found =
    f?.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) ?? [];
  expect(found.length, `${name} ${JSON.stringify(labels)}: one series`).to.be.at.most(1);
  return found[0]?.value;
}

const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-/i;

describe('the exposition parser of this test', () => {
  it('refuses lines outside the grammar', () => {
    const ok = '# HELP a_total A.\n# TYPE a_total counter\na_total{x="q\\"\\\\"} 1\n';
    expect(parseExposition(ok).get('a_total')!.samples[0].labels.x).to.equal('q"\\');
    for (const bad of [
      'a_total 1\n',
      '# TYPE a gauge\na{x=1} 1\n',
      '# TYPE a gauge\na 1 2 3\n',
      '# TYPE a gauge\na 1\na 2\n',
      '# TYPE a gauge\na 1',
      '# TYPE a gauge\na{x="\n"} 1\n',
    ])
      expect(() => parseExposition(bad), JSON.stringify(bad)).to.throw();
  });
});

describe('GET /metrics (Prometheus text)', () => {
  let srv: TestServer;
  before(async () => {
    srv = await startServer();
  });
  after(() => srv.close());

  it('needs no token and is exposition format 0.0.4 with HELP and TYPE for every family', async () => {
    const res = await fetch(`${srv.url}/metrics`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/plain; version=0.0.4; charset=utf-8');
    const fams = parseExposition(await res.text());
    for (const [name, f] of fams) {
      expect(f.help, `HELP of ${name}`).to.be.a('string').and.not.equal('');
      expect(f.type, `TYPE of ${name}`).to.not.equal('untyped');
    }
    expect(fams.get('netinv_http_requests_total')?.type).to.equal('counter');
    expect(fams.get('netinv_http_request_duration_seconds')?.type).to.equal('histogram');
    for (const g of [
      'netinv_change_seq',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(fams.get(g)?.type, g).to.equal('gauge');
      expect(value(fams, g), g)
        .to.be.a('number')
        .and.satisfy((v: number) => Number.isFinite(v) && v >= 0);
    }
    expect(value(fams, 'process_resident_memory_bytes')).to.be.above(1e6);
  });

  it('counts each request under its route pattern: ids, case and query never reach a label', async () => {
    const site = await srv.req('POST', '/api/dcim/sites/', { name: 'metrics one', slug: 'metrics-one' });
    expect(site.status).to.equal(201);
    const before = await scrape(srv.url);
    const count = (fams: Map<string, Family>, method: string, route: string, status: string) =>
      value(fams, 'netinv_http_requests_total', { method, route, status }) ?? 0;
    for (let i = 0; i < 3; i++) expect((await srv.req('GET', `/api/dcim/sites/${site.body.id}/`)).status).to.equal(200);
    expect((await srv.req('GET', '/API/DCIM/Sites/?limit=1')).status).to.equal(200);
    expect((await srv.req('GET', '/api/dcim/sites/?name=x')).status).to.equal(200);
    expect((await srv.req('GET', '/api/dcim/sites/00000000-0000-4000-8000-000000000000/')).status).to.equal(404);
    // refused by the router's own middleware
    expect((await srv.req('GET', '/api/dcim/sites/', undefined, null)).status).to.equal(401);
    expect((await srv.req('GET', '/api/core/object-changes/')).status).to.equal(200);
    expect((await srv.req('GET', '/api/v1/entities/no-such-entity')).status).to.equal(404);
    expect((await srv.req('GET', '/no/such/path/1234')).status).to.equal(404);
    expect((await srv.req('DELETE', '/metrics')).status).to.equal(405);
    // an event stream the client leaves at once
    expect((await srv.req('GET', '/api/extras/object-changes/stream')).status).to.equal(200);
    await new Promise((r) => setTimeout(r, 100));
    const after = await scrape(srv.url);
    const grew = (method: string, route: string, status: string) =>
      count(after, method, route, status) - count(before, method, route, status);
    expect(grew('GET', '/api/dcim/sites/:id/', '200')).to.equal(3);
    expect(grew('GET', '/api/dcim/sites/:id/', '404')).to.equal(1);
    expect(grew('GET', '/api/dcim/sites/', '200')).to.equal(2);
    expect(grew('GET', '/api/dcim/sites/', '401')).to.equal(1);
    expect(grew('GET', '/api/core/object-changes/', '200')).to.equal(1);
    expect(grew('GET', '/api/v1/entities/:entity_id', '404')).to.equal(1);
    expect(grew('GET', 'unmatched', '404')).to.equal(1);
    expect(grew('DELETE', '/metrics', '405')).to.equal(1);
    expect(grew('GET', '/metrics', '200')).to.equal(1); // the scrape before
    expect(grew('GET', '/api/extras/object-changes/stream', '200')).to.equal(1);
    expect(count(before, 'POST', '/api/dcim/sites/', '201')).to.equal(1);
    const routes = new Set(after.get('netinv_http_requests_total')!.samples.map((s) => s.labels.route));
    for (const r of routes) {
      expect(r, 'a route pattern or unmatched').to.satisfy((x: string) => x === 'unmatched' || x.startsWith('/'));
      expect(UUID_RE.test(r), `no id in ${r}`).to.equal(false);
      expect(r).to.not.match(/[?A-Z]|no-such|1234/);
    }
  });

  it(
    'histograms: buckets cumulative from 1 ms to 10 s, +Inf and _count equal, _count equals the requests ' + 'counted',
    async () => {
      for (let i = 0; i < 5; i++) await srv.req('GET', '/api/ipam/prefixes/?limit=5');
      const fams = await scrape(srv.url);
      const hist = fams.get('netinv_http_request_duration_seconds')!;
      const series = new Map<string, Sample[]>();
      for (const s of hist.samples) {
        const { le, ...rest } = s.labels;
        expect(Object.keys(rest).sort()).to.deep.equal(['method', 'route']);
        const key = JSON.stringify([rest.method, rest.route]);
        series.set(key, [...(series.get(key) ?? []), s]);
      }
      expect(series.size).to.be.at.least(3);
      for (const [key, samples] of series) {
        const [method, route] = JSON.parse(key) as [string, string];
        const buckets = samples.filter((s) => s.name.endsWith('_bucket'));
        const les = buckets.map((b) => b.labels.le);
        expect(les[0]).to.equal('0.001');
        expect(les).to.include('10');
        expect(les.at(-1)).to.equal('+Inf');
        const bounds = les.map((l) => (l === '+Inf' ? Infinity : Number(l)));
        for (let i = 1; i < buckets.length; i++) {
          expect(bounds[i], `${key} bounds increase`).to.be.above(bounds[i - 1]);
          expect(buckets[i].value, `${key} cumulative at le=${les[i]}`).to.be.at.least(buckets[i - 1].value);
        }
        const n = value(fams, 'netinv_http_request_duration_seconds_count', { method, route })!;
        const sum = value(fams, 'netinv_http_request_duration_seconds_sum', { method, route })!;
        expect(buckets.at(-1)!.value, `${key} +Inf = _count`).to.equal(n);
        expect(n).to.be.above(0);
        expect(sum)
          .to.be.at.least(0)
          .and.below(n * 10 + 60);
        const counted = fams
          .get('netinv_http_requests_total')!
          .samples.filter((s) => s.labels.method === method && s.labels.route === route)
          .reduce((a, s) => a + s.value, 0);
        expect(counted, `${key}: requests counted = observations`).to.equal(n);
      }
      expect(
        value(fams, 'netinv_http_request_duration_seconds_count', { method: 'GET', route: '/api/ipam/prefixes/' }),
      ).to.equal(5);
    },
  );

  it('has no replica gauges without READ_REPLICA', async () => {
    const fams = await scrape(srv.url);
    for (const g of ['netinv_replica_lag_seq', 'netinv_replica_lag_ms', 'netinv_replica_applied_seq'])
      expect(fams.has(g), g).to.equal(false);
  });

  it('is in the OpenAPI document (no token, text/plain)', async () => {
    const doc = (await srv.req('GET', '/openapi.json')).body;
    const op = doc.paths['/metrics'].get;
    expect(op.security).to.deep.equal([]);
    expect(Object.keys(op.responses[200].content)).to.deep.equal(['text/plain; version=0.0.4']);
  });
});

for (const backend of BACKENDS) {
  describe(`GET /metrics on ${backend.name}: netinv_change_seq follows the writes`, function () {
    this.timeout(60000);
    const holder = serverOn(backend);
    it('equals the X-Change-Seq of the last write', async () => {
      const { srv } = holder;
      const w = await srv.req('POST', '/api/extras/tags/', { name: 'metrics', slug: 'metrics' });
      expect(w.status).to.equal(201);
      const seq = Number(w.headers.get('x-change-seq'));
      expect(seq).to.be.above(0);
      const fams = await scrape(srv.url);
      expect(value(fams, 'netinv_change_seq')).to.equal(seq);
      expect(fams.has('netinv_replica_lag_seq')).to.equal(false);
      expect(
        value(fams, 'netinv_http_requests_total', { method: 'POST', route: '/api/extras/tags/', status: '201' }),
      ).to.equal(1);
    });

    // #34: waits for a pooled connection are bounded (POOL_WAIT_TIMEOUT_MS) and shown; memory has no pool.
    it(
      backend.name === 'memory'
        ? 'has no pool wait metrics'
        : 'shows the waits for a pooled connection the requests made, none timed out',
      async () => {
        const { srv } = holder;
        const before = value(await scrape(srv.url), 'netinv_db_pool_wait_seconds_count') ?? 0;
        const w = await srv.req('POST', '/api/ipam/prefixes/', [
          { prefix: '10.34.0.0/24' },
          { prefix: '10.34.1.0/24' },
        ]);
        expect(w.status).to.equal(201);
        expect((await srv.req('GET', '/api/ipam/prefixes/?limit=1')).status).to.equal(200);
        const fams = await scrape(srv.url);
        if (backend.name === 'memory') {
          expect(fams.has('netinv_db_pool_wait_seconds')).to.equal(false);
          return;
        }
        expect(fams.get('netinv_db_pool_wait_seconds')?.type).to.equal('histogram');
        const count = value(fams, 'netinv_db_pool_wait_seconds_count')!;
        expect(count, 'one wait per statement or transaction at least').to.be.at.least(before + 2);
        expect(value(fams, 'netinv_db_pool_wait_seconds_bucket', { le: '+Inf' })).to.equal(count);
        expect(value(fams, 'netinv_db_pool_wait_seconds_bucket', { le: '5' })).to.equal(count);
        expect(value(fams, 'netinv_db_pool_wait_timeouts_total')).to.equal(0);
      },
    );
  });
}

describe('GET /metrics: a request whose client leaves before any answer', () => {
  it('counts as status 499 under its route pattern', async () => {
    // an app with a route that never answers, the request's recording first as in the service
    const app = express();
    const metrics = new Metrics({ changeSeq: async () => 0 } as unknown as Storage, app);
    app.use(recording(requestRecorder(metrics.http, undefined)));
    app.get('/slow/:id', () => {
      /* never answers */
    });
    app.get('/metrics', metrics.route);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    try {
      const ac = new AbortController();
      const gone = fetch(`${url}/slow/123`, { signal: ac.signal }).catch(() => null);
      await new Promise((r) => setTimeout(r, 100));
      ac.abort();
      await gone;
      let n: number | undefined;
      for (let i = 0; i < 50 && n === undefined; i++) {
        await new Promise((r) => setTimeout(r, 20));
        n = value(await scrape(url), 'netinv_http_requests_total', {
          method: 'GET',
          route: '/slow/:id',
          status: '499',
        });
      }
      expect(n).to.equal(1);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

const postgres = BACKENDS.find((b) => b.name === 'postgres')!;
describe('GET /metrics with READ_REPLICA=memory on PostgreSQL: the replica gauges', function () {
  this.timeout(120000);
  const KEY = 'metrics-replica-key-0123456789';
  let db: { url: string; drop(): Promise<void> } | null = null;
  const procs: ChildProcess[] = [];
  let replica = '',
    plain = '';
  before(async function () {
    db = await postgres.url();
    if (!db) {
      this.skip();
      return;
    }
    const cfg = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-metrics-')), 'config.json');
    fs.writeFileSync(cfg, JSON.stringify({ tokens: [{ key: KEY, permissions: ['*'] }] }));
    const p = await startProcess(db.url, cfg);
    procs.push(p.child);
    plain = p.url;
    const r = await startProcess(db.url, cfg, { READ_REPLICA: 'memory' });
    procs.push(r.child);
    replica = r.url;
  });
  after(async () => {
    for (const c of procs) c.kill('SIGKILL');
    await db?.drop();
  });

  const post = async (url: string, p: string, body: unknown) => {
    const res = await fetch(url + p, {
      method: 'POST',
      headers: { Authorization: `Token ${KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).to.equal(201);
    return Number(res.headers.get('x-change-seq'));
  };

  it('a write through the replica: applied_seq reaches its seq, lag 0, change_seq the same', async () => {
    const seq = await post(replica, '/api/extras/tags/', { name: 'through replica', slug: 'through-replica' });
    const fams = await scrape(replica);
    expect(fams.get('netinv_replica_lag_seq')?.type).to.equal('gauge');
    expect(value(fams, 'netinv_change_seq')).to.equal(seq);
    expect(value(fams, 'netinv_replica_applied_seq')).to.equal(seq);
    expect(value(fams, 'netinv_replica_lag_seq')).to.equal(0);
    expect(value(fams, 'netinv_replica_lag_ms')).to.equal(0);
  });

  it('a write through another process: the replica catches up, the gauges agree with /api/status/', async () => {
    let seq = 0;
    for (let i = 0; i < 5; i++) seq = await post(plain, '/api/dcim/regions/', { name: `R${i}`, slug: `r${i}` });
    let fams = await scrape(replica);
    expect(value(fams, 'netinv_change_seq')).to.equal(seq);
    const deadline = Date.now() + 10000;
    while (value(fams, 'netinv_replica_applied_seq')! < seq && Date.now() < deadline) {
      const lag = value(fams, 'netinv_replica_lag_seq')!;
      expect(lag)
        .to.be.above(0)
        .and.at.most(seq - value(fams, 'netinv_replica_applied_seq')!);
      await new Promise((r) => setTimeout(r, 20));
      fams = await scrape(replica);
    }
    expect(value(fams, 'netinv_replica_applied_seq')).to.equal(seq);
    expect(value(fams, 'netinv_replica_lag_seq')).to.equal(0);
    // Every record applied has its age in the histogram: cumulative buckets, +Inf equal to the count.
    const lag = fams.get('netinv_replica_apply_lag_seconds')!;
    expect(lag.type).to.equal('histogram');
    const buckets = lag.samples.filter((x) => x.name.endsWith('_bucket')).map((x) => x.value);
    const count = lag.samples.find((x) => x.name.endsWith('_count'))!.value;
    expect(count, 'the 5 regions and the tag').to.be.at.least(6);
    expect(buckets).to.deep.equal([...buckets].sort((a, b) => a - b));
    expect(buckets[buckets.length - 1]).to.equal(count);
    expect(lag.samples.find((x) => x.name.endsWith('_sum'))!.value).to.be.within(0, count * 10);
    const status = (await (await fetch(`${replica}/api/status/`)).json()) as {
      replica_lag_seq: number;
      replica_lag_ms: number;
    };
    expect(status.replica_lag_seq).to.equal(0);
    expect(status.replica_lag_ms).to.equal(0);
  });

  it('the process without a replica has no replica gauges', async () => {
    const fams = await scrape(plain);
    for (const g of [
      'netinv_replica_lag_seq',
      'netinv_replica_lag_ms',
      'netinv_replica_applied_seq',
      'netinv_replica_apply_lag_seconds',
    ])
      expect(fams.has(g), g).to.equal(false);
    expect(value(fams, 'netinv_change_seq')).to.be.above(0);
  });
});
