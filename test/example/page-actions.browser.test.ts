/**
 * The example page's buttons in a real browser (Debian's chromium, playwright-core), against the example app on
 * a real port: a click calls the app's guarded endpoint for that document — the exact request is checked — and
 * the page shows what came of it: the record the server picked, a change the server's data then holds, or a
 * refusal (400, 403, 404, the server unreachable) in a visible message with the server's reason. Buttons the
 * client disables call nothing, even when a click event reaches them. At 420 px the page does not scroll
 * sideways (each document a card). The screenshots of docs/screenshots are taken here (written there only with UPDATE_SCREENSHOTS=1).
 * One app and one browser for the file; each test acts on documents no other test touches.
 */
import 'reflect-metadata';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { DocumentsRepository } from '../../examples/documents/documents.repository.js';
import { browserDescribe, CHROMIUM_FLAGS, CHROMIUM_PATH, screenshotFolder } from './chromium.js';
import { buildPageDir, listenExampleApp, removePageDir } from './example-app.fixture.js';
import { documentWithout } from './example-expectations.js';

const describeInBrowser = browserDescribe('test/example/page-actions.browser.test.ts');

/** The width of the committed screenshots, and the narrow width the page must still fit. */
const WIDE = { width: 1024, height: 768 } as const;
const NARROW = { width: 420, height: 900 } as const;

/** One call of the guarded document endpoints, as the page sent it. */
interface SentRequest {
  readonly method: string;
  readonly path: string;
  readonly userId: string | undefined;
  readonly contentType: string | undefined;
  readonly body: string | undefined;
}

/** The page's message line, as a person sees it. */
interface ShownMessage {
  readonly text: string | null;
  readonly outcome: string | null;
  readonly visible: boolean;
}

/** An open page as one user, and what it sent and threw. */
interface OpenPage {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly sent: SentRequest[];
  readonly pageErrors: string[];
}

let pageDir: string;
let app: INestApplication<Server>;
let origin: string;
let browser: Browser;

const repository = (): DocumentsRepository => app.get(DocumentsRepository);

/** Opens the page (it starts as user 1) and picks `userId` in the select, as a person would. */
async function openAs(userId: string, viewport: { readonly width: number; readonly height: number }): Promise<OpenPage> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const sent: SentRequest[] = [];
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('request', (sentRequest) => {
    const path = new URL(sentRequest.url()).pathname;
    if (!path.startsWith('/documents-protected-simple')) return;
    const headers = sentRequest.headers();
    sent.push({
      method: sentRequest.method(),
      path,
      userId: headers['x-user-id'],
      contentType: headers['content-type'],
      body: sentRequest.postData() ?? undefined,
    });
  });
  await page.goto(`${origin}/`);
  await page.waitForSelector('body[data-ready="true"][data-user="1"]', { timeout: 10_000 });
  if (userId !== '1') {
    await page.selectOption('#user', userId);
    await page.waitForSelector(`body[data-ready="true"][data-user="${userId}"]`, { timeout: 10_000 });
  }
  return { page, context, sent, pageErrors };
}

const button = (page: Page, id: number, action: string): Locator => page.locator(`tr[data-document-id="${id}"] button[data-action="${action}"]`);

/** Clicks, then waits until the page has shown what came of the call (and, after a change, the table again). */
async function clickAndWait(page: Page, target: Locator): Promise<void> {
  const done = Number((await page.locator('body').getAttribute('data-actions-done')) ?? '0');
  await target.click({ timeout: 10_000 });
  await page.waitForSelector(`body[data-actions-done="${done + 1}"][data-ready="true"]`, { timeout: 10_000 });
}

async function shownMessage(page: Page): Promise<ShownMessage> {
  const message = page.locator('#message');
  return { text: await message.textContent(), outcome: await message.getAttribute('data-outcome'), visible: await message.isVisible() };
}

const done = (text: string): ShownMessage => ({ text, outcome: 'done', visible: true });
const refused = (text: string): ShownMessage => ({ text, outcome: 'refused', visible: true });

/** The record panel: its heading and its attribute → value pairs, as shown. */
async function shownRecord(page: Page): Promise<{ heading: string | null; attributes: Record<string, string> }> {
  const names = await page.locator('#record dt').allTextContents();
  const values = await page.locator('#record dd').allTextContents();
  return { heading: await page.locator('#record-title').textContent(), attributes: Object.fromEntries(names.map((name, i) => [name, values[i] ?? ''])) };
}

/** A document's attributes as the page writes them (every value as text). */
const asShown = (document: object): Record<string, string> => Object.fromEntries(Object.entries(document).map(([key, value]) => [key, String(value)]));

