// The list operations of the OpenAPI document carry one query parameter per filter and per row of
// its lookup table (filter specs and catalogue, as the planner resolves them): `<fk>_id`,
// `__isnull`, `__empty` and the network rows included.
import { expect } from 'chai';
import { filtersOf } from '../../engine/filters/filter-set.js';
import { resource, resourcePath } from '../../engine/schema/registry.js';
import { INVENTORY_RESOURCES } from '../../server/routes/inventory.js';
import type { OpenApiDocument, Parameter } from '../../server/openapi/types.js';
import { startServer, type TestServer } from '../support/server.js';

describe('OpenAPI filter parameters from the filter specs', () => {
  let srv: TestServer;
  let doc: OpenApiDocument;
  before(async () => {
    srv = await startServer();
    doc = (await (await fetch(`${srv.url}/openapi.json`)).json()) as OpenApiDocument;
  });
  after(() => srv.close());

  const params = (path: string): Map<string, Parameter> =>
    new Map(doc.paths[path].get!.parameters!.map((p) => [p.name, p]));

  it('documents every filter of every list and every lookup in its table', () => {
    for (const r of INVENTORY_RESOURCES) {
      const names = [...params(resourcePath(r)).keys()];
      const want = [...filtersOf(r).values()].flatMap((s) => [
        s.name,
        ...Object.keys(s.lookups).map((l) => `${s.name}__${l}`),
      ]);
      expect(names, resourcePath(r)).to.include.members(want);
    }
  });

  it("documents NetBox's <fk>_id filters with the reference filter's lookups", () => {
    const prefixes = [...params('/api/ipam/prefixes/').keys()];
    expect(prefixes).to.include.members([
      'site_id',
      'site_id__n',
      'site_id__isnull',
      'vlan_id',
      'vlan_id__n',
      'vlan_id__isnull',
      'region_id',
      'region_id__n',
    ]);
    expect([...params('/api/dcim/interfaces/').keys()]).to.include.members([
      'device_id',
      'device_id__n',
      'site_id',
      'region_id',
    ]);
    expect([...params('/api/dcim/sites/').keys()]).to.include.members([
      'region_id',
      'region_id__n',
      'region_id__isnull',
    ]);
    expect(params('/api/ipam/prefixes/').get('site_id')!.description).to.match(/by id, or `null`/);
    expect(params('/api/ipam/prefixes/').get('site')!.description).to.match(/by id or site slug\/name/);
  });

  it('documents __isnull on nullable fields and __empty on string fields, both taking booleans', () => {
    const sites = params(resourcePath(resource('site')));
    for (const name of ['asn__isnull', 'region__isnull', 'name__empty', 'description__empty', 'status__empty']) {
      expect(sites.get(name)?.schema, name).to.deep.equal({ type: 'array', items: { type: 'boolean' } });
    }
    expect(sites.has('name__isnull')).to.equal(false);
    expect(sites.has('asn__empty')).to.equal(false);
    expect(params('/api/dcim/interfaces/').get('mac_address__isnull')).to.not.equal(undefined);
    expect(doc.paths['/api/dcim/sites/'].get!.description).to.contain('`__isnull`').and.to.contain('`__empty`');
  });
});
