// Related counts come from the references marked `counted`: the counted resource declares nothing.
import { expect } from 'chai';
import { RESOURCES, resource } from '../../../engine/schema/registry.js';
import { withCounts } from '../../../engine/schema/counted-references.js';
import type { ResourceDef } from '../../../engine/schema/types.js';

const names = (r: ResourceDef) => (r.counts ?? []).map((c) => `${c.name} ${c.resource}.${c.field}`);

describe('related counts derived from references', () => {
  it('gives sites and tenants the counts they have always served, in the same order', () => {
    expect(names(resource('site'))).to.deep.equal([
      'location_count location.site',
      'rack_count rack.site',
      'device_count device.site',
      'cluster_count cluster.site',
      'virtualmachine_count virtual_machine.site',
      'vlan_count vlan.site',
      'prefix_count prefix.site',
    ]);
    expect(names(resource('virtual_machine'))).to.deep.equal(['interface_count vminterface.virtual_machine']);
    expect(resource('tenant').counts?.map((c) => c.label)).to.include('Virtual machine count');
  });

  it('a new resource referring to sites gives them a count from its own file alone', () => {
    const bases = RESOURCES.map(({ counts: _, ...r }): ResourceDef => r);
    const circuit: ResourceDef = {
      name: 'circuit',
      app: 'circuits',
      plural: 'circuits',
      label: 'Circuit',
      description: 'A circuit',
      refField: 'id',
      displayField: 'id',
      fields: [
        { name: 'id', kind: 'uuid', label: 'ID', readOnly: true },
        { name: 'site', kind: 'fk', label: 'Site', target: 'site', nullable: true, counted: true },
      ],
    };
    const site = withCounts([...bases, circuit]).find((r) => r.name === 'site')!;
    expect(names(site).at(-1)).to.equal('circuit_count circuit.site');
    expect(() => withCounts([...bases, { ...circuit, counts: [] }])).to.throw('schema: circuit declares counts');
  });
});
