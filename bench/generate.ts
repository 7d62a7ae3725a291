// Deterministic benchmark datasets, built as complete rows for Storage.apply (no HTTP, no
// per-row validation): a realistic IPAM shape or uniform random prefixes, with sites, devices,
// interfaces, tags and custom fields in proportion.
import { mulberry32 } from '../engine/random/mulberry32.js';
import { formatCidr, networkOf, u32ToHex } from '../engine/net/ip.js';
import { resource } from '../engine/schema/registry.js';
import type { Row, WriteOp } from '../storage/types.js';

export interface DatasetOptions {
  readonly prefixes: number;
  readonly seed: number;
  readonly shape: 'ipam' | 'uniform';
  readonly v6Share: number; // fraction of prefixes that are IPv6
}

const NOW = '2026-01-01T00:00:00.000Z';
const CODES: Record<string, string> = {
  tag: '1',
  custom_field: '2',
  region: '3',
  site: '4',
  device: '5',
  interface: '6',
  prefix: '7',
};
/** Deterministic UUID-shaped ids: resource code + counter. */
export const benchId = (resourceName: string, i: number): string =>
  `00000000-0000-4000-8${CODES[resourceName]}00-${i.toString(16).padStart(12, '0')}`;

export const TAG_SLUGS = ['core', 'edge', 'production', 'lab', 'critical', 'customer', 'transit', 'mgmt'];
export const STATUSES = ['active', 'active', 'active', 'reserved', 'deprecated', 'container'];

function base(resourceName: string, i: number): Row {
  return { id: benchId(resourceName, i), created: NOW, last_updated: NOW };
}

/** Prefix texts: realistic (aggregates split into /16, /24, /30, /32 hosts) or distinct uniform random /8–/32. */
export function* prefixTexts(o: DatasetOptions, rand: () => number): Generator<string> {
  const v6 = Math.round(o.prefixes * o.v6Share);
  const v4 = o.prefixes - v6;
  if (o.shape === 'uniform') {
    // Distinct blocks (a repeat is redrawn): with repeats kept, 1M uniform draws hold ~150 copies
    // of every /8, which no inventory does, and containment queries would measure their output.
    const seen = new Set<string>();
    while (seen.size < v4) {
      const len = 8 + Math.floor(rand() * 25);
      const text = formatCidr(4, networkOf(4, u32ToHex(Math.floor(rand() * 0x100000000) >>> 0), len), len);
      if (seen.has(text)) continue;
      seen.add(text);
      yield text;
    }
  } else {
    // Walk 10.0.0.0/8, 172.16.0.0/12, 100.64.0.0/10 …: per /16, a few /24s, each with /30s and hosts.
    let n = 0;
    for (let a = 0; n < v4; a++) {
      const first = [10, 172, 100, 198, 44][a % 5],
        second = Math.floor(a / 5) % 256;
      const agg16 = ((first << 24) | (second << 16)) >>> 0;
      yield formatCidr(4, u32ToHex(agg16), 16);
      n++;
      for (let c = 0; c < 256 && n < v4; c++) {
        const net24 = (agg16 | (c << 8)) >>> 0;
        yield formatCidr(4, u32ToHex(net24), 24);
        n++;
        for (let d = 0; d < 256 && n < v4; d += 4) {
          if (rand() < 0.5) {
            yield formatCidr(4, u32ToHex((net24 | d) >>> 0), 30);
            n++;
          } else if (n < v4) {
            yield formatCidr(4, u32ToHex((net24 | (d + 1)) >>> 0), 32);
            n++;
          }
          // A few duplicates, as in real IPAM data kept per site.
          if (rand() < 0.01 && n < v4) {
            yield formatCidr(4, u32ToHex(net24), 24);
            n++;
          }
        }
      }
    }
  }
  const seen6 = new Set<string>();
  for (let i = 0; i < v6;) {
    const len =
      o.shape === 'uniform' ? 32 + Math.floor(rand() * 97) : [48, 56, 64, 64, 64, 127, 128][Math.floor(rand() * 7)];
    const words = [
      0x2001,
      0x0db8,
      Math.floor(rand() * 0x10000),
      Math.floor(rand() * 0x10000),
      Math.floor(rand() * 0x10000),
      0,
      0,
      Math.floor(rand() * 0x10000),
    ];
    const hex = words.map((w) => w.toString(16).padStart(4, '0')).join('');
    const text = formatCidr(6, networkOf(6, hex, len), len);
    if (o.shape === 'uniform') {
      if (seen6.has(text)) continue;
      seen6.add(text);
    }
    i++;
    yield text;
  }
}

