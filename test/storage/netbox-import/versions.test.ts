// Which NetBox made a database, from its dcim migrations (and 4.3's layout): the releases the import
// reads are named, the others refused in one line saying which they are.
import { expect } from 'chai';
import { netboxVersion } from '../../../storage/netbox-import/versions.js';

const TABLES = new Map<string, ReadonlySet<string>>(
  ['django_migrations', 'django_content_type', 'dcim_site', 'dcim_device', 'ipam_prefix', 'ipam_service'].map((t) => [
    t,
    new Set(['id']),
  ]),
);
const upTo = (n: number) => Array.from({ length: n }, (_, i) => `${String(i + 1).padStart(4, '0')}_m`);

describe('import:netbox: the NetBox version of a database', () => {
  it('names 3.7, 4.0, 4.1 and 4.2 by their first dcim migration', () => {
    const seen = [183, 185, 186, 187, 188, 190, 191, 200].map((n) => netboxVersion(TABLES, upTo(n)));
    expect(seen.map((v) => (v.ok ? v.version : v.why))).to.deep.equal([
      '3.7',
      '3.7',
      '4.0',
      '4.0',
      '4.1',
      '4.1',
      '4.2',
      '4.2',
    ]);
  });

  it('refuses an older NetBox, a 4.3 (later migrations and its layout), and a database without NetBox tables', () => {
    expect(netboxVersion(TABLES, upTo(182))).to.deep.equal({
      ok: false,
      why: 'the source is a NetBox older than 3.7 (dcim migration 182); import reads 3.7 to 4.2',
    });
    expect(netboxVersion(TABLES, upTo(201))).to.deep.equal({ ok: true, version: '4.2' });
    const later = new Map(TABLES).set('ipam_service', new Set(['id', 'parent_object_id']));
    expect(netboxVersion(later, upTo(205))).to.deep.equal({
      ok: false,
      why: 'the source is NetBox 4.3 or later (dcim migration 205); import reads 3.7 to 4.2',
    });
    expect(netboxVersion(new Map([['dcim_site', new Set(['id'])]]), [])).to.deep.equal({
      ok: false,
      why:
        'the source is not a NetBox database ' +
        '(it has no table django_migrations, django_content_type, dcim_device, ipam_prefix)',
    });
  });
});
