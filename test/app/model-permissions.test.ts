// app/principal.ts modelPermissions: which permissions granted under constraints a principal holds.
// Writes of the inventory's resources apply constraints (app/write-scope.ts), so their add, change,
// delete and custom actions grant under constraints; a view (reads do not apply them yet) and a
// permission on the users app or the lifecycle API (their writes do not apply them) grant nothing.
import { expect } from 'chai';
import { modelPermissions } from '../../app/principal.js';

const perm = (object_types: string[], actions: string[], constraints: unknown) =>
  ({ id: '1', enabled: true, object_types, actions, constraints }) as const;

describe('modelPermissions under constraints', () => {
  it('grants constrained views and writes of inventory resources, keeps every constraint', () => {
    const c = { site__slug: 'ams01' };
    const got = modelPermissions(
      [
        perm(['dcim.device'], ['view', 'add', 'change', 'delete', 'reboot_now'], c),
        perm(['users.user', 'core.job'], ['add', 'change'], c),
        perm(['dcim.site'], ['view'], null),
      ],
      false,
    );
    expect(got.permissions).to.deep.equal([
      'dcim.add_device',
      'dcim.change_device',
      'dcim.delete_device',
      'dcim.reboot_now_device',
      'dcim.view_device',
      'dcim.view_site',
    ]);
    expect(got.constraints['dcim.view_device']).to.deep.equal([c]);
    expect(got.constraints['users.change_user']).to.deep.equal([c]);
    expect(got.constraints['dcim.view_site']).to.equal(null);
  });
});
