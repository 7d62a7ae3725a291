// The lifecycle pages and /docs in Debian's Chromium, driven with real clicks and typing: create an
// entity from the API playground and from its form, send events from its page (guards in words, the
// context keys they read offered as fields), see the history rows and the diagram; then Swagger UI's
// operation list and a "try it out" call through the Authorize button.
import { expect } from 'chai';
import { ADMIN_KEY, startServer, type TestServer } from '../../test/support/server.js';
import { haveChromium, screenshot, useBrowser } from './support/browser.js';

describe('web UI and /docs in Chromium', function () {
  this.timeout(120_000);
  if (!haveChromium()) return;
  let srv: TestServer;
  before(async () => {
    srv = await startServer();
  });
  after(async () => {
    await srv?.close();
  });
  const b = useBrowser(() => srv.url);
  let page: typeof b.page;
  before(() => {
    page = b.page;
  });

  it('keeps the token and shows each machine with its state diagram', async () => {
    await page.goto(`${srv.url}/ui/`);
    await page.getByLabel('API token').fill(ADMIN_KEY);
    await page.getByRole('button', { name: 'Save token' }).click();
    await page.getByText('Token set.').waitFor();
    await page.getByRole('link', { name: 'Machines', exact: true }).click();
    const orderFlow = page.getByRole('region', { name: 'order_flow 1.0.0' });
    await orderFlow.locator('svg').waitFor();
    expect(await orderFlow.locator('svg g.state').count()).to.be.greaterThan(3);
    expect(await page.evaluate(() => localStorage.getItem('netinv.token'))).to.equal(ADMIN_KEY);
    await screenshot(page, 'machines', ['order_flow', 'device_lifecycle']);
  });

  it('says so when the saved token is refused', async () => {
    await page.getByLabel('API token').fill('not-a-token');
    await page.getByRole('button', { name: 'Save token' }).click();
    await page.getByText(/^Token refused/).waitFor();
    await page.getByLabel('API token').fill(ADMIN_KEY);
    await page.getByRole('button', { name: 'Save token' }).click();
    await page.getByText('Token set.').waitFor();
  });

  it('creates an entity through the API playground', async () => {
    await page.getByRole('link', { name: 'API playground' }).click();
    await page.getByLabel('Filter operations').pressSequentially('entities create');
    await page.getByRole('option', { name: /^POST \/api\/v1\/entities\/\{entity_id\}\/create/ }).click();
    await page.getByLabel('entity_id (path parameter)').pressSequentially('ui-order-1');

    const body = page.getByLabel('Request body (JSON)');
    await body.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await body.pressSequentially('{"machine_name": "order_flow", "context": {"customer": "ui"');
    await page.getByText(/^JSON error:/).waitFor();
    expect(await page.getByRole('button', { name: 'Send request' }).isDisabled()).to.equal(true);
    await body.pressSequentially('}}');
    await page.getByText('Valid JSON.').waitFor();

    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByTestId('response-status').filter({ hasText: '201' }).waitFor();
    expect(await page.getByTestId('response-body').textContent()).to.contain('"state": "created"');
    expect(await page.getByTestId('response-headers').textContent()).to.contain('content-type: application/json');
  });

  it('finds the entity with the machine and state filters and sends an event from its page', async () => {
    await page.getByRole('link', { name: 'Entities', exact: true }).click();
    await page.getByLabel('Machine').selectOption('order_flow');
    await page.getByLabel('State').selectOption('created');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('link', { name: 'ui-order-1' }).click();

    await page.getByTestId('entity-state').filter({ hasText: 'created' }).waitFor();
    await page.locator('figure.diagram svg').waitFor();
    const rows = page.locator('table.history tbody tr');
    expect(await rows.count()).to.equal(1);

    // A guard that fails is shown, and nothing changes.
    await page.getByLabel('Trigger').selectOption('pay');
    await page.getByRole('button', { name: 'Send event' }).click();
    await page.getByRole('alert').filter({ hasText: 'guard_rejected' }).waitFor();

    await page
      .getByLabel('Event context (JSON, optional)')
      .pressSequentially('{"amount": 25, "currency": "EUR", "payment_ref": "pay-1"}');
    await page.getByText('Valid JSON.').waitFor();
    await page.getByRole('button', { name: 'Send event' }).click();
    await page.getByText('Event accepted — pay: created → paid').waitFor();
    await page.getByTestId('entity-state').filter({ hasText: 'paid' }).waitFor();
    // The history table is re-read after the event: wait for its second row (a busy machine may
    // show the state before the table).
    await rows.nth(1).waitFor();
    expect(await rows.count()).to.equal(2);
    const last = await rows.nth(1).locator('td').allTextContents();
    expect(last.slice(2, 5)).to.deep.equal(['pay', 'created', 'paid']);
    expect(await page.locator('figure.diagram svg g.state.current text').textContent()).to.equal('paid');
    // The triggers offered now are those leaving `paid`.
    const offered = await page.getByLabel('Trigger').locator('option').allTextContents();
    expect(offered.sort()).to.deep.equal(['cancel', 'refund', 'ship']);
    // The change log shows the event (newest first) and the create, with the request's token.
    const changes = page.locator('table.changes tbody tr');
    await changes.nth(1).waitFor();
    const newest = await changes.nth(0).locator('td').allTextContents();
    expect(newest.slice(2, 4)).to.deep.equal(['Updated', 'created → paid']);
    expect(await changes.nth(1).locator('td').nth(2).textContent()).to.equal('Created');
  });

  it('creates an entity from its form and drives it through three transitions with the event form', async () => {
    await page.getByRole('link', { name: 'Entities', exact: true }).click();
    await page.getByRole('link', { name: 'Create an entity' }).click();
    await page.getByLabel('Entity id').fill('ui-order-2');
    await page.getByLabel('Machine').selectOption('order_flow');
    await page.getByLabel('Context (JSON, optional)').fill('{"customer": "forms"}');
    await page.getByRole('button', { name: 'Create entity' }).click();
    await page.getByTestId('entity-state').filter({ hasText: 'created' }).waitFor();

    // The guards of `pay`, as the API words them, and a field for each context key they read.
    await page.getByLabel('Trigger').selectOption('pay');
    const guards = await page.getByTestId('guards').innerText();
    expect(guards).to.contain('amount gt 0').and.to.contain('payment_ref exists');
    await page.getByLabel('amount', { exact: true }).fill('40');
    await page.getByLabel('currency', { exact: true }).fill('EUR');
    await page.getByLabel('payment_ref', { exact: true }).fill('pay-2');
    await page.getByRole('button', { name: 'Send event' }).click();
    await page.getByText('Event accepted — pay: created → paid').waitFor();

    await page.getByLabel('Trigger').selectOption('ship');
    await page.getByLabel('tracking_number', { exact: true }).fill('TN-1');
    await page.getByLabel('carrier', { exact: true }).fill('dhl');
    await page.getByRole('button', { name: 'Send event' }).click();
    await page.getByText('Event accepted — ship: paid → shipped').waitFor();

    await page.getByLabel('Trigger').selectOption('deliver');
    expect(await page.getByTestId('guards').innerText()).to.contain('(no guard)');
    await page.getByRole('button', { name: 'Send event' }).click();
    await page.getByText('Event accepted — deliver: shipped → delivered').waitFor();
    await page.getByTestId('entity-state').filter({ hasText: 'delivered' }).waitFor();
    await page.locator('table.history tbody tr').nth(3).waitFor();
    const entity = (await srv.req('GET', '/api/v1/entities/ui-order-2')).body;
    expect([entity.state, entity.context.amount, entity.context.carrier, entity.context.customer]).to.deep.equal([
      'delivered',
      40,
      'dhl',
      'forms',
    ]);
    await screenshot(page, 'entity-delivered', ['ui-order-2', 'delivered', 'History (4 rows, oldest first)']);
  });

  it('fits the entity page in 1024 pixels', async () => {
    await page.setViewportSize({ width: 1024, height: 800 });
    try {
      await page.goto(`${srv.url}/ui/#/entities/ui-order-2`);
      await page.locator('figure.diagram svg').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(1024);
      await screenshot(page, 'entity-1024', ['ui-order-2', 'Send an event']);
    } finally {
      await page.setViewportSize({ width: 1400, height: 1000 });
    }
  });

  it('/docs renders the operations list, and "try it out" works through Authorize', async () => {
    // Authorize by hand below: no saved token (read on the app's own origin: a blank page has no storage).
    await page.goto(`${srv.url}/docs`);
    await page.evaluate(() => localStorage.removeItem('netinv.token'));
    await page.reload();
    await page.locator('.opblock').first().waitFor();
    // The lifecycle tags open by themselves; an inventory tag opens when clicked.
    await page.locator('.opblock-tag[data-tag="dcim/sites"]').click();
    // Each waited for on its own: Swagger UI renders the opened tags in steps on a busy machine.
    for (const path of ['/api/dcim/sites/', '/api/v1/entities/{entity_id}/create', '/api/v1/machines'])
      await page.locator(`.opblock-summary-path[data-path="${path}"]`).first().waitFor();

    await page.locator('.auth-wrapper button.authorize').click();
    await page.locator('.modal-ux input').first().fill(ADMIN_KEY);
    await page.locator('.modal-ux button.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();

    // Executes one operation in Swagger UI and returns the status code it shows.
    async function tryIt(method: string, path: string, entityId?: string): Promise<string> {
      const op = page
        .locator(`.opblock-${method}`)
        .filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
      // Opening an operation sets the URL's fragment (deep linking): no navigation to wait for.
      await op.locator('.opblock-summary-control').click({ noWaitAfter: true });
      await op.getByRole('button', { name: 'Try it out' }).click();
      if (entityId) await op.locator('input[placeholder="entity_id"]').fill(entityId);
      await op.getByRole('button', { name: 'Execute' }).click();
      const status = op.locator('.live-responses-table tbody tr.response .response-col_status');
      await status.waitFor();
      const shown = (await status.textContent())!.trim();
      // Closed again: an open operation (sites has ~150 parameters) slows every later render.
      await op.locator('.opblock-summary-control').click({ noWaitAfter: true });
      return shown;
    }
    expect(await tryIt('get', '/api/v1/machines')).to.equal('200');
    expect(await tryIt('get', '/api/dcim/sites/')).to.equal('200'); // ~150 filter parameters, none sent when empty
    // the documented example body
    expect(await tryIt('post', '/api/v1/entities/{entity_id}/create', 'docs-1')).to.equal('201');
    expect((await srv.req('GET', '/api/v1/entities/docs-1')).body.machine_name).to.equal('order_flow');
  });
});