/** The request a button should make. */
const request = (method: string, path: string, userId: string, body?: unknown): SentRequest => ({
  method,
  path,
  userId,
  contentType: body === undefined ? undefined : 'application/json',
  body: body === undefined ? undefined : JSON.stringify(body),
});

/** Dispatches a click event on each disabled button, past the browser's own refusal to click them: the page must still call nothing. */
async function clickDisabled(page: Page, id: number, actions: readonly string[]): Promise<void> {
  for (const action of actions) {
    expect({ action, disabled: await button(page, id, action).isDisabled() }).toEqual({ action, disabled: true });
    await button(page, id, action).dispatchEvent('click');
  }
}

const screenshot = (page: Page, name: string): Promise<Buffer> => page.screenshot({ path: join(screenshotFolder(), name), fullPage: true });

/** The parts of the page's DOM the layout checks read (the project's tsconfig has no DOM types). */
interface LayoutGlobals {
  readonly document: {
    readonly documentElement: { readonly scrollWidth: number };
    querySelector(selector: string): LaidOut | null;
    querySelectorAll(selector: string): Iterable<LaidOut>;
  };
  getComputedStyle(element: LaidOut): { readonly overflowX: string };
}

/** An element as the layout checks measure it. */
interface LaidOut {
  readonly scrollWidth: number;
  readonly clientWidth: number;
  getBoundingClientRect(): { readonly right: number };
}

/** How the page is laid out: its width (wider than the window means it scrolls sideways), the table's box, the buttons' right edges. */
interface Layout {
  readonly pageWidth: number;
  readonly tableBox: { readonly overflowX: string; readonly fits: boolean } | undefined;
  readonly buttonRights: readonly number[];
}

const layout = (page: Page): Promise<Layout> =>
  page.evaluate(() => {
    const browserGlobals = globalThis as unknown as LayoutGlobals;
    const { document } = browserGlobals;
    const box = document.querySelector('.table-scroll');
    return {
      pageWidth: document.documentElement.scrollWidth,
      tableBox: box === null ? undefined : { overflowX: browserGlobals.getComputedStyle(box).overflowX, fits: box.scrollWidth <= box.clientWidth },
      buttonRights: [...document.querySelectorAll('#documents button')].map((button) => button.getBoundingClientRect().right),
    };
  });

