// The replica tests' random workload: writes of sites and prefixes (create, patch, delete) through
// the processes given, and random list queries; `compare` asks every replica what the reference
// (SQL push-down) answers, at the seq of the last acknowledged write.
// @ts-ignore -- chai 6 ships no type declarations
import { expect } from 'chai';
import { mulberry32 } from '../../../engine/random/mulberry32.js';

export const KEY = 'replica-diff-key-0123456789';

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

export async function call(
  url: string,
  method: string,
  p: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(url + p, {
    method,
    headers: { Authorization: `Token ${KEY}`, 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

export const STATUSES = ['active', 'planned', 'retired'];
export const REGIONS = ['eu', 'us', 'apac'];
export const TAGS = ['core', 'edge'];

/** The regions and tags the workload's sites refer to, made through `url`. */
export async function seedReferences(url: string): Promise<void> {
  for (const slug of REGIONS)
    expect((await call(url, 'POST', '/api/dcim/regions/', { name: slug.toUpperCase(), slug })).status).to.equal(201);
  for (const slug of TAGS)
    expect((await call(url, 'POST', '/api/extras/tags/', { name: slug, slug })).status).to.equal(201);
}

export class RandomWorkload {
  /** The highest X-Change-Seq acknowledged so far. */
  last = 0;
  readonly r: () => number;
  private readonly sites: string[] = [];
  private readonly prefixes: string[] = [];
  private n = 0;

  constructor(
    seed: number,
    private readonly writers: readonly string[],
  ) {
    this.r = mulberry32(seed);
  }

  private int(n: number): number {
    return Math.floor(this.r() * n);
  }
  private pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }

  /** One random write through one of the writers; its answer is checked to be a decided one. */
  async write(): Promise<Answer> {
    const { sites, prefixes } = this;
    const url = this.pick(this.writers);
    const roll = this.r();
    let res: Answer;
    if (roll < 0.35 || sites.length < 3) {
      const i = this.n++;
      res = await call(url, 'POST', '/api/dcim/sites/', {
        name: `site ${i} ${this.pick(['core', 'edge', 'Lab'])}`,
        slug: `s${i}`,
        status: this.pick(STATUSES),
        region: this.pick([...REGIONS, null]) === null ? null : { slug: this.pick(REGIONS) },
        asn: this.pick([null, 65000 + this.int(100), 64512]),
        tags: TAGS.filter(() => this.r() < 0.4),
      });
      if (res.status === 201) sites.push(res.body.id);
    } else if (roll < 0.55) {
      const i = this.n++;
      res = await call(url, 'POST', '/api/ipam/prefixes/', {
        prefix: `10.${this.int(4)}.${this.int(8) * 32}.0/${this.pick([19, 24, 27])}`.replace(
          /\.\d+\.0\/19$/,
          '.0.0/19',
        ),
        status: this.pick(['active', 'reserved']),
        site: sites.length ? this.pick(sites) : null,
        description: `p${i}`,
      });
      if (res.status === 201) prefixes.push(res.body.id);
    } else if (roll < 0.8) {
      res = await call(url, 'PATCH', `/api/dcim/sites/${this.pick(sites)}/`, {
        status: this.pick(STATUSES),
        facility: this.pick(['', 'F1', 'F2']),
        asn: this.pick([null, 65010]),
        name: this.r() < 0.3 ? `site ${this.n++} renamed` : undefined,
      });
    } else if (roll < 0.9 && prefixes.length) {
      const id = prefixes.splice(this.int(prefixes.length), 1)[0];
      res = await call(url, 'DELETE', `/api/ipam/prefixes/${id}/`);
    } else {
      const id = sites.splice(this.int(sites.length), 1)[0];
      res = await call(url, 'DELETE', `/api/dcim/sites/${id}/`);
      if (res.status !== 204) sites.push(id); // still referenced: kept
    }
    expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201, 204, 400, 409]);
    this.last = Math.max(this.last, Number(res.headers.get('x-change-seq')));
    return res;
  }

  /** A random list query of sites or prefixes (path and query string). */
  query(): string {
    const int = (n: number) => this.int(n);
    const pick = <T>(xs: readonly T[]) => this.pick(xs);
    if (this.r() < 0.5) {
      const f = [
        () => `status=${pick(STATUSES)}`,
        () => `region=${pick(REGIONS)}`,
        () => `name__isw=site ${int(9)}`,
        () => `name__ic=${pick(['core', 'EDGE', 'lab'])}`,
        () => `asn__gte=${65000 + int(100)}`,
        () => `asn__isnull=${pick(['true', 'false'])}`,
        () => `tag=${pick(TAGS)}`,
        () => `q=${pick(['core', 's1', 'edge'])}`,
        () => `facility=${pick(['F1', 'F2'])}`,
        () => `status__n=${pick(STATUSES)}`,
      ];
      const parts = Array.from({ length: 1 + int(3) }, () => pick(f)());
      const ordering = pick(['name', '-asn,name', 'slug', '-created,name']);
      return `/api/dcim/sites/?${parts.join('&')}&ordering=${ordering}&limit=${1 + int(30)}&offset=${int(5)}`;
    }
    const f = [
      () => `network__net_contained=10.${int(4)}.0.0/16`,
      () => `within_include=10.${int(4)}.0.0/${pick([16, 19])}`,
      () => `status=${pick(['active', 'reserved'])}`,
      () => `mask_length__gte=${pick([19, 24, 27])}`,
      () => `site__isnull=${pick(['true', 'false'])}`,
      () => `contains=10.${int(4)}.${int(256)}.${int(256)}`,
      () => `description__isw=p${int(9)}`,
    ];
    const parts = Array.from({ length: 1 + int(2) }, () => pick(f)());
    const ordering = pick(['prefix', '-prefix_length,prefix', 'description']);
    return `/api/ipam/prefixes/?${parts.join('&')}&ordering=${ordering}&limit=${1 + int(40)}`;
  }

  /** Writes and queries in steps until `plans` queries were compared: each replica answers `query`
   * from itself, at the last write's seq, exactly as the reference does (ids in order, count). */
  private readonly asked: string[] = [];

  async compare(reference: string, replicas: readonly string[], plans: number, queriesPerStep = 10): Promise<void> {
    for (let queries = 0; queries < plans;) {
      for (let w = 1 + this.int(4); w > 0; w--) await this.write();
      for (let q = 0; q < queriesPerStep && queries < plans; q++, queries++) {
        // Some queries are asked again after later writes: a page a replica kept must not outlive them.
        const p = this.asked.length && this.r() < 0.4 ? this.pick(this.asked) : this.query();
        if (this.asked.length < 30) this.asked.push(p);
        const want = await call(reference, 'GET', p);
        expect(want.status, `${p}: ${JSON.stringify(want.body)}`).to.equal(200);
        for (const url of replicas) {
          const got = await call(url, 'GET', p, undefined, { 'X-Min-Change-Seq': String(this.last) });
          expect(got.status, p).to.equal(200);
          expect(got.headers.get('x-read-source'), p).to.equal('replica');
          expect(
            got.body.results.map((x: { id: string }) => x.id),
            `${p} at seq ${this.last}`,
          ).to.deep.equal(want.body.results.map((x: { id: string }) => x.id));
          expect(got.body.count, p).to.equal(want.body.count);
          // Whole objects, nested ones included, as the reference serves them (links name each server's own address).
          expect(JSON.stringify(got.body.results).replaceAll(url, ''), p).to.equal(
            JSON.stringify(want.body.results).replaceAll(reference, ''),
          );
        }
      }
    }
  }
}
