// Signing in from the web UI (issue #39): username and password become a token (provisioned by the
// API) kept as a pasted one is; a wrong password is said in words and keeps nothing.
import { expect } from 'chai';
import { startServer, type TestServer } from '../../test/support/server.js';
import { haveChromium, useBrowser } from './support/browser.js';

describe('web UI sign-in in Chromium', function () {
  this.timeout(120_000);
  if (!haveChromium()) return;
  let srv: TestServer;
  before(async () => {
    // With a pepper, sign-in makes v2 tokens (nbt_<key>.<token>): the UI keeps both parts.
    srv = await startServer({ apiTokenPeppers: { '1': 'a pepper of fifty characters or more, as NetBox asks' } });
    const u = await srv.req('POST', '/api/users/users/', { username: 'grace', password: 'grace-password' });
    expect(u.status).to.equal(201);
    await srv.req('POST', '/api/users/permissions/', {
      name: 'grace reads sites',
      object_types: ['dcim.site'],
      actions: ['view'],
      users: [u.body.id],
    });
    await srv.req('POST', '/api/dcim/sites/', { name: 'Grace site', slug: 'grace-site' });
  });
  after(async () => {
    await srv?.close();
  });
  const b = useBrowser(() => srv.url);

  it('refuses a wrong password, then signs in and reads with the token it was given', async () => {
    const page = b.page;
    await page.goto(`${srv.url}/ui/`);
    await page.getByLabel('Username').fill('grace');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Sign-in refused: Invalid username/password.').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('netinv.token'))).to.equal(null);

    await page.getByLabel('Password').fill('grace-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText(/^Signed in as grace\./).waitFor();
    const key = await page.evaluate(() => localStorage.getItem('netinv.token'));
    expect(key).to.match(/^nbt_[A-Za-z0-9]{12}\.[A-Za-z0-9]{40}$/); // a v2 token, both its parts
    expect(await page.getByLabel('API token').inputValue()).to.equal(key);
    expect(await page.getByLabel('Password').inputValue()).to.equal('');
    const sites = await srv.req('GET', '/api/dcim/sites/', undefined, key);
    expect(sites.status).to.equal(200);
    const tokens = await srv.req('GET', '/api/users/tokens/?limit=0');
    const mine = tokens.body.results.find((t: { key_tail: string }) => t.key_tail === key!.slice(-4));
    expect(mine.user.username).to.equal('grace');
    await page.goto(`${srv.url}/ui/#/dcim/sites`);
    await page.getByText('Grace site').first().waitFor();
  });
});
