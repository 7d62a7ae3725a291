// Export and import on the list pages in Chromium, on every backend: "Export CSV" / "Export YAML" download
// the page's filtered list as the API exports it; a CSV chosen through the real file input is previewed and
// imported, and the list shows the new rows; a file with bad rows shows each error against its row and writes
// nothing; pasted YAML is recognised as YAML; and, where the server has background jobs, an import over
// IMPORT_MAX_ROWS runs as a job with a progress bar.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { BACKENDS } from '../../test/e2e/conformance/backends.js';
import { serverOn } from '../../test/support/backend-server.js';
import { ADMIN_KEY } from '../../test/support/server.js';
import { haveChromium, screenshot, useBrowser } from './support/browser.js';

const MAX_ROWS = 20; // IMPORT_MAX_ROWS of these servers: the background test's file has more

/** The export's text as the API answers it. */
async function exported(url: string, path: string): Promise<string> {
  const res = await fetch(url + path, { headers: { Authorization: `Token ${ADMIN_KEY}` } });
  expect(res.status, path).to.equal(200);
  return res.text();
}

/** Clicks an export button and reads the file the browser saved. */
async function download(page: Page, button: string): Promise<{ name: string; text: string }> {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return { name: dl.suggestedFilename(), text: readFileSync((await dl.path())!, 'utf8') };
}

const tagsCsv = (prefix: string, n: number) =>
  [
    'name,slug,color,description',
    ...Array.from({ length: n }, (_, i) => {
      const k = String(i + 1).padStart(2, '0');
      return `${prefix} ${k},${prefix}-${k},00aa${k},"from a file, row ${i + 1}"`;
    }),
  ].join('\r\n');

