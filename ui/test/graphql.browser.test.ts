// The GraphQL explorer in Chromium on the demo data: the editor completes root fields and nested fields from
// the server's schema as they are typed, Ctrl+Enter runs the query, and the answer shown is the server's
// (the same sites REST lists). A browser opening /graphql/ itself is sent to the explorer.
import { expect } from 'chai';
import { ADMIN_KEY, startServer, type TestServer } from '../../test/support/server.js';
import { haveChromium, screenshot, useBrowser } from './support/browser.js';

describe('GraphQL explorer in Chromium', function () {
  this.timeout(120_000);
  if (!haveChromium()) return;
  let srv: TestServer;
  before(async () => {
    srv = await startServer({ demoData: true });
  });
  after(async () => {
    await srv?.close();
  });
  const b = useBrowser(() => srv.url);

  before(async () => {
    await b.page.goto(`${srv.url}/ui/`);
    await b.page.getByLabel('API token').fill(ADMIN_KEY);
    await b.page.getByRole('button', { name: 'Save token' }).click();
    await b.page.getByText('Token set.').waitFor();
  });

  it('completes a query from the schema as it is typed, runs it and shows the answer', async () => {
    await b.page.goto(`${srv.url}/graphql/`); // a browser at the endpoint lands in the explorer
    await b.page.waitForFunction(() => location.hash === '#/graphql');
    await b.page.getByTestId('schema-status').filter({ hasText: 'Schema read' }).waitFor();
    const editor = b.page.getByLabel('GraphQL query');
    await editor.fill('');
    await editor.pressSequentially('{ site_l');
    const options = b.page.getByRole('listbox', { name: 'Completions' }).getByRole('option');
    await options.first().filter({ hasText: 'site_list' }).waitFor();
    expect(await options.allTextContents()).to.satisfy((all: string[]) => all.every((t) => t.startsWith('site_l')));
    await editor.press('Enter');
    await editor.pressSequentially('(limit: 3) { na');
    await options.first().filter({ hasText: 'name' }).waitFor();
    await editor.press('Tab');
    await editor.pressSequentially(' } }');
    expect(await editor.inputValue()).to.equal('{ site_list(limit: 3) { name } }');
    await editor.press('Control+Enter');
    const answer = b.page.getByTestId('gql-answer');
    await answer.filter({ hasText: 'site_list' }).waitFor();
    const shown = JSON.parse((await answer.textContent()) ?? '');
    const rest = (await srv.req('GET', '/api/dcim/sites/?limit=3')).body.results.map((s: any) => s.name);
    expect(rest).to.have.length(3);
    expect(shown).to.deep.equal({ data: { site_list: rest.map((name: string) => ({ name })) } });
    expect(await b.page.getByTestId('gql-status').textContent()).to.equal('200 OK');
    await screenshot(b.page, 'graphql-explorer', ['GraphQL', 'site_list', rest[0]]);
  });

  it('shows the GraphQL errors of a refused query, naming the setting', async () => {
    await b.page.goto(`${srv.url}/ui/#/graphql`);
    await b.page.getByTestId('schema-status').filter({ hasText: 'Schema read' }).waitFor();
    const editor = b.page.getByLabel('GraphQL query');
    const aliases = Array.from({ length: 11 }, (_, i) => `s${i}: site_list { name }`).join(' ');
    await editor.fill(`{ ${aliases} }`);
    await b.page.getByRole('button', { name: 'Run query' }).click();
    await b.page.getByTestId('gql-answer').filter({ hasText: 'GRAPHQL_MAX_ALIASES' }).waitFor();
  });
});
