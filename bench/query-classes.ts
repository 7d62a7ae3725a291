// The query classes every backend is measured on, as the query strings a user would send.
// Values come from sample prefixes of the loaded dataset so every class hits real rows.
import { parseCidr, formatAddress, formatCidr, networkOf } from '../engine/net/ip.js';

export interface QueryClass {
  readonly name: string;
  readonly resource: string;
  readonly query: string;
}

export function hostInside(prefix: string): string {
  const c = parseCidr(prefix)!;
  return formatAddress({ family: c.family, hex: c.host });
}

export function parentBlock(prefix: string, len: number): string {
  const c = parseCidr(prefix)!;
  const l = Math.min(len, c.length);
  return formatCidr(c.family, networkOf(c.family, c.host, l), l);
}

/** The `pick` the benchmark runs with: which samples (and text values) its classes use. */
export const BENCH_PICK = 7;

/** `samples`: prefix texts of the dataset (IPv4 first), used round-robin by `pick(i)`. */
export function queryClasses(samples: readonly string[], pick: number): QueryClass[] {
  const v4 = samples.filter((s) => !s.includes(':'));
  const s = (k: number) => v4[(pick + k) % v4.length];
  return [
    { name: 'net_host', resource: 'prefix', query: `network__net_host=${hostInside(s(0))}` },
    { name: 'net_contains_or_equals', resource: 'prefix', query: `network__net_contains_or_equals=${s(1)}` },
    { name: 'net_contained (selective)', resource: 'prefix', query: `network__net_contained=${parentBlock(s(2), 24)}` },
    { name: 'net_contained (broad)', resource: 'prefix', query: 'network__net_contained=10.0.0.0/8' },
    {
      name: 'net_in',
      resource: 'prefix',
      query: `network__net_in=${parentBlock(s(3), 24)}&network__net_in=${parentBlock(s(4), 24)}`,
    },
    { name: 'family', resource: 'prefix', query: 'network__family=6' },
    { name: 'string ic', resource: 'prefix', query: `description__ic=circuit ${(pick * 50) % 1000}` },
    { name: 'string isw', resource: 'prefix', query: `description__isw=customer circuit ${(pick * 50) % 1000}` },
    { name: 'string ie', resource: 'prefix', query: `description__ie=CUSTOMER CIRCUIT ${(pick * 50) % 1000}` },
    { name: 'regex', resource: 'prefix', query: 'description__re=circuit 1[0-4]0$' },
    { name: 'numeric range', resource: 'prefix', query: 'prefix_length__gte=20&prefix_length__lte=21' },
    { name: 'tag AND', resource: 'prefix', query: 'tag=core&tag=edge' },
    { name: 'cf integer lt', resource: 'prefix', query: 'cf_rack_count__lt=2' },
    { name: 'cf text exact', resource: 'prefix', query: 'cf_owner__ie=team-3' },
    {
      name: 'combined (4 predicates)',
      resource: 'prefix',
      query: `network__net_contained=${parentBlock(s(5), 8)}&status=active&tag__n=lab&prefix_length__gte=24`,
    },
    { name: 'no filter (list)', resource: 'prefix', query: '' },
  ];
}
