// Change log retention on every backend: CHANGELOG_MAX_ROWS keeps the newest records, days prune by
// age, the newest record and what a pin needs are never pruned, pruning logs nothing itself, and
// numbering goes on without a gap after it (a memory store reopened finds its counter again).
import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BACKENDS } from '../e2e/conformance/backends.js';
import { createStorage } from '../../storage/open-storage.js';
import { Inventory } from '../../app/inventory.js';
import { resource } from '../../engine/schema/registry.js';
import { ChangeRetention } from '../../app/change-retention.js';
import { TRUE } from '../../engine/plan/nodes.js';
import type { Storage } from '../../storage/types.js';

const dirBackend = {
  name: 'memory:/dir',
  driver: 'memory' as const,
  url: async () => ({ url: `memory:${fs.mkdtempSync(path.join(os.tmpdir(), 'netinv-ret-'))}`, drop: async () => {} }),
};

for (const backend of [...BACKENDS, dirBackend])
  describe(`change log retention on ${backend.name}`, function () {
    this.timeout(120000);
    let db: { url: string; drop(): Promise<void> } | null = null;
    let storage: Storage;
    const seqs = async () =>
      (
        await storage.find('object_change', TRUE, { limit: 1000, offset: 0, ordering: [{ field: 'seq', desc: false }] })
      ).rows.map((r) => r.seq as number);
    const write = async (n: number) => {
      const inv = new Inventory(storage);
      for (let i = 0; i < n; i++)
        expect(
          (
            await inv.create(resource('tag'), [
              { name: `t${Math.random()}`, slug: `t${String(Math.random()).slice(2)}` },
            ])
          ).ok,
        ).to.equal(true);
    };

    before(async function () {
      db = await backend.url();
      if (!db) {
        this.skip();
        return;
      }
      storage = await createStorage(db.url);
      await storage.open();
    });
    after(async () => {
      await storage?.close();
      await db?.drop();
    });

    it('keeps the newest CHANGELOG_MAX_ROWS records and writes no record of its own', async () => {
      await write(12);
      const before = await seqs();
      expect(before.length).to.equal(12);
      const deleted = await new ChangeRetention(storage, { days: 0, maxRows: 5 }).prune();
      expect(deleted).to.equal(7);
      expect(await seqs()).to.deep.equal(before.slice(-5));
      expect(await storage.changeSeq()).to.equal(before[before.length - 1]);
    });

    it('prunes by age but never the newest record, nor what a pin needs', async () => {
      const before = await seqs();
      const r = new ChangeRetention(storage, { days: 90, maxRows: 0 });
      expect(await r.prune()).to.equal(0); // all are new
      r.pin(async () => before[2]);
      const later = Date.now() + 91 * 86_400_000;
      expect(await r.prune(later)).to.equal(2);
      expect(await seqs()).to.deep.equal(before.slice(2));
      const free = new ChangeRetention(storage, { days: 90, maxRows: 0 });
      await free.prune(later);
      expect(await seqs()).to.deep.equal(before.slice(-1));
    });

    it('numbers on without a gap after pruning (and after a reopen)', async () => {
      const last = await storage.changeSeq();
      if (backend.name === 'memory:/dir') {
        await storage.close();
        storage = await createStorage(db!.url);
        await storage.open();
      }
      expect(await storage.changeSeq()).to.equal(last);
      await write(2);
      expect((await seqs()).slice(-3)).to.deep.equal([last, last + 1, last + 2]);
    });
  });
