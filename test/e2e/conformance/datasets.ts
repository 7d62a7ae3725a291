// Datasets of the conformance suite. Objects carry a `_label` (stored as their description, or
// used to refer to them as '@label' in later objects); expected answers are lists of labels.
export interface Dataset {
  readonly name: string;
  readonly path: string; // list endpoint the cases query
  readonly load: readonly (readonly [string, readonly Record<string, unknown>[]])[];
}

const P = (label: string, prefix: string, extra: Record<string, unknown> = {}) => ({
  _label: label,
  prefix,
  status: 'active',
  ...extra,
});
export const prefixes: Dataset = {
  name: 'prefixes',
  path: '/api/ipam/prefixes/',
  load: [
    [
      '/api/ipam/prefixes/',
      [
        P('p1', '192.168.0.0/16', { status: 'container' }),
        P('p2', '192.168.1.0/24'),
        P('p3', '192.168.2.0/24', { status: 'reserved' }),
        P('p4', '192.168.3.0/24'),
        P('p5', '192.168.3.192/28'),
        P('p6', '192.168.3.208/28', { status: 'deprecated' }),
        P('p7', '192.168.3.224/28'),
        P('p8', 'fd78:da4f:e596:c217::/64', { status: 'container' }),
        P('p9', 'fd78:da4f:e596:c217::/120'),
        P('p10', 'fd78:da4f:e596:c217::/122'),
      ],
    ],
  ],
};

const I = (label: string, address: string) => ({ _label: label, address });
export const addresses: Dataset = {
  name: 'ip-addresses',
  path: '/api/ipam/ip-addresses/',
  load: [
    [
      '/api/ipam/ip-addresses/',
      [
        I('i1', '10.0.0.1/24'),
        I('i2', '10.0.0.1/25'),
        I('i3', '10.0.0.2/24'),
        I('i4', '10.0.0.3/24'),
        I('i5', '10.0.0.4/24'),
        I('i6', '2001:db8::1/64'),
      ],
    ],
  ],
};

export const sites: Dataset = {
  name: 'sites',
  path: '/api/dcim/sites/',
  load: [
    [
      '/api/extras/tags/',
      [
        { _label: 'a', name: 'A', slug: 'a' },
        { _label: 'b', name: 'B', slug: 'b' },
      ],
    ],
    [
      '/api/extras/custom-fields/',
      [
        { _label: 'cf-t', name: 't', type: 'text', filter_logic: 'exact', content_types: ['dcim.site'] },
        { _label: 'cf-u', name: 'u', type: 'text', content_types: ['dcim.site'] },
        { _label: 'cf-racks', name: 'racks', type: 'integer', content_types: ['dcim.site'] },
        {
          _label: 'cf-feat',
          name: 'feat',
          type: 'multi-select',
          choices: ['bgp', 'ospf'],
          content_types: ['dcim.site'],
        },
        { _label: 'cf-mon', name: 'mon', type: 'boolean', content_types: ['dcim.site'] },
        { _label: 'cf-since', name: 'since', type: 'date', content_types: ['dcim.site'] },
        { _label: 'cf-off', name: 'off', type: 'text', filter_logic: 'disabled', content_types: ['dcim.site'] },
      ],
    ],
    [
      '/api/dcim/regions/',
      [
        { _label: 'r1', name: 'R1', slug: 'r1' },
        { _label: 'r2', name: 'R2', slug: 'r2' },
      ],
    ],
    ['/api/dcim/regions/', [{ _label: 'r2a', name: 'R2a', slug: 'r2a', parent: '@r2' }]],
    [
      '/api/dcim/sites/',
      [
        {
          _label: 'S0',
          name: 'S0',
          slug: 's0',
          status: 'active',
          region: null,
          asn: 65000,
          tags: ['a', 'b'],
          custom_fields: { u: 'Alpha Core', racks: 4, feat: ['bgp', 'ospf'], mon: true, since: '2024-01-01' },
        },
        {
          _label: 'S1',
          name: 'S1',
          slug: 's1',
          status: 'planned',
          region: '@r1',
          asn: 65001,
          facility: 'F1',
          tags: ['a'],
          custom_fields: { t: '', u: 'alphabet', racks: 2, feat: ['bgp'], mon: false, since: '2023-06-30' },
        },
        {
          _label: 'S2',
          name: 'S2',
          slug: 's2',
          status: 'active',
          region: '@r2',
          asn: 65010,
          tags: ['b'],
          custom_fields: { t: null, feat: [] },
        },
        {
          _label: 'S2a',
          name: 'S2a',
          slug: 's2a',
          status: 'retired',
          region: '@r2a',
          asn: null,
          tags: [],
          custom_fields: { t: 'Lorem ipsum', racks: 10 },
        },
        {
          _label: 'S3',
          name: 'S3',
          slug: 's3',
          status: 'staging',
          region: '@r1',
          asn: 64999,
          facility: 'F3',
          custom_fields: { t: 'not-matched', racks: null, feat: null },
        },
      ],
    ],
  ],
};

