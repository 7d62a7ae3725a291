// Chromium (Debian's, through playwright-core) for the UI's browser tests: one persistent profile
// per suite, every request to another host recorded and refused, uncaught page errors collected.
// Screenshots are written to SCREENSHOT_DIR (default dist/ui-screenshots/) and checked for what
// they must show: not blank (many colours), and the page holding the expected texts.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const UI_TIMEOUT = 15_000;
export const SHOT_DIR = process.env.SCREENSHOT_DIR ?? 'dist/ui-screenshots';

/** False (after declaring a skipping or, with CI set, failing test) when there is no Chromium. */
export function haveChromium(): boolean {
  if (existsSync(CHROMIUM)) return true;
  const why = `${CHROMIUM} not found: install Debian's chromium (apt-get install -y chromium) to run the browser tests`;
  if (process.env.CI)
    it('needs Chromium', () => {
      throw new Error(`${why}; CI is set, so this is a failure.`);
    });
  else
    it(`skipped: ${why}`, function () {
      console.warn(`    browser tests skipped: ${why}`);
      this.skip();
    });
  return false;
}

export interface BrowserHolder {
  context: BrowserContext;
  page: Page;
  external: string[];
  pageErrors: string[];
}

/** Mocha hooks for a browser on `origin()` (read when the browser starts). */
export function useBrowser(origin: () => string, viewport = { width: 1400, height: 1000 }): BrowserHolder {
  const h = { external: [] as string[], pageErrors: [] as string[] } as BrowserHolder;
  let profile = '';
  before(async () => {
    profile = mkdtempSync(join(tmpdir(), 'netinv-chromium-'));
    h.context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: ARGS,
      headless: true,
      viewport,
    });
    h.context.setDefaultTimeout(UI_TIMEOUT);
    const own = new URL(origin()).origin;
    await h.context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('data:') || url.startsWith('blob:') || new URL(url).origin === own) return route.continue();
      h.external.push(url);
      return route.abort();
    });
    h.page = h.context.pages()[0] ?? (await h.context.newPage());
    h.page.on('pageerror', (e) => h.pageErrors.push(String(e)));
  });
  after(async () => {
    await h.context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });
  afterEach(() => {
    expect(h.external, 'requests to other hosts').to.deep.equal([]);
    expect(h.pageErrors, 'uncaught page errors').to.deep.equal([]);
  });
  return h;
}

/** Colours in a PNG, counted in the page itself (it decodes images): a blank shot has one or two. */
async function colours(page: Page, png: Buffer): Promise<number> {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d')!;
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set<number>();
    for (let i = 0; i < d.length && seen.size < 64; i += 4 * 97) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return seen.size;
  }, png.toString('base64'));
}

/** Takes and keeps a screenshot, and checks it is not blank and the page shows every text of `must`. */
export async function screenshot(page: Page, name: string, must: readonly string[]): Promise<void> {
  const png = await page.screenshot({ fullPage: false });
  mkdirSync(SHOT_DIR, { recursive: true });
  writeFileSync(join(SHOT_DIR, `${name}.png`), png);
  const text = await page.locator('body').innerText();
  for (const m of must) expect(text, `${name}: page text`).to.contain(m);
  expect(await colours(page, png), `${name}: colours in the screenshot`).to.be.greaterThan(4);
}
