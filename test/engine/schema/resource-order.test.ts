// The registry's order comes from references: a resource after the resources it refers to, ties in
// declaration order, a cycle refused at load naming its resources.
import { expect } from 'chai';
import { RESOURCES } from '../../../engine/schema/registry.js';
import { dependencyOrder } from '../../../engine/schema/resource-order.js';
import type { FieldDef, ResourceDef } from '../../../engine/schema/types.js';

const fk = (name: string, target: string, deferred = false): FieldDef => ({
  name,
  kind: 'fk',
  label: name,
  target,
  nullable: true,
  ...(deferred ? { deferred: true as const } : {}),
});
const res = (name: string, ...fields: FieldDef[]): ResourceDef => ({
  name,
  app: 'test',
  plural: `${name}s`,
  label: name,
  description: name,
  refField: 'id',
  displayField: 'id',
  fields: [{ name: 'id', kind: 'uuid', label: 'ID', readOnly: true }, ...fields],
});
const names = (rs: readonly ResourceDef[]) => rs.map((r) => r.name);

describe('registry order derived from references', () => {
  it('keeps the order the registry has always had (tables, OpenAPI and menus unchanged)', () => {
    expect(names(RESOURCES)).to.deep.equal([
      'tag',
      'custom_field',
      'region',
      'site_group',
      'tenant_group',
      'tenant',
      'site',
      'location',
      'rack_role',
      'rack',
      'manufacturer',
      'device_type',
      'device_role',
      'platform',
      'cluster_type',
      'cluster_group',
      'cluster',
      'device',
      'interface',
      'virtual_machine',
      'vminterface',
      'vlan',
      'prefix',
      'ip_address',
      'service',
      'group',
      'user',
      'object_permission',
      'token',
      'machine',
      'entity',
      'history',
      'idempotency',
      'object_change',
      'webhook',
      'webhook_delivery',
      'webhook_cursor',
      'job',
      'job_input',
    ]);
  });

  it('puts every resource after the resources it refers to, whatever the declaration order', () => {
    const reversed = dependencyOrder([...RESOURCES].reverse());
    const at = new Map(reversed.map((r, i) => [r.name, i]));
    for (const r of reversed)
      for (const f of r.fields)
        if (f.kind === 'fk' && !f.deferred && f.target !== r.name)
          expect(at.get(f.target!), `${r.name}.${f.name}`).to.be.below(at.get(r.name)!);
    expect(names(dependencyOrder(reversed))).to.deep.equal(names(reversed));
  });

  it('places a new resource declared first after its targets; ties keep declaration order', () => {
    const order = dependencyOrder([res('c', fk('b', 'b')), res('a'), res('b', fk('a', 'a')), res('d')]);
    expect(names(order)).to.deep.equal(['a', 'b', 'c', 'd']);
  });

  it('refuses a cycle of references, naming its resources; a deferred reference breaks it', () => {
    const cycle = () => [res('a', fk('c', 'c')), res('b', fk('a', 'a')), res('c', fk('b', 'b'))];
    expect(() => dependencyOrder(cycle())).to.throw('schema: references form a cycle a -> c -> b -> a');
    const [a, b, c] = cycle();
    const broken = dependencyOrder([{ ...a, fields: [a.fields[0], fk('c', 'c', true)] }, b, c]);
    expect(names(broken)).to.deep.equal(['a', 'b', 'c']);
  });

  it('refuses a deferred reference that closes no cycle, and a reference to an unknown resource', () => {
    expect(() => dependencyOrder([res('a'), res('b', fk('a', 'a', true))])).to.throw(
      'schema: b.a is deferred but closes no cycle',
    );
    expect(() => dependencyOrder([res('a', fk('x', 'nowhere'))])).to.throw('schema: a.x has no known target');
  });
});
