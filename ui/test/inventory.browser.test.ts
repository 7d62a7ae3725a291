// The inventory pages in Chromium on the demo data: every resource's list page with a filter typed
// into the bar, refused filters, completion, ordering, the curl command, a prefix's detail with its
// parent chain, children, addresses and change log, an edit through the generated form, a site's
// related objects, the explain view, the dark theme, keyboard use, and a resource that only the
// OpenAPI document knows about. Each page is kept as a screenshot and checked for what it must show.
import { expect } from 'chai';
import { ADMIN_KEY, startServer, type TestServer } from '../../test/support/server.js';
import { haveChromium, screenshot, useBrowser } from './support/browser.js';
import { resourcesOf, type OpenApiDoc } from '../lib/openapi.js';

describe('inventory pages in Chromium', function () {
  this.timeout(180_000);
  if (!haveChromium()) return;
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ demoData: true });
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

  it('lists every resource of the document, each with a filter typed into its bar', async () => {
    const doc = (await api('/openapi.json')) as OpenApiDoc;
    const resources = resourcesOf(doc);
    expect(resources.length).to.be.greaterThan(15);
    for (const r of resources) {
      await b.page.goto(`${srv.url}/ui/#/${r.key}`);
      const input = b.page.getByLabel('Filter', { exact: true });
      await input.fill('id__n=00000000-0000-4000-8000-000000000000');
      await input.press('Enter');
      await b.page.getByTestId('chip').filter({ hasText: 'id__n=00000000-0000-4000-8000-000000000000' }).waitFor();
      const want = (await api(`${r.listPath}?id__n=00000000-0000-4000-8000-000000000000&limit=1`)).count as number;
      const caption = b.page.locator('table.list caption');
      await caption.filter({ hasText: new RegExp(`^${want} `) }).waitFor();
      expect(await b.page.getByTestId('query-string').textContent()).to.equal(
        `${r.listPath}?id__n=00000000-0000-4000-8000-000000000000`,
      );
      expect(await b.page.locator('table.list tbody tr').count()).to.equal(Math.min(want, 50));
      await screenshot(b.page, `list-${r.key.replace('/', '-')}`, [
        r.title,
        'id__n=00000000-0000-4000-8000-000000000000',
      ]);
    }
  });

  it('finds the prefixes containing an address, orders by a column and shows the curl command', async () => {
    await b.page.goto(`${srv.url}/ui/#/`);
    await b.page.getByLabel('Which prefixes contain this address or network?').fill('10.3.1.17');
    await b.page.getByRole('button', { name: 'Find' }).click();
    await b.page.getByTestId('chip').filter({ hasText: 'network__net_host=10.3.1.17' }).waitFor();
    const want = (await api('/api/ipam/prefixes/?network__net_host=10.3.1.17')).results.map((o: any) => o.prefix);
    expect(want).to.include('10.3.1.0/24');
    await b.page
      .locator('table.list caption')
      .filter({ hasText: `${want.length} prefix` })
      .waitFor();
    expect(await b.page.locator('table.list tbody tr td:first-child').allTextContents()).to.deep.equal(want);
    await b.page.getByRole('button', { name: 'Prefix length' }).click();
    await b.page.waitForFunction(() => location.hash.includes('ordering=prefix_length'));
    await b.page.getByRole('button', { name: 'Prefix length ▲' }).click();
    await b.page.waitForFunction(() => location.hash.includes('ordering=-prefix_length'));
    await b.page
      .locator('table.list tbody tr td:first-child')
      .first()
      .filter({ hasText: want[want.length - 1] })
      .waitFor();
    expect(await b.page.getByTestId('curl').textContent()).to.contain(
      'network__net_host=10.3.1.17&ordering=-prefix_length',
    );
    await screenshot(b.page, 'prefixes-containing-address', ['10.3.1.0/24', 'curl -H']);
  });

  it("shows the API's 400 message beside a refused filter, and completes names and choices", async () => {
    await b.page.goto(`${srv.url}/ui/#/dcim/sites`);
    const input = b.page.getByLabel('Filter', { exact: true });
    await input.fill('status=activ nonsense=1');
    await input.press('Enter');
    const bad = b.page.getByTestId('chip').filter({ hasText: 'nonsense=1' });
    await bad.locator('.chip-error').filter({ hasText: 'Unknown filter field' }).waitFor();
    await b.page.getByTestId('chip').filter({ hasText: 'status=activ' }).locator('.chip-error').waitFor();
    await screenshot(b.page, 'filter-refused', ['Unknown filter field']);
    await b.page.getByRole('button', { name: 'Remove filter nonsense=1' }).click();
    await b.page.getByRole('button', { name: 'Remove filter status=activ' }).click();
    await input.fill('stat');
    const options = await b.page
      .locator('datalist option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(options).to.include.members(['status=', 'status__n=']);
    await input.fill('status=');
    await b.page.waitForFunction(() =>
      [...document.querySelectorAll('datalist option')].some((o) => (o as HTMLOptionElement).value === 'status=active'),
    );
    await input.fill('status=active region=eu q=core');
    await input.press('Enter');
    const want = (await api('/api/dcim/sites/?status=active&region=eu&q=core')).count;
    await b.page
      .locator('table.list caption')
      .filter({ hasText: new RegExp(`^${want} `) })
      .waitFor();
  });

  it('shows a prefix with its parent chain, children, addresses and change log, and edits it', async () => {
    const p = (await api('/api/ipam/prefixes/?prefix=10.0.0.0/16')).results[0];
    await b.page.goto(`${srv.url}/ui/#/ipam/prefixes/${p.id}`);
    await b.page.getByTestId('object-display').filter({ hasText: '10.0.0.0/16' }).waitFor();
    await b.page.getByTestId('parent-chain').getByRole('link', { name: '10.0.0.0/8' }).waitFor();
    const kids = (await api(`/api/ipam/prefixes/?parent=${p.id}&limit=100`)).results.map((o: any) => o.prefix);
    await b.page
      .getByTestId('children')
      .locator('.badge')
      .filter({ hasText: String(kids.length) })
      .waitFor();
    expect(await b.page.getByTestId('children').locator('li').allTextContents()).to.deep.equal(kids.slice(0, 10));
    await b.page.getByTestId('addresses').getByRole('link', { name: '10.0.0.1/24' }).waitFor();
    await b.page.locator('table.changes tbody tr td').filter({ hasText: 'Created' }).first().waitFor();
    await screenshot(b.page, 'prefix-detail', ['Parent chain', 'Child prefixes', 'IP addresses', 'Change log']);

    await b.page.getByRole('link', { name: 'Edit' }).click();
    const desc = b.page.getByLabel('Description');
    await desc.fill('edited in the browser');
    await b.page.getByLabel('Status').selectOption('reserved');
    await b.page.getByRole('button', { name: 'Save', exact: true }).click();
    await b.page.getByTestId('object-display').waitFor();
    await b.page.locator('table.fields td').filter({ hasText: 'edited in the browser' }).waitFor();
    await b.page.locator('table.changes tbody tr').first().locator('td').filter({ hasText: 'Updated' }).waitFor();
    expect(await b.page.locator('table.changes tbody tr').first().textContent()).to.contain('description:');
    const now = await api(`/api/ipam/prefixes/${p.id}/`);
    expect([now.description, now.status.value]).to.deep.equal(['edited in the browser', 'reserved']);
  });

  it("shows the form's 400 messages beside their fields and creates an object", async () => {
    await b.page.goto(`${srv.url}/ui/#/extras/tags/new`);
    await b.page.getByLabel('Name *').fill('From the UI');
    await b.page.getByLabel('Slug *').fill('bad slug!');
    await b.page.getByRole('button', { name: 'Create' }).click();
    await b.page.locator('.field-bad .field-error').first().waitFor();
    await b.page.getByLabel('Slug *').fill('from-the-ui');
    await b.page.getByRole('button', { name: 'Create' }).click();
    await b.page.getByTestId('object-display').filter({ hasText: 'From the UI' }).waitFor();
    expect((await api('/api/extras/tags/?slug=from-the-ui')).count).to.equal(1);
  });

  it("shows a site's devices, prefixes and VLANs", async () => {
    const s = (await api('/api/dcim/sites/?slug=ams-core-01')).results[0];
    await b.page.goto(`${srv.url}/ui/#/dcim/sites/${s.id}`);
    for (const [title, path] of [
      ['Devices (site)', 'dcim/devices'],
      ['Prefixes (site)', 'ipam/prefixes'],
      ['VLANs (site)', 'ipam/vlans'],
    ]) {
      const n = (await api(`/api/${path}/?site_id=${s.id}&limit=1`)).count;
      expect(n, title).to.be.greaterThan(0);
      await b.page
        .getByRole('region', { name: title })
        .locator('.badge')
        .filter({ hasText: String(n) })
        .waitFor();
    }
    await screenshot(b.page, 'site-detail', ['ams-core-01', 'Devices (site)', 'VLANs (site)']);
  });

  it("draws a query's plan with the index, the candidates and the time of each node", async () => {
    await b.page.goto(`${srv.url}/ui/#/ipam/prefixes?within=10.0.0.0/8&status=active`);
    await b.page.getByRole('link', { name: 'Explain this query' }).click();
    const tree = b.page.getByTestId('plan-tree');
    await tree.locator('[data-testid="plan-index"]').first().waitFor();
    const text = await tree.innerText();
    expect(text)
      .to.contain('network contained 10.0.0.0/8')
      .and.to.contain('containment(network).contained')
      .and.to.match(/\d+ candidates/);
    expect(text).to.contain('status eq "active"');
    expect(await b.page.getByTestId('explain-time').textContent()).to.match(/time \d+(\.\d+)? ms on the server/);
    const matched = (await api('/api/ipam/prefixes/?within=10.0.0.0/8&status=active&limit=1')).count;
    expect(await b.page.getByTestId('explain-matched').textContent()).to.equal(String(matched));
    await screenshot(b.page, 'explain', ['Explain: prefixes', 'containment(network).contained', 'candidates']);
  });

  it('is usable from the keyboard and readable on the dark theme', async () => {
    await b.page.goto(`${srv.url}/ui/#/ipam/vlans`);
    const input = b.page.getByLabel('Filter', { exact: true });
    await input.focus();
    await b.page.keyboard.type('vid__gte=100');
    await b.page.keyboard.press('Enter');
    await b.page.getByTestId('chip').filter({ hasText: 'vid__gte=100' }).waitFor();
    await input.focus();
    await b.page.keyboard.press('Tab');
    expect(await b.page.evaluate(() => document.activeElement?.textContent)).to.equal('Apply filter');
    await b.page.getByRole('button', { name: 'Dark theme' }).click();
    expect(await b.page.evaluate(() => document.documentElement.dataset.theme)).to.equal('dark');
    const [fg, bg] = await b.page.evaluate(() => {
      const s = getComputedStyle(document.body);
      return [s.color, s.backgroundColor];
    });
    expect([fg, bg]).to.deep.equal(['rgb(227, 231, 235)', 'rgb(20, 24, 28)']);
    await screenshot(b.page, 'vlans-dark', ['VLANs', 'vid__gte=100']);
    await b.page.getByRole('button', { name: 'Dark theme' }).click();
    expect(await b.page.evaluate(() => document.documentElement.dataset.theme)).to.equal('light');
  });

  it('gives a resource only the OpenAPI document knows its list page, with no change to the UI', async () => {
    const doc = await api('/openapi.json');
    doc.paths['/api/dcim/widgets/'] = {
      get: {
        operationId: 'listWidgets',
        'x-permission': 'dcim.view_widget',
        parameters: [
          { name: 'limit', in: 'query' },
          { name: 'colour', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['red', 'blue'] } } },
        ],
        responses: {
          200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/WidgetList' } } } },
        },
      },
    };
    doc.paths['/api/dcim/widgets/{id}/'] = { get: {} };
    doc.components.schemas.WidgetList = { properties: { results: { items: { $ref: '#/components/schemas/Widget' } } } };
    doc.components.schemas.Widget = {
      properties: { id: {}, url: {}, display: {}, name: { title: 'Name' }, colour: { title: 'Colour' } },
    };
    doc.tags.push({ name: 'dcim/widgets', description: 'Widget: A thing (`dcim.widget`)' });
    await b.context.route('**/openapi.json', (route) => route.fulfill({ json: doc }));
    await b.context.route('**/api/dcim/widgets/?*', (route) =>
      route.fulfill({
        json: {
          count: 1,
          next: null,
          previous: null,
          results: [
            {
              id: 'w1',
              url: `${srv.url}/api/dcim/widgets/w1/`,
              display: 'Widget one',
              name: 'Widget one',
              colour: 'red',
            },
          ],
        },
      }),
    );
    try {
      await b.page.goto(`${srv.url}/ui/#/`);
      await b.page.reload(); // the document is read once per page load
      await b.page.getByRole('link', { name: 'Widgets' }).click();
      await b.page.locator('table.list tbody tr').filter({ hasText: 'Widget one' }).waitFor();
      expect(await b.page.locator('table.list thead th').allTextContents()).to.deep.equal(['Widget', 'Colour']);
      await b.page.getByLabel('Filter', { exact: true }).fill('colour=');
      await b.page.waitForFunction(() =>
        [...document.querySelectorAll('datalist option')].some((o) => (o as HTMLOptionElement).value === 'colour=blue'),
      );
    } finally {
      await b.context.unroute('**/openapi.json');
      await b.context.unroute('**/api/dcim/widgets/?*');
    }
  });
});
