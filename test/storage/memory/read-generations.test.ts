// A memory store's read generations (storage/memory/read-generations.ts): a token's last_used note (a write of
// token rows only) moves the tokens' generation and leaves every other resource's where it was, so kept list
// pages and entity tags of the inventory stay; any other write moves them all.
import { expect } from 'chai';
import { MemoryStorage } from '../../../storage/memory/memory-storage.js';
import { Tokens } from '../../../app/tokens.js';

describe('memory store: read generations', () => {
  it("a token's last_used note moves only the tokens' generation; a site's write moves every one", async () => {
    const s = new MemoryStorage(null);
    const tokens = new Tokens(s, 0);
    try {
      const made = await tokens.create(['*'], 'reader');
      const before = { site: s.memoryRead('site'), token: s.memoryRead('token') };
      expect(await tokens.authenticate(made.key)).to.not.equal(null); // its first use notes last_used
      let row = await s.get('token', made.row.id);
      for (let i = 0; i < 50 && !row?.last_used; i++) {
        await new Promise((r) => setTimeout(r, 10));
        row = await s.get('token', made.row.id);
      }
      expect(row?.last_used, 'last_used noted').to.be.a('string');
      expect(s.memoryRead('site')).to.deep.equal(before.site);
      expect(s.memoryRead('token').gen).to.be.greaterThan(before.token.gen);
      expect(s.memoryRead('token').tag).to.not.equal(before.token.tag);

      const site = { id: (await s.newIds('site', 1))[0], name: 'a', slug: 'a', status: 'active' };
      await s.apply([{ op: 'create', resource: 'site', row: site }]);
      expect(s.memoryRead('site').gen).to.be.greaterThan(before.site.gen);
      expect(s.memoryRead('site').tag).to.not.equal(before.site.tag);
    } finally {
      tokens.close();
      await s.close();
    }
  });
});