for (const backend of BACKENDS)
  describe(`list export and import in Chromium (${backend.name})`, function () {
    this.timeout(300_000);
    if (!haveChromium()) return;
    const s = serverOn(backend, { demoData: true, importMaxRows: MAX_ROWS });
    const b = useBrowser(() => s.srv.url);
    const api = async (path: string) => (await s.srv.req('GET', path)).body;
    let dir = '';
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'netinv-import-'));
      await b.page.goto(`${s.srv.url}/ui/#/`);
      await b.page.evaluate((k) => localStorage.setItem('netinv.token', k), ADMIN_KEY);
    });
    after(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    /** Opens a list page with its import panel. */
    async function openImport(route: string): Promise<void> {
      await b.page.goto(`${s.srv.url}/ui/#/${route}`);
      await b.page.reload();
      await b.page.locator('table.list caption').waitFor();
      await b.page.getByRole('button', { name: 'Import', exact: true }).click();
      await b.page.getByRole('heading', { name: /^Import / }).waitFor();
    }

    const submit = () =>
      b.page.locator('form.import-panel').getByRole('button', { name: 'Import', exact: true }).click();

    it("downloads the page's filtered, ordered list as CSV and YAML, as the API exports it", async () => {
      const query = 'status=active&ordering=-name';
      await b.page.goto(`${s.srv.url}/ui/#/dcim/sites?${query}`);
      await b.page.reload();
      const { count } = await api(`/api/dcim/sites/?${query}&limit=1`);
      const all = (await api('/api/dcim/sites/?limit=1')).count;
      expect(count).to.be.greaterThan(0).and.lessThan(all); // the filter matters
      await b.page
        .locator('table.list caption')
        .filter({ hasText: new RegExp(`^${count} `) })
        .waitFor();
      const csv = await download(b.page, 'Export CSV');
      expect(csv.name).to.equal('sites.csv');
      expect(csv.text).to.equal(await exported(s.srv.url, `/api/dcim/sites/?${query}&format=csv`));
      expect(csv.text.trimEnd().split('\r\n')).to.have.length(count + 1);
      const yaml = await download(b.page, 'Export YAML');
      expect(yaml.name).to.equal('sites.yaml');
      expect(yaml.text).to.equal(await exported(s.srv.url, `/api/dcim/sites/?${query}&format=yaml`));
    });

    it('previews a CSV chosen in the file input, imports it, and the list shows the new rows', async () => {
      const file = join(dir, 'new-tags.csv');
      writeFileSync(file, tagsCsv('ui-file', 12));
      await openImport('extras/tags');
      await b.page.locator('input[type=file]').setInputFiles(file);
      const preview = b.page.getByTestId('import-preview');
      await preview.locator('caption').filter({ hasText: '12 rows (the first 10 shown)' }).waitFor();
      expect(await b.page.getByLabel('Format').inputValue()).to.equal('csv');
      expect(await preview.locator('thead th').allTextContents()).to.include.members(['name', 'slug', 'description']);
      expect(await preview.locator('tr[data-row="3"]').textContent()).to.contain('from a file, row 3');
      await screenshot(b.page, `import-preview-${backend.name}`, ['Import tags', 'ui-file-01', '12 rows']);
      await submit();
      await b.page.getByText('Imported. Created 12, updated 0, unchanged 0.').waitFor();
      const got = await api('/api/extras/tags/?q=ui-file&limit=100');
      expect(got.results.map((t: any) => t.slug).sort()).to.deep.equal(
        Array.from({ length: 12 }, (_, i) => `ui-file-${String(i + 1).padStart(2, '0')}`),
      );
      expect(got.results.find((t: any) => t.slug === 'ui-file-07').description).to.equal('from a file, row 7');
      const total = (await api('/api/extras/tags/?limit=1')).count;
      await b.page
        .locator('table.list caption')
        .filter({ hasText: new RegExp(`^${total} tags`) })
        .waitFor();
    });

    it('shows bad rows’ errors against their rows and cells (one past the first 10 too), writing nothing', async () => {
      const file = join(dir, 'devices.csv');
      const rows = Array.from({ length: 13 }, (_, i) => {
        const k = String(i + 1).padStart(2, '0');
        const site = i === 1 ? 'no-such-site' : 'ams-core-01';
        return `ui-fw-${k},${site},router,${i === 12 ? 'sideways' : 'planned'}`;
      });
      writeFileSync(file, ['name,site,role,status', ...rows].join('\n'));
      await openImport('dcim/devices');
      await b.page.locator('input[type=file]').setInputFiles(file);
      await b.page.getByTestId('import-preview').locator('caption').filter({ hasText: '13 rows' }).waitFor();
      await submit();
      await b.page.getByText('Nothing was imported: 2 errors.').waitFor();
      const row = (n: number) => b.page.locator(`[data-testid="import-preview"] tr[data-row="${n}"]`);
      expect(await row(2).locator('.row-error').textContent()).to.match(/^site: .*no-such-site/);
      expect(await row(2).locator('td.cell-bad').allTextContents()).to.deep.equal(['no-such-site']);
      expect(await row(13).locator('.row-error').textContent()).to.match(/^status: .*sideways/);
      expect(await row(13).locator('td.cell-bad').allTextContents()).to.deep.equal(['sideways']);
      for (const ok of [1, 3, 10]) expect(await row(ok).locator('.row-error').textContent(), `row ${ok}`).to.equal('');
      expect(await row(11).count()).to.equal(0); // rows 11 and 12 are not shown: a gap, then row 13
      await b.page.locator('[data-testid="import-preview"] tr.preview-gap').waitFor();
      await screenshot(b.page, `import-error-${backend.name}`, ['no-such-site', 'Nothing was imported']);
      expect((await api('/api/dcim/devices/?name__isw=ui-fw-&limit=1')).count).to.equal(0);
    });

    it('takes pasted YAML, recognised as YAML', async () => {
      await openImport('extras/tags');
      await b.page.getByLabel('or paste it').fill('- name: UI pasted\n  slug: ui-pasted\n  color: 123456\n');
      await b.page.getByTestId('import-preview').locator('caption').filter({ hasText: '1 row' }).waitFor();
      expect(await b.page.getByLabel('Format').inputValue()).to.equal('yaml');
      await submit();
      await b.page.getByText('Imported. Created 1, updated 0, unchanged 0.').waitFor();
      expect((await api('/api/extras/tags/?slug=ui-pasted')).results.map((t: any) => t.name)).to.deep.equal([
        'UI pasted',
      ]);
    });

    it(`runs an import over IMPORT_MAX_ROWS (${MAX_ROWS}) as a background job, with a progress bar`, async function () {
      const jobs = await s.srv.req('GET', '/api/core/jobs/?limit=1');
      if (jobs.status === 404) {
        console.warn('    skipped: no job API on this branch (/api/core/jobs/ is 404); run it once jobs are merged');
        this.skip();
      }
      const file = join(dir, 'many-tags.csv');
      writeFileSync(file, tagsCsv('ui-job', MAX_ROWS + 5));
      await openImport('extras/tags');
      await b.page.locator('input[type=file]').setInputFiles(file);
      await b.page
        .getByTestId('import-preview')
        .locator('caption')
        .filter({ hasText: `${MAX_ROWS + 5} rows` })
        .waitFor();
      await submit();
      await b.page.getByTestId('job-progress').waitFor();
      await b.page.getByText(`Imported. Created ${MAX_ROWS + 5}, updated 0, unchanged 0.`).waitFor({ timeout: 60_000 });
      expect(await b.page.getByTestId('job-progress').getAttribute('data-status')).to.equal('completed');
      expect((await api('/api/extras/tags/?q=ui-job&limit=1')).count).to.equal(MAX_ROWS + 5);
      // asked for: a small file with "Run in the background" ticked
      await b.page.locator('input[type=file]').setInputFiles({
        name: 'few.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(tagsCsv('ui-asked', 3)),
      });
      await b.page.getByLabel('Run in the background').check();
      await submit();
      await b.page.getByText('Imported. Created 3, updated 0, unchanged 0.').waitFor({ timeout: 60_000 });
      expect(await b.page.getByTestId('job-progress').getAttribute('data-status')).to.equal('completed');
    });
  });