describeInBrowser('the example page’s buttons call the guarded endpoints (chromium)', () => {
  beforeAll(async () => {
    pageDir = await buildPageDir();
    ({ app, origin } = await listenExampleApp({ pageDir }));
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await removePageDir(pageDir);
  }, 30_000);

  it('EMPLOYEE (1) reads their document 10: one GET, and the record as the server picked it; update, delete and review call nothing', async () => {
    const { page, context, sent, pageErrors } = await openAs('1', WIDE);
    await clickDisabled(page, 10, ['update', 'delete', 'review']);
    await clickAndWait(page, button(page, 10, 'read'));
    // Only the read: had a disabled button called the server, its request would have gone first.
    expect(sent).toEqual([request('GET', '/documents-protected-simple/10', '1')]);
    expect(await shownMessage(page)).toEqual(done('Document 10 read: the server sent 6 attributes.'));
    expect(await shownRecord(page)).toEqual({ heading: 'Document 10', attributes: asShown(documentWithout(10, 'confidential')) });
    await screenshot(page, 'page-user-1.png');
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 180_000);

  it('EMPLOYEE_MANAGER (2) reviews their document 20, deletes document 40 of a user they manage; the server holds both; update calls nothing', async () => {
    const { page, context, sent, pageErrors } = await openAs('2', WIDE);
    await clickDisabled(page, 20, ['update']);
    await clickAndWait(page, button(page, 20, 'review'));
    expect(sent).toEqual([request('POST', '/documents-protected-simple/20/review', '2')]);
    expect(await shownMessage(page)).toEqual(done('Document 20 reviewed: its status is now approved.'));
    expect((await repository().findById(20))?.status).toBe('approved');
    expect(await page.locator('tr[data-document-id="20"] td[data-field="status"]').textContent()).toBe('approved');

    await clickAndWait(page, button(page, 40, 'delete'));
    expect(sent.slice(1)).toEqual([request('DELETE', '/documents-protected-simple/40', '2')]);
    expect(await shownMessage(page)).toEqual(done('Document 40 deleted.'));
    expect(await repository().findById(40)).toBeUndefined();
    expect(await page.locator('tr[data-document-id="40"]').count()).toBe(0);
    expect(await page.locator('#documents tbody tr').count()).toBe(23);
    await screenshot(page, 'page-user-2.png');
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 180_000);

  it('COMPANY_ADMIN (4) renames document 50 in the form; a blank title is refused (400, with the reason); a document deleted meanwhile, 403', async () => {
    const { page, context, sent, pageErrors } = await openAs('4', WIDE);
    await button(page, 50, 'update').click({ timeout: 10_000 });
    // The editor opens, filled with the title shown: nothing is sent before Save.
    expect({
      visible: await page.locator('#edit').isVisible(),
      heading: await page.locator('#edit-heading').textContent(),
      value: await page.locator('#edit-title').inputValue(),
      sent: [...sent],
    }).toEqual({ visible: true, heading: 'Rename document 50', value: 'Document Title 50', sent: [] });
    await page.fill('#edit-title', 'Budget 2025');
    await clickAndWait(page, page.locator('#edit button[type="submit"]'));
    expect(sent).toEqual([request('PATCH', '/documents-protected-simple/50', '4', { title: 'Budget 2025' })]);
    expect(await shownMessage(page)).toEqual(done('Document 50 renamed to “Budget 2025”.'));
    expect((await repository().findById(50))?.title).toBe('Budget 2025');
    expect(await page.locator('tr[data-document-id="50"] td[data-field="title"]').textContent()).toBe('Budget 2025');
    expect(await page.locator('#edit').isVisible()).toBe(false);

    await button(page, 5, 'update').click({ timeout: 10_000 });
    await page.fill('#edit-title', '   ');
    await clickAndWait(page, page.locator('#edit button[type="submit"]'));
    expect(sent.slice(1)).toEqual([request('PATCH', '/documents-protected-simple/5', '4', { title: '   ' })]);
    expect(await shownMessage(page)).toEqual(refused('Could not rename document 5: the server answered 400 (title must not be empty).'));
    expect((await repository().findById(5))?.title).toBe('Document Title 5');
    // The editor stays open, so the title can be corrected.
    expect(await page.locator('#edit').isVisible()).toBe(true);

    // Deleted behind the page's back: the button is still enabled, the server now refuses (no company owns a missing document).
    await repository().deleteById(60);
    await clickAndWait(page, button(page, 60, 'review'));
    expect(sent.slice(2)).toEqual([request('POST', '/documents-protected-simple/60/review', '4')]);
    expect(await shownMessage(page)).toEqual(refused('Could not review document 60: the server answered 403 (review on document is not granted).'));
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 180_000);

  it('SUPER_ADMIN (5): reading a document deleted meanwhile is refused (404); an unreachable server is said so, and nothing is deleted', async () => {
    const { page, context, sent, pageErrors } = await openAs('5', WIDE);
    await repository().deleteById(500);
    await clickAndWait(page, button(page, 500, 'read'));
    expect(sent).toEqual([request('GET', '/documents-protected-simple/500', '5')]);
    expect(await shownMessage(page)).toEqual(refused('Could not read document 500: the server answered 404 (No document 500).'));
    // Eight columns at 1024 px still fit: nothing hides behind the table's own scroll bar.
    expect((await layout(page)).tableBox).toEqual({ overflowX: 'auto', fits: true });
    await screenshot(page, 'page-user-5.png');

    await page.route('**/documents-protected-simple/300', (route) => route.abort('failed'));
    await clickAndWait(page, button(page, 300, 'delete'));
    expect(sent.slice(1)).toEqual([request('DELETE', '/documents-protected-simple/300', '5')]);
    expect(await shownMessage(page)).toEqual(refused('Could not delete document 300: the server could not be reached.'));
    expect((await repository().findById(300))?.id).toBe(300);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 180_000);

  it('at 420 px the page never scrolls sideways (documents as cards, buttons wrapping) with the record, the editor and a refusal open', async () => {
    const { page, context, sent, pageErrors } = await openAs('4', NARROW);
    // Never wider than the window. Wider than its box, the table would scroll inside it; at this width each document is a
    // card that fits, and every button is within the window: none cut off or pushed off to the right.
    const narrow = await layout(page);
    expect(narrow.pageWidth).toBeLessThanOrEqual(NARROW.width);
    expect({ tableBox: narrow.tableBox, cutOff: narrow.buttonRights.filter((right) => right > NARROW.width) }).toEqual({
      tableBox: { overflowX: 'auto', fits: true },
      cutOff: [],
    });

    await clickAndWait(page, button(page, 4, 'read'));
    await button(page, 4, 'update').click({ timeout: 10_000 });
    await page.fill('#edit-title', '');
    await clickAndWait(page, page.locator('#edit button[type="submit"]'));
    expect(sent).toEqual([request('GET', '/documents-protected-simple/4', '4'), request('PATCH', '/documents-protected-simple/4', '4', { title: '' })]);
    expect(await shownMessage(page)).toEqual(refused('Could not rename document 4: the server answered 400 (title must not be empty).'));
    expect(await page.locator('#record').isVisible()).toBe(true);
    expect((await layout(page)).pageWidth).toBeLessThanOrEqual(NARROW.width);
    await screenshot(page, 'page-420px.png');
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 180_000);
});
