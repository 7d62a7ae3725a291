// An import reads the store a batch at a time, not a row at a time, on every backend: a file of many rows
// naming a few hundred sites by slug, tags by slug, and objects by id (updates) takes a number of reads that
// does not grow with its rows (counted at the store's read methods), and imports every row right.
import { expect } from 'chai';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { createStorage } from '../../storage/open-storage.js';
import { Inventory } from '../../app/inventory.js';
import { resource } from '../../engine/schema/registry.js';
import { importColumns, importRecords } from '../../app/transfer/import.js';
import type { Storage } from '../../storage/types.js';

const READS = new Set(['get', 'getMany', 'findBy', 'find']);

/** The store, counting the calls of its read methods. */
function counted(storage: Storage): { storage: Storage; reads: () => number } {
  let n = 0;
  const proxy = new Proxy(storage, {
    get(target, prop, receiver) {
      const v: unknown = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function') return v;
      if (typeof prop === 'string' && READS.has(prop))
        return (...args: unknown[]) => {
          n++;
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      return v.bind(target);
    },
  });
  return { storage: proxy, reads: () => n };
}

const ROWS = 1500;
const SITES = 300;

for (const backend of BACKENDS)
  describe(`import reads a batch at a time (${backend.name})`, function () {
    this.timeout(180_000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    let storage: Storage;
    before(async function () {
      db = await backend.url();
      if (!db) return this.skip();
      storage = await createStorage(db.url);
      await storage.open();
      const inv = new Inventory(storage);
      const sites = Array.from({ length: SITES }, (_, i) => ({ name: `s${i}`, slug: `s${i}`, status: 'active' }));
      expect((await inv.create(resource('site'), sites)).ok).to.equal(true);
      const tags = ['gold', 'blue'].map((t) => ({ name: t, slug: t }));
      expect((await inv.create(resource('tag'), tags)).ok).to.equal(true);
    });
    after(async () => {
      await storage?.close();
      await db?.drop();
    });

    it('creates rows naming sites and tags by slug with reads that do not grow with the rows', async () => {
      const c = counted(storage);
      const inv = new Inventory(c.storage);
      const prefix = resource('prefix');
      const records = Array.from({ length: ROWS }, (_, i) => ({
        prefix: `10.${i >> 8}.${i & 255}.0/24`,
        status: 'active',
        site: `s${i % SITES}`,
        tags: i % 2 ? 'gold,blue' : 'gold',
      }));
      const out = await importRecords(inv, prefix, await importColumns(inv, prefix), records);
      expect(out).to.include({ ok: true, created: ROWS });
      expect(c.reads(), 'reads of the store').to.be.below(40);
      const one = (await storage.findBy('prefix', 'prefix', '10.1.44.0/24'))[0];
      const site = (await storage.get('site', String(one.site)))!;
      expect(site.slug).to.equal(`s${300 % SITES}`);
      expect((one.tags as string[]).length).to.equal(1);
    });

    it('updates rows by id and names a missing id or site per row, with reads that do not grow', async () => {
      const stored = (
        await storage.find('prefix', { kind: 'const', value: true }, { limit: ROWS, offset: 0, ordering: [] })
      ).rows;
      expect(stored.length).to.equal(ROWS);
      const c = counted(storage);
      const inv = new Inventory(c.storage);
      const prefix = resource('prefix');
      const records = stored.map((r, i) => ({ id: r.id, description: `d${i}`, site: `s${(i + 1) % SITES}` }));
      const out = await importRecords(inv, prefix, await importColumns(inv, prefix), records);
      expect(out).to.include({ ok: true, updated: ROWS });
      expect(c.reads(), 'reads of the store').to.be.below(40);

      const bad: Record<string, string>[] = [
        { id: stored[0].id, site: 'nowhere' },
        { id: stored[0].id.replace(/.$/, (d) => (d === '0' ? '1' : '0')), description: 'x' },
      ];
      const refused = await importRecords(inv, prefix, await importColumns(inv, prefix), bad);
      expect(refused.ok).to.equal(false);
      if (refused.ok) return;
      expect(refused.errors.map((e) => [e.row, e.field])).to.deep.equal([
        [1, 'site'],
        [2, 'id'],
      ]);
    });
  });
