/**
 * The review page in a real browser — Debian's chromium driven by playwright-core, JavaScript disabled, each page
 * opened from disk as a reader would: the matrix and its sentences are there, the style sheet applies under the
 * pages' content security policy, a role's link leads to its page, and a comparison highlights its cells in colour
 * and in words. Screenshots go to a temporary folder, or with UPDATE_SCREENSHOTS=1 to docs/screenshots.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { main } from '../../compiler/commands/main.js';
import { browserDescribe, CHROMIUM_FLAGS, CHROMIUM_PATH, screenshotFolder } from '../example/chromium.js';
import { collectIo, repoRoot } from '../compiler/helpers.js';
import { writeEarlierDefinitions } from './earlier-definitions.js';

const describeInBrowser = browserDescribe('test/review/review-page.browser.test.ts');

const LONG_ROLE = `R${'W'.repeat(120)}`;

describeInBrowser('the review page in Chromium, without JavaScript', () => {
  let temp: string;
  let browser: Browser | undefined;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    temp = mkdtempSync(join(tmpdir(), 'review-page-'));
    writeEarlierDefinitions(join(temp, 'main', 'definitions'));
    // Names without a space to break at: a role of 121 characters, an action of 120.
    mkdirSync(join(temp, 'long'));
    writeFileSync(
      join(temp, 'long', 'doc.permissions.json'),
      JSON.stringify({ definitions: [{ roles: [LONG_ROLE], resource: 'doc', grant: { [`${'a'.repeat(120)}:any`]: ['*'] } }] }),
    );
    const definitions = join(repoRoot, 'definitions');
    // The page names the earlier version as the command line did: run from the temporary folder, it is main/definitions.
    const cwd = process.cwd();
    process.chdir(temp);
    try {
      for (const argv of [
        ['render', definitions, '--out', 'site'],
        ['render', definitions, '--out', 'compared', '--before', 'main/definitions'],
        ['render', 'long', '--out', 'long-site'],
      ]) {
        const { io, errors } = collectIo();
        expect({ code: await main(argv, io), errors }).toEqual({ code: 0, errors: [] });
      }
    } finally {
      process.chdir(cwd);
    }
    mkdirSync(screenshotFolder(), { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, timeout: 30_000 });
    context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('console', (message) => problems.push(`console ${message.type()}: ${message.text()}`));
    page.on('requestfailed', (request) => problems.push(`failed ${request.url()}`));
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    rmSync(temp, { recursive: true, force: true });
  }, 30_000);

  const open = (site: string, file: string) => page.goto(pathToFileURL(join(temp, site, file)).href);
  /** The text of the cell of `role` under `action` in the table of `resource`. */
  const cellText = async (resource: string, role: string, action: string): Promise<string | null> => {
    const table = page.locator('table', { has: page.locator('caption', { hasText: `Who may do what to ${resource}` }) });
    const column = (await table.locator('thead th').allTextContents()).indexOf(action);
    const row = table.locator('tbody tr', { has: page.locator('th', { hasText: new RegExp(`^${role}$`) }) });
    return row.locator('th, td').nth(column).textContent();
  };
  /** The background colour Chromium computed for the first element of `selector`. */
  const background = (selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate(
        (element) => (globalThis as unknown as { getComputedStyle(element: unknown): { backgroundColor: string } }).getComputedStyle(element).backgroundColor,
      );

  it('index.html shows the matrix, with any/own, the attributes and a sentence per cell, styled', async () => {
    await open('site', 'index.html');
    expect(await page.locator('h1').textContent()).toBe('Who may do what');
    expect(await page.locator('caption').allTextContents()).toEqual([
      'Who may do what to decision',
      'Who may do what to document',
      'Who may do what to session',
    ]);
    expect(await cellText('document', 'EMPLOYEE', 'list')).toBe(
      'any date titleown (rule creator) * !confidential' +
        'EMPLOYEE may list any document, seeing only date and title. ' +
        "EMPLOYEE may list a document where creatorId is the user's id (rule creator), seeing all attributes except confidential.",
    );
    expect(await cellText('document', 'EMPLOYEE', 'delete')).toBe('not allowedEMPLOYEE may not delete any document.');
    // Role and each action of decision, document and session, then the ownership rules' three columns: every header has its scope.
    expect(await page.locator('thead th[scope="col"]').count()).toBe(3 + 7 + 7 + 3);
    expect(await page.locator('thead th:not([scope="col"])').count()).toBe(0);
    // The style sheet applies under the pages' content security policy, opened from disk.
    expect(await background('.possession.any')).toBe('rgb(220, 236, 255)');
    await page.screenshot({ path: join(screenshotFolder(), 'review-page.png') });
  }, 30_000);

  it("a role's link leads to its page: what that role may do, resource by resource", async () => {
    await open('site', 'index.html');
    await page.locator('nav[aria-label="Roles"] a', { hasText: /^EMPLOYEE$/ }).click();
    expect(page.url()).toBe(pathToFileURL(join(temp, 'site', 'role-3-employee.html')).href);
    expect(await page.locator('h1').textContent()).toBe('Role EMPLOYEE');
    expect(await page.locator('caption').allTextContents()).toEqual(['What EMPLOYEE may do to document']);
    expect(await page.locator('p.not-allowed').textContent()).toBe('EMPLOYEE may do nothing to decision and session.');
    expect(await page.locator('tbody th').allTextContents()).toEqual(['create', 'delete', 'list', 'read', 'review', 'update']);
    expect(await page.locator('nav a[aria-current="page"]').textContent()).toBe('EMPLOYEE');
    await page.screenshot({ path: join(screenshotFolder(), 'review-page-role.png'), fullPage: true });
  }, 30_000);

  it('with --before, the summary comes first and changed cells are coloured and say what changed', async () => {
    await open('compared', 'index.html');
    expect(await page.locator('.summary p').textContent()).toMatch(
      /^Compared with main\/definitions, the earlier version, this is what changed in definitions\/\. /,
    );
    expect(await page.locator('.summary li').allTextContents()).toEqual([
      '1 permission added.',
      '1 permission removed.',
      '1 attribute set widened (more attributes shown).',
      'Roles removed: CONTRACTOR.',
    ]);
    const widened = page.locator('td.widened');
    expect(await widened.count()).toBe(1);
    expect(await widened.locator('.mark').textContent()).toBe('Widened: any: now also shows date');
    expect(await widened.locator('.before').textContent()).toBe(
      'Before: EMPLOYEE may list any document, seeing only title. ' +
        "EMPLOYEE may list a document where creatorId is the user's id (rule creator), seeing all attributes except confidential.",
    );
    expect(await background('td.widened')).toBe('rgb(255, 241, 204)');
    expect(await page.locator('td.added .mark').allTextContents()).toEqual([
      'Added: own (rule creatorOrManaged), all attributes except confidential and personal',
    ]);
    expect(await page.locator('td.removed .mark').allTextContents()).toEqual(['Removed: any, only title']);
    expect(await cellText('document', 'CONTRACTOR', 'read')).toBe(
      'not allowedCONTRACTOR may not read any document.Removed: any, only titleBefore: CONTRACTOR may read any document, seeing only title.',
    );
    // The summary and the document matrix.
    const top = await page.locator('.summary').boundingBox();
    const matrix = await page.locator('section', { has: page.locator('caption', { hasText: 'Who may do what to document' }) }).boundingBox();
    if (top === null || matrix === null) throw new Error('the summary or the document matrix is not shown');
    await page.screenshot({
      path: join(screenshotFolder(), 'review-page-diff.png'),
      fullPage: true,
      clip: { x: 0, y: top.y - 8, width: 1440, height: matrix.y + matrix.height - top.y + 16 },
    });
    expect(problems).toEqual([]);
  }, 30_000);

  it('long names wrap: no page is wider than the window, and a role page scrolls its table in place', async () => {
    const files = readdirSync(join(temp, 'long-site')).filter((file) => file.endsWith('.html'));
    expect(files).toHaveLength(3);
    for (const file of files) {
      await open('long-site', file);
      const widths = await page.evaluate(() => {
        const { document, innerWidth } = globalThis as unknown as { document: { documentElement: { scrollWidth: number } }; innerWidth: number };
        return { page: document.documentElement.scrollWidth, window: innerWidth };
      });
      expect({ file, ...widths }).toEqual({ file, page: 1440, window: 1440 });
    }
    expect(await page.locator('.table-scroll table caption').count()).toBeGreaterThan(0);
  }, 30_000);
});