export const interfaces: Dataset = {
  name: 'interfaces',
  path: '/api/dcim/interfaces/',
  load: [
    ['/api/dcim/sites/', [{ _label: 'X', name: 'X', slug: 'x' }]],
    [
      '/api/dcim/devices/',
      [
        { _label: 'D1', name: 'D1', site: '@X' },
        { _label: 'D2', name: 'D2', site: '@X' },
      ],
    ],
    [
      '/api/dcim/interfaces/',
      [
        { _label: 'I1', device: '@D1', name: 'eth0', type: '1000base-t', mac_address: 'aa:bb:cc:00:11:22', mtu: 1500 },
        { _label: 'I2', device: '@D1', name: 'lo0', type: 'virtual', enabled: false },
        { _label: 'I3', device: '@D2', name: 'eth0', type: '10gbase-x-sfpp', mac_address: 'AABB.CC00.1133', mtu: 9000 },
      ],
    ],
  ],
};

/** Regions R1 and R2 > R2a; sites SA (R1), SB (R2a), SC (no region); a device per site; an
 * interface per device; a prefix per site and one without; an address per interface and one without. */
const relationLoad: Dataset['load'] = [
  [
    '/api/dcim/regions/',
    [
      { _label: 'R1', name: 'R1', slug: 'r1' },
      { _label: 'R2', name: 'R2', slug: 'r2' },
    ],
  ],
  ['/api/dcim/regions/', [{ _label: 'R2a', name: 'R2a', slug: 'r2a', parent: '@R2' }]],
  [
    '/api/dcim/sites/',
    [
      { _label: 'SA', name: 'SA', slug: 'sa', region: '@R1' },
      { _label: 'SB', name: 'SB', slug: 'sb', region: '@R2a' },
      { _label: 'SC', name: 'SC', slug: 'sc' },
    ],
  ],
  [
    '/api/dcim/devices/',
    [
      { _label: 'DA', name: 'DA', site: '@SA' },
      { _label: 'DB', name: 'DB', site: '@SB' },
      { _label: 'DC', name: 'DC', site: '@SC' },
    ],
  ],
  [
    '/api/dcim/interfaces/',
    [
      { _label: 'IA', device: '@DA', name: 'e0', type: 'virtual' },
      { _label: 'IB', device: '@DB', name: 'e0', type: 'virtual' },
      { _label: 'IC', device: '@DC', name: 'e0', type: 'virtual' },
    ],
  ],
  [
    '/api/ipam/prefixes/',
    [
      { _label: 'PA', prefix: '10.1.0.0/16', site: '@SA' },
      { _label: 'PB', prefix: '10.2.0.0/16', site: '@SB' },
      { _label: 'PC', prefix: '10.3.0.0/16', site: '@SC' },
      { _label: 'PN', prefix: '10.4.0.0/16' },
    ],
  ],
  [
    '/api/ipam/ip-addresses/',
    [
      { _label: 'AA', address: '10.1.0.1/16', interface: '@IA' },
      { _label: 'AB', address: '10.2.0.1/16', interface: '@IB' },
      { _label: 'AC', address: '10.3.0.1/16', interface: '@IC' },
      { _label: 'AN', address: '10.4.0.1/16' },
    ],
  ],
];
const related = (name: string, path: string): Dataset => ({
  name: `${name} (related objects)`,
  path,
  load: relationLoad,
});

export const DATASETS = [
  prefixes,
  addresses,
  sites,
  interfaces,
  related('interfaces', '/api/dcim/interfaces/'),
  related('prefixes', '/api/ipam/prefixes/'),
  related('ip-addresses', '/api/ipam/ip-addresses/'),
];
