// The inventory pages in Chromium on an integer store (ID_STYLE=integer) with the demo data: a site's
// page with its related lists (found by `site_id=<number>`), a prefix's children, and an edit through
// the generated form that moves a device to another site (the reference sent as a number).
import { expect } from 'chai';
import { ADMIN_KEY, startServer, type TestServer } from '../../test/support/server.js';
import { haveChromium, screenshot, useBrowser } from './support/browser.js';

describe('inventory pages in Chromium on an integer store', function () {
  this.timeout(180_000);
  if (!haveChromium()) return;
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ demoData: true, idStyle: 'integer' });
  });
  after(async () => {
    await srv?.close();
  });
  const b = useBrowser(() => srv.url);
  const api = async (path: string) => (await srv.req('GET', path)).body;

  before(async () => {
    await b.page.goto(`${srv.url}/ui/`);
    await b.page.getByLabel('API token').fill(ADMIN_KEY);
    await b.page.getByRole('button', { name: 'Save token' }).click();
    await b.page.getByText('Token set.').waitFor();
  });

  it("shows a site's devices, prefixes and VLANs, and a prefix's children", async () => {
    const s = (await api('/api/dcim/sites/?slug=ams-core-01')).results[0];
    expect(s.id).to.be.a('number');
    await b.page.goto(`${srv.url}/ui/#/dcim/sites/${s.id}`);
    for (const [title, path] of [
      ['Devices (site)', 'dcim/devices'],
      ['Prefixes (site)', 'ipam/prefixes'],
    ]) {
      const n = (await api(`/api/${path}/?site_id=${s.id}&limit=1`)).count;
      expect(n, title).to.be.greaterThan(0);
      await b.page
        .getByRole('region', { name: title })
        .locator('.badge')
        .filter({ hasText: String(n) })
        .waitFor();
    }
    const p = (await api('/api/ipam/prefixes/?prefix=10.0.0.0/16')).results[0];
    await b.page.goto(`${srv.url}/ui/#/ipam/prefixes/${p.id}`);
    const kids = (await api(`/api/ipam/prefixes/?parent=${p.id}&limit=100`)).results.map((o: any) => o.prefix);
    expect(kids.length).to.be.greaterThan(0);
    await b.page
      .getByTestId('children')
      .locator('.badge')
      .filter({ hasText: String(kids.length) })
      .waitFor();
    await screenshot(b.page, 'integer-prefix-detail', ['10.0.0.0/16', 'Child prefixes']);
  });

  it('moves a device to another site through the form, the reference written as a number', async () => {
    const d = (await api('/api/dcim/devices/?site=ams-core-01&limit=1')).results[0];
    const other = (await api('/api/dcim/sites/?slug=fra-core-01')).results[0];
    await b.page.goto(`${srv.url}/ui/#/dcim/devices/${d.id}`);
    await b.page.getByTestId('object-display').waitFor();
    await b.page.getByRole('link', { name: 'Edit' }).click();
    await b.page.getByLabel('Site *').selectOption(String(other.id));
    await b.page.getByRole('button', { name: 'Save', exact: true }).click();
    await b.page.getByTestId('object-display').waitFor();
    await b.page.locator('table.changes tbody tr').first().locator('td').filter({ hasText: 'Updated' }).waitFor();
    const now = await api(`/api/dcim/devices/${d.id}/`);
    expect(now.site.id).to.equal(other.id);
  });
});