/** Batches of create ops in dependency order, and counts for the report. */
export function* datasetBatches(o: DatasetOptions, batchSize = 5000): Generator<WriteOp[]> {
  const rand = mulberry32(o.seed);
  const sites = Math.max(10, Math.round(o.prefixes / 1000));
  // Each part is drawn lazily, as its rows are batched, so the random draws come in one fixed order.
  const parts = [
    catalogueRows(),
    siteRows(sites, rand),
    deviceRows(sites * 4),
    interfaceRows(sites * 4),
    prefixRows(o, rand, sites),
  ];
  for (const part of parts) {
    let batch: WriteOp[] = [];
    for (const [resourceName, row] of part) {
      const def = resource(resourceName);
      batch.push({ op: 'create', resource: resourceName, row: def.derive ? { ...row, ...def.derive(row) } : row });
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }
}

/** A row to create, with its resource's name. */
type Created = readonly [resourceName: string, row: Row];

const tagIds = (k: number) =>
  TAG_SLUGS.map((_, j) => j)
    .filter((j) => (k >> j) & 1)
    .map((j) => benchId('tag', j));

function* catalogueRows(): Generator<Created> {
  for (const [i, slug] of TAG_SLUGS.entries())
    yield ['tag', { ...base('tag', i), name: slug, slug, color: '9e9e9e', description: '' }];
  const field = { filter_logic: 'loose', content_types: ['dcim.site', 'ipam.prefix'], choices: [] };
  yield [
    'custom_field',
    {
      ...base('custom_field', 0),
      name: 'rack_count',
      label: 'Rack count',
      type: 'integer',
      ...structuredClone(field),
      required: false,
      default: null,
      description: '',
    },
  ];
  yield [
    'custom_field',
    {
      ...base('custom_field', 1),
      name: 'owner',
      label: 'Owner',
      type: 'text',
      ...structuredClone(field),
      required: false,
      default: null,
      description: '',
    },
  ];
  for (let i = 0; i < 8; i++)
    yield [
      'region',
      {
        ...base('region', i),
        name: `Region ${i}`,
        slug: `region-${i}`,
        parent: i < 2 ? null : benchId('region', i % 2),
        description: '',
      },
    ];
}

function* siteRows(sites: number, rand: () => number): Generator<Created> {
  for (let i = 0; i < sites; i++) {
    const name = `site-${String(i).padStart(5, '0')}`;
    yield [
      'site',
      {
        ...base('site', i),
        name,
        slug: name,
        status: STATUSES[i % STATUSES.length],
        region: benchId('region', i % 8),
        asn: 64512 + (i % 1000),
        facility: `DC${i % 97}`,
        physical_address: '',
        description: `${i % 3 === 0 ? 'core' : 'edge'} site ${i}`,
        tags: tagIds(Math.floor(rand() * 256)),
        custom_fields: { rack_count: Math.floor(rand() * 20), owner: `team-${i % 17}` },
      },
    ];
  }
}

function* deviceRows(devices: number): Generator<Created> {
  for (let i = 0; i < devices; i++)
    yield [
      'device',
      {
        ...base('device', i),
        name: `dev-${i}`,
        site: benchId('site', Math.floor(i / 4)),
        status: 'active',
        serial: `SN${i}`,
        asset_tag: null,
        comments: '',
        tags: [],
        custom_fields: {},
      },
    ];
}

function* interfaceRows(devices: number): Generator<Created> {
  for (let i = 0; i < devices * 10; i++)
    yield [
      'interface',
      {
        ...base('interface', i),
        device: benchId('device', Math.floor(i / 10)),
        name: `et-0/0/${i % 10}`,
        type: '10gbase-x-sfpp',
        enabled: true,
        mtu: i % 3 ? 9000 : 1500,
        mac_address: null,
        description: '',
        tags: [],
        custom_fields: {},
      },
    ];
}

function* prefixRows(o: DatasetOptions, rand: () => number, sites: number): Generator<Created> {
  let i = 0;
  for (const text of prefixTexts(o, rand)) {
    const k = Math.floor(rand() * 1000);
    yield [
      'prefix',
      {
        ...base('prefix', i),
        prefix: text,
        status: STATUSES[k % STATUSES.length],
        site: k < 900 ? benchId('site', k % sites) : null,
        vlan: null,
        description: k % 50 === 0 ? `customer circuit ${k}` : '',
        tags: k % 10 === 0 ? tagIds(k >> 1) : [],
        custom_fields: k % 4 === 0 ? { rack_count: k % 13, owner: `team-${k % 17}` } : {},
      },
    ];
    i++;
  }
}

export function datasetCounts(o: DatasetOptions): Record<string, number> {
  const sites = Math.max(10, Math.round(o.prefixes / 1000));
  return { prefixes: o.prefixes, sites, devices: sites * 4, interfaces: sites * 40, tags: TAG_SLUGS.length };
}
