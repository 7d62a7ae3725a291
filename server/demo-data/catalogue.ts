// The demo dataset's catalogue: tags, custom fields, what devices are (makers, models, roles, the
// software they run) and the regions. No random draws here, so the rest of the data stays as it was.
import type { Inventory } from '../../app/inventory.js';
import type { Row } from '../../storage/types.js';
import { create } from './write.js';

const TAGS = [
  { name: 'Core', slug: 'core', color: 'f44336' },
  { name: 'Edge', slug: 'edge', color: '2196f3' },
  { name: 'Production', slug: 'production', color: '4caf50' },
  { name: 'Lab', slug: 'lab', color: 'ff9800' },
  { name: 'Critical', slug: 'critical', color: '9c27b0' },
];

const CUSTOM_FIELDS = [
  { name: 'rack_count', label: 'Rack count', type: 'integer', content_types: ['dcim.site'] },
  { name: 'contact', label: 'Contact', type: 'text', content_types: ['dcim.site', 'dcim.device'] },
  {
    name: 'tier',
    label: 'Tier',
    type: 'select',
    choices: ['gold', 'silver', 'bronze'],
    content_types: ['dcim.site'],
    filter_logic: 'exact',
  },
  {
    name: 'features',
    label: 'Features',
    type: 'multi-select',
    choices: ['bgp', 'ospf', 'mpls', 'evpn'],
    content_types: ['dcim.site'],
  },
  { name: 'commissioned', label: 'Commissioned', type: 'date', content_types: ['dcim.device'] },
  { name: 'monitored', label: 'Monitored', type: 'boolean', content_types: ['dcim.device', 'dcim.interface'] },
  {
    name: 'circuit_id',
    label: 'Circuit ID',
    type: 'text',
    content_types: ['dcim.interface', 'ipam.prefix'],
    filter_logic: 'exact',
  },
];

/** The sub-region of each city by its index in the sub-regions below; a city not here is in Asia Pacific. */
const CITY_REGION: Readonly<Record<string, number>> = {
  ams: 0,
  lon: 0,
  par: 0,
  mad: 0,
  fra: 1,
  ber: 1,
  nyc: 2,
  iad: 2,
  ord: 2,
  sfo: 3,
  sea: 3,
  lax: 3,
};

/** What the rest of the dataset refers to. */
export interface Catalogue {
  readonly juniper: Row;
  readonly arista: Row;
  readonly models: { readonly mx10003: Row; readonly mx204: Row; readonly dcs7050: Row; readonly c9300: Row };
  readonly routerRole: Row;
  readonly switchRole: Row;
  readonly platforms: { readonly junos: Row; readonly eos: Row; readonly iosxe: Row };
  readonly regionOf: (city: string) => Row;
}

export async function loadCatalogue(inv: Inventory): Promise<Catalogue> {
  await create(inv, 'tag', structuredClone(TAGS));
  await create(inv, 'custom_field', structuredClone(CUSTOM_FIELDS));
  const [juniper, arista, cisco] = await create(inv, 'manufacturer', [
    { name: 'Juniper', slug: 'juniper' },
    { name: 'Arista', slug: 'arista' },
    { name: 'Cisco', slug: 'cisco' },
  ]);
  const [mx10003, mx204, dcs7050, c9300] = await create(inv, 'device_type', [
    { manufacturer: juniper.id, model: 'MX10003', slug: 'mx10003', part_number: 'MX10003-BASE', u_height: 3 },
    { manufacturer: juniper.id, model: 'MX204', slug: 'mx204', part_number: 'MX204-HW-BASE' },
    {
      manufacturer: arista.id,
      model: 'DCS-7050SX3-48YC8',
      slug: 'dcs-7050sx3-48yc8',
      part_number: 'DCS-7050SX3-48YC8',
    },
    {
      manufacturer: cisco.id,
      model: 'Catalyst 9300-48P',
      slug: 'c9300-48p',
      part_number: 'C9300-48P',
      is_full_depth: false,
    },
  ]);
  const [routerRole, switchRole] = await create(inv, 'device_role', [
    { name: 'Router', slug: 'router', color: 'f44336', vm_role: false },
    { name: 'Switch', slug: 'switch', color: '2196f3', vm_role: false },
  ]);
  const [junos, eos, iosxe] = await create(inv, 'platform', [
    { name: 'Junos', slug: 'junos', manufacturer: juniper.id },
    { name: 'Arista EOS', slug: 'eos', manufacturer: arista.id },
    { name: 'Cisco IOS XE', slug: 'ios-xe', manufacturer: cisco.id },
  ]);
  const regionOf = await loadRegions(inv);
  return {
    juniper,
    arista,
    models: { mx10003, mx204, dcs7050, c9300 },
    routerRole,
    switchRole,
    platforms: { junos, eos, iosxe },
    regionOf,
  };
}

/** Three regions, four sub-regions; returns the region of a city. */
async function loadRegions(inv: Inventory): Promise<(city: string) => Row> {
  const [eu, na, apac] = await create(inv, 'region', [
    { name: 'Europe', slug: 'eu' },
    { name: 'North America', slug: 'na' },
    { name: 'Asia Pacific', slug: 'apac' },
  ]);
  const subs = await create(inv, 'region', [
    { name: 'Europe West', slug: 'eu-west', parent: eu.id },
    { name: 'Europe Central', slug: 'eu-central', parent: eu.id },
    { name: 'US East', slug: 'na-east', parent: na.id },
    { name: 'US West', slug: 'na-west', parent: na.id },
  ]);
  return (city) => (Object.hasOwn(CITY_REGION, city) ? subs[CITY_REGION[city]] : apac);
}
