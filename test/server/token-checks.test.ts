// Token checks are answered from the process's memory: the store is read once per key, and again
// only after a token changed (app/watched-cache.ts). Across processes: test/storage/sql/scale-out.test.ts.
import { expect } from 'chai';
import { MemoryStorage } from '../../storage/memory/memory-storage.js';
import { Tokens } from '../../app/tokens.js';
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
});
