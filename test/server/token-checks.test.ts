// Token checks are answered from the process's memory: the store is read once per key, and again
// only after a token changed (app/watched-cache.ts). Across processes: test/storage/sql/scale-out.test.ts.
import { expect } from 'chai';
import { MemoryStorage } from '../../storage/memory/memory-storage.js';
import { Tokens } from '../../app/tokens.js';
import { digestOf } from '../../app/token-keys.js';
import type { Storage } from '../../storage/types.js';

/** The store, counting the token lookups made through it. */
function counting(s: Storage): { storage: Storage; lookups: () => number } {
  let n = 0;
  const storage = new Proxy(s, {
    get(target, prop, receiver) {
      if (prop === 'findBy')
        return (...a: Parameters<Storage['findBy']>) => {
          if (a[0] === 'token') n++;
          return target.findBy(...a);
        };
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { storage, lookups: () => n };
}

describe('token checks from memory', () => {
  let store: MemoryStorage;
  beforeEach(async () => {
    store = new MemoryStorage(null);
    await store.open();
  });
  afterEach(() => store.close());

  it(
    'reads the store once per key, then again only after ' + 'a token changed; a deleted token is refused at once',
    async () => {
      const { storage, lookups } = counting(store);
      const tokens = new Tokens(storage, 60_000);
      const a = await tokens.create(['*'], 'a');
      const b = await tokens.create(['dcim.view_site'], 'b');
      const before = lookups();
      for (let i = 0; i < 50; i++) expect((await tokens.authenticate(a.key))?.permissions).to.deep.equal(['*']);
      expect(await tokens.authenticate('no-such-key')).to.equal(null);
      expect(await tokens.authenticate('no-such-key')).to.equal(null);
      expect(lookups() - before).to.equal(2); // a's key and the unknown one, once each

      // The token's rights are its user's: a change of the object permission it holds is seen at once.
      const [held] = await store.findBy('object_permission', 'name', `token-${b.row.id}`);
      await store.apply([
        { op: 'update', resource: 'object_permission', row: { ...held, actions: ['view', 'add'] }, before: held },
      ]);
      expect((await tokens.authenticate(b.key))?.permissions).to.deep.equal(['dcim.add_site', 'dcim.view_site']);
      await store.apply([{ op: 'delete', resource: 'token', id: a.row.id, before: a.row }]);
      expect(await tokens.authenticate(a.key)).to.equal(null);

      // Writes of other resources leave the answers in place.
      expect((await tokens.authenticate(b.key))?.name).to.equal('b');
      const settled = lookups();
      await store.apply([
        {
          op: 'create',
          resource: 'tag',
          row: {
            id: '00000000-0000-4000-8000-000000000001',
            name: 't',
            slug: 't',
            created: new Date().toISOString(),
            last_updated: new Date().toISOString(),
          },
        },
      ]);
      expect((await tokens.authenticate(b.key))?.name).to.equal('b');
      expect(lookups()).to.equal(settled);
      tokens.close();
    },
  );

  it('a v2 key (nbt_<key>.<secret>) is found by key id, checked by HMAC once, then answered from memory', async () => {
    const { storage, lookups } = counting(store);
    const tokens = new Tokens(storage, 60_000, { '1': 'p'.repeat(50), '2': 'q'.repeat(60) });
    const owner = (await tokens.create(['*'], 'owner')).row.user as string;
    const v2 = await tokens.createForUser(owner);
    expect(v2.key).to.match(/^nbt_[A-Za-z0-9]{12}\.[A-Za-z0-9]{40}$/);
    expect(v2.row).to.include({ pepper_id: 2 }); // the highest pepper id, as NetBox picks it
    expect(v2.row.key_hash).to.equal(digestOf('q'.repeat(60), v2.secret));
    expect(JSON.stringify(v2.row)).to.not.include(v2.secret);
    const before = lookups();
    for (let i = 0; i < 50; i++) expect((await tokens.authenticate(v2.key))?.permissions).to.deep.equal(['*']);
    expect(lookups() - before).to.equal(1);
    const wrong = v2.key.slice(0, -1) + (v2.key.endsWith('a') ? 'b' : 'a');
    expect(await tokens.authenticate(wrong)).to.equal(null);
    // Without its pepper (taken out of the configuration) the token is refused.
    const unpeppered = new Tokens(storage, 60_000, { '1': 'p'.repeat(50) });
    expect(await unpeppered.authenticate(v2.key)).to.equal(null);
    unpeppered.close();
    tokens.close();
  });
});
