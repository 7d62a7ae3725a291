// docs/permission-constraints.md: every example covers the number of demo objects it states (run as
// user 100, on the memory store), and every error it shows is the message the code gives. Its lookup
// and name tables are generated (test/docs/generated-docs.test.ts keeps them current).
import { expect } from 'chai';
import fs from 'node:fs';
import { Inventory } from '../../app/inventory.js';
import { constraintPlan, errorLines } from '../../engine/permissions/constraint-plan.js';
import { resource } from '../../engine/schema/registry.js';
import { loadDemoData } from '../../server/demo-data.js';
import { createStorage } from '../../storage/open-storage.js';
import type { Storage } from '../../storage/types.js';
import { REPO_URL } from '../support/paths.js';

const doc = fs.readFileSync(new URL('docs/permission-constraints.md', REPO_URL), 'utf8');
const EXAMPLE = /^- `(\w+)`: `(.*)` → (\d+)$/gm;
const USER = 100;

describe('docs/permission-constraints.md', function () {
  this.timeout(60000);
  let storage: Storage;
  let inv: Inventory;
  before(async () => {
    storage = await createStorage('memory:');
    await storage.open();
    inv = new Inventory(storage);
    await loadDemoData(inv);
  });
  after(async () => {
    inv.close();
    await storage.close();
  });

  const examples = [...doc.matchAll(EXAMPLE)];
  it('has examples, each in the form the test reads', () => {
    expect(examples.length).to.be.greaterThan(15);
    expect(examples.length).to.equal(doc.split('\n').filter((l) => /^- `\w+`: `/.test(l)).length);
  });
  for (const [line, name, json, count] of examples)
    it(line.slice(2), async () => {
      const r = resource(name);
      const res = constraintPlan(r, JSON.parse(json), { userId: USER, customFields: await inv.customFieldsFor(r) });
      if (!res.ok) throw new Error(errorLines(res.errors).join('; '));
      const found = await storage.find(name, res.plan, { limit: 100000, offset: 0, ordering: [] });
      expect(found.rows.length).to.equal(Number(count));
    });

  it('shows errors as the code words them', async () => {
    const shown = [...doc.matchAll(/^- `((?:\[\d+\]\.)?\w+): (.+)`$/gm)];
    expect(shown.length).to.be.greaterThan(3);
    const site = resource('site');
    const customFields = await inv.customFieldsFor(site);
    for (const [, path, message] of shown) {
      const key = path.replace(/^\[\d+\]\./, '');
      const value = key.endsWith('__in') ? 'x' : 1;
      const list = path.startsWith('[') ? [{}, { [key]: value }] : { [key]: value };
      const res = constraintPlan(site, list, { userId: USER, customFields });
      expect(res.ok ? [] : errorLines(res.errors), path).to.include(`${path}: ${message}`);
    }
  });
});
