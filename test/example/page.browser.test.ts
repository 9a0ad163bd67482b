/**
 * The example page in a real browser — Debian's chromium driven by playwright-core, against the
 * example app on a real port. For users 1 (EMPLOYEE), 2 (EMPLOYEE_MANAGER), 4 (COMPANY_ADMIN) and 5 (SUPER_ADMIN)
 * the page must show exactly the documents and fields the server allows (expected from example-data.ts, by hand),
 * nothing else anywhere in the DOM or in what it fetched, enable exactly the buttons the server would grant
 * (asked from the running app), say who is signed in in a full sentence, and explain "—" in a legend. It runs
 * under the strict CSP, eval blocked, without a console error. What the buttons do is page-actions.browser.test.ts.
 * When /usr/bin/chromium is missing, scripts/install-chromium.sh is tried once; if it still is, every
 * browser test is skipped with the reason printed. One app and one browser for the whole file.
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { chromium, type Browser, type Page } from 'playwright-core';
import { policyVersion } from '../../generated/index.js';
import { exampleDocuments, type ExampleDocument } from '../../examples/documents/example-data.js';
import { PAGE_CONTENT_SECURITY_POLICY } from '../../examples/documents/page.controller.js';
import { UsersRepository } from '../../examples/documents/users.repository.js';
import { PermissionsService } from '../../runtime/nest/index.js';
import { buildPageDir, listenExampleApp, removePageDir } from './example-app.fixture.js';
import { browserDescribe, CHROMIUM_FLAGS, CHROMIUM_PATH, INSTALL_SCRIPT } from './chromium.js';
import { ALL_DOCUMENT_IDS, documentWithId, type DocumentField } from './example-expectations.js';

const describeInBrowser = browserDescribe('test/example/page.browser.test.ts');

/** The users the page offers, what they are, and the columns (field order of ExampleDocument) their table shows. */
const PAGE_USERS = [
  { userId: 1, role: 'EMPLOYEE', headers: ['id', 'title', 'date', 'status', 'personal', 'creatorId', 'actions'] },
  { userId: 2, role: 'EMPLOYEE_MANAGER', headers: ['id', 'title', 'date', 'status', 'creatorId', 'actions'] },
  { userId: 4, role: 'COMPANY_ADMIN', headers: ['id', 'title', 'date', 'status', 'personal', 'confidential', 'creatorId', 'actions'] },
  { userId: 5, role: 'SUPER_ADMIN', headers: ['id', 'title', 'date', 'status', 'personal', 'confidential', 'creatorId', 'actions'] },
] as const;
type PageUserId = (typeof PAGE_USERS)[number]['userId'];

const ACTIONS = ['read', 'update', 'delete', 'review'] as const;
type PageAction = (typeof ACTIONS)[number];
type ButtonStates = Record<PageAction, boolean>;

/** The columns the page can show, in its order (ExampleDocument's field order). */
const COLUMN_ORDER: readonly DocumentField[] = ['id', 'title', 'date', 'status', 'personal', 'confidential', 'creatorId'];
const EVERY_FIELD: readonly DocumentField[] = COLUMN_ORDER;

/** One document of the page as the server should allow it: which document, and which of its fields are visible. */
interface ExpectedRow {
  readonly id: number;
  readonly visible: readonly DocumentField[];
}

/**
 * The rows the page must show, read from the definitions and example-data.ts by hand (never from the app):
 * EMPLOYEE lists everything (own documents without confidential, the rest title and date); EMPLOYEE_MANAGER
 * too (documents of users 2, 1, 4 without confidential and personal, the rest title, date and status);
 * COMPANY_ADMIN may not list and reads the documents of company 2 (users 4, 5, 6) in full; SUPER_ADMIN sees everything.
 */
function expectedRows(userId: PageUserId): ExpectedRow[] {
  const creator = (id: number) => documentWithId(id).creatorId;
  const without = (...hidden: readonly DocumentField[]) => EVERY_FIELD.filter((field) => !hidden.includes(field));
  switch (userId) {
    case 1:
      return ALL_DOCUMENT_IDS.map((id) => ({ id, visible: creator(id) === 1 ? without('confidential') : ['title', 'date'] }));
    case 2:
      return ALL_DOCUMENT_IDS.map((id) => ({
        id,
        visible: [1, 2, 4].includes(creator(id)) ? without('confidential', 'personal') : ['title', 'date', 'status'],
      }));
    case 4:
      return ALL_DOCUMENT_IDS.filter((id) => [4, 5, 6].includes(creator(id))).map((id) => ({ id, visible: EVERY_FIELD }));
    case 5:
      return ALL_DOCUMENT_IDS.map((id) => ({ id, visible: EVERY_FIELD }));
  }
}

/** The policy as the status line names it: the first 8 characters of its version. */
const SHORT_POLICY = policyVersion.slice(0, 8);

/** The status line the page writes when the documents are shown: one sentence. */
const EXPECTED_STATUS: Record<PageUserId, string> = {
  1: `Signed in as user 1 (EMPLOYEE): 24 documents shown; you may list documents and read your own, as decided by policy ${SHORT_POLICY}.`,
  2: `Signed in as user 2 (EMPLOYEE_MANAGER): 24 documents shown; you may list documents and read your own, as decided by policy ${SHORT_POLICY}.`,
  4: `Signed in as user 4 (COMPANY_ADMIN): 9 documents shown; you may not list documents but may read your own, as decided by policy ${SHORT_POLICY}.`,
  5: `Signed in as user 5 (SUPER_ADMIN): 24 documents shown; you may list documents and read any document, as decided by policy ${SHORT_POLICY}.`,
};

/** The tenant line: the company each user works for, whose custom roles their questions include. */
const EXPECTED_TENANT: Record<PageUserId, string> = {
  1: 'Company 1: its custom roles apply.',
  2: 'Company 1: its custom roles apply.',
  4: 'Company 2: its custom roles apply.',
  5: 'Company 2: its custom roles apply.',
};

/** What the legend under the status line says. */
const EXPECTED_LEGEND = '— in a cell: the attribute is hidden by permission for this user; the server did not send it.';

/** How many buttons of each action the server's grants enable, counted by hand from the definitions. */
const EXPECTED_ENABLED_COUNTS: Record<PageUserId, Record<PageAction, number>> = {
  1: { read: 3, update: 0, delete: 0, review: 0 }, // reads their own 3; EMPLOYEE has no update, delete or review
  2: { read: 9, update: 0, delete: 9, review: 9 }, // reads, deletes and reviews the 9 documents of users 2, 1, 4
  4: { read: 9, update: 9, delete: 0, review: 9 }, // reads, updates and reviews company 2's 9 documents; no delete
  5: { read: 24, update: 24, delete: 24, review: 24 }, // everything
};

/** A value as the page writes it into a cell (the API sends strings and numbers). */
const shown = (value: string | number): string => String(value);

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The field values of the example documents that the user must never see on that document (long, unique strings). */
function forbiddenValues(rows: readonly ExpectedRow[]): string[] {
  const visibleById = new Map(rows.map((row) => [row.id, row.visible]));
  const values: string[] = [];
  for (const document of exampleDocuments) {
    for (const field of ['title', 'date', 'personal', 'confidential'] as const satisfies readonly (keyof ExampleDocument)[]) {
      if (!(visibleById.get(document.id) ?? []).includes(field)) values.push(document[field]);
    }
  }
  return values;
}

/** Which of `values` occur in `text` ("Document Title 1" does not occur in "Document Title 10"). */
const occurring = (text: string, values: readonly string[]): string[] => values.filter((value) => new RegExp(`${escapeRegExp(value)}(?!\\d)`).test(text));

/** What the table shows, read through the DOM. */
interface TableSnapshot {
  readonly headers: string[];
  readonly rows: Array<{ readonly documentId: string | null; readonly cells: string[]; readonly enabled: ButtonStates }>;
}

async function readTable(page: Page): Promise<TableSnapshot> {
  const headers = await page.locator('#documents thead th').allTextContents();
  const rows: TableSnapshot['rows'] = [];
  for (const row of await page.locator('#documents tbody tr').all()) {
    const enabled = {} as ButtonStates;
    for (const action of ACTIONS) enabled[action] = await row.locator(`button[data-action="${action}"]`).isEnabled();
    rows.push({ documentId: await row.getAttribute('data-document-id'), cells: await row.locator('td:not(.actions)').allTextContents(), enabled });
  }
  return { headers, rows };
}

/** The browser's globals the listener below touches (the project's tsconfig has no DOM types). */
interface BrowserGlobals {
  readonly document: {
    addEventListener(type: 'securitypolicyviolation', listener: (event: { readonly violatedDirective: string; readonly blockedURI: string }) => void): void;
  };
  setTimeout(handler: string | (() => void), delay: number): number;
  cspViolations?: string[];
  evalRan?: boolean;
}

describe('scripts/install-chromium.sh', () => {
  it('without chromium and without apt-get it exits 1 with a clear message and installs nothing', () => {
    const run = spawnSync('/bin/bash', [INSTALL_SCRIPT], { encoding: 'utf8', env: { CHROMIUM_PATH: '/nonexistent/chromium', PATH: '/nonexistent' } });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 1,
      stdout: '',
      stderr:
        'install-chromium: cannot install chromium: /nonexistent/chromium is missing and apt-get is not available (not a Debian-based system). ' +
        "Install Debian's chromium package, or a Chromium at /nonexistent/chromium, by hand; the browser test skips until then.\n",
    });
  }, 30_000);
});

let pageDir: string;
let app: INestApplication<Server>;
let origin: string;
let browser: Browser;

/** What the server grants user `userId` for `action` on document `id` (the running app's PermissionsService). */
async function serverGrants(userId: number, action: PageAction, id: number): Promise<boolean> {
  const user = await app.get(UsersRepository).findUser(userId);
  if (user === undefined) throw new Error(`user ${userId} is not in the example database`);
  return (await app.get(PermissionsService).grantPermit<number>({ user, resource: 'document', action, resourceId: id })).granted;
}

describeInBrowser('the example page in chromium (users 1, 2, 4, 5)', () => {
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

  it('install-chromium.sh with chromium installed changes nothing and says so', () => {
    const run = spawnSync(INSTALL_SCRIPT, { encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toMatch(/^install-chromium: \/usr\/bin\/chromium is already installed \(Chromium \d+\.[^\n]*\); nothing to do\.\n$/);
  }, 30_000);
  pageShowsWhatTheServerAllows();

  it('a user of two roles (7: EMPLOYEE_MANAGER and COMPANY_ADMIN) sees each document once, though both answers hold some of them', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    await page.waitForSelector('body[data-ready="true"][data-user="1"]');
    // The select offers the users of the walkthrough; user 7 is added to it as another option.
    await page.evaluate("document.querySelector('#user').add(new Option('user 7', '7'))");
    await page.selectOption('#user', '7');
    await page.waitForSelector('body[data-ready="true"][data-user="7"]');
    const table = await readTable(page);
    const titles = table.rows.map((row) => row.cells[table.headers.indexOf('title')]);
    // Company 2's documents come from both answers: the read copy is shown where the list copy hides the id.
    expect(titles.slice().sort()).toEqual(exampleDocuments.map((document) => document.title).sort());
    expect(await page.locator('#status').textContent()).toMatch(/^Signed in as user 7: 24 documents shown;/);
    await context.close();
  }, 60_000);
});

function pageShowsWhatTheServerAllows(): void {
  it.each(PAGE_USERS)(
    'user $userId ($role) sees exactly what the server allows, buttons enabled exactly where it grants, under the CSP without errors',
    async ({ userId, headers }) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const { problems, fetched } = await watchPage(page);

      const scriptResponse = page.waitForResponse((response) => new URL(response.url()).pathname === '/app.js');
      const pageResponse = await page.goto(`${origin}/`);
      const script = await scriptResponse;
      for (const response of [pageResponse, script]) expect(response?.headers()['content-security-policy']).toBe(PAGE_CONTENT_SECURITY_POLICY);
      // Scripts from the page's origin only: no 'unsafe-eval' and no 'unsafe-inline' anywhere in the policy.
      expect(PAGE_CONTENT_SECURITY_POLICY.split('; ')).toContain("script-src 'self'");
      expect(PAGE_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-|\*/);

      // The page starts as user 1; another user is chosen in the select, as a person would.
      await page.waitForSelector('body[data-ready="true"][data-user="1"]');
      if (userId !== 1) {
        await page.selectOption('#user', String(userId));
        await page.waitForSelector(`body[data-ready="true"][data-user="${userId}"]`);
      }

      const expected = expectedRows(userId);
      const table = await readTable(page);
      expect(await page.locator('#status').textContent()).toBe(EXPECTED_STATUS[userId]);
      expect(await page.locator('#tenant').textContent()).toBe(EXPECTED_TENANT[userId]);
      expect({ legend: await page.locator('#legend').textContent(), visible: await page.locator('#legend').isVisible() }).toEqual({
        legend: EXPECTED_LEGEND,
        visible: true,
      });
      expectTableShows(table, headers, expected);
      await expectButtonsAsGranted(table, userId, expected);
      await expectNothingLeaked(page, userId, expected, fetched);

      await expectStringEvalBlocked(page, problems);
      await context.close();
    },
    60_000,
  );
}

/** What the page fetched as each user (the x-user-id it sent): the page loads as user 1 before another is chosen. */
type Fetched = Array<Promise<{ readonly asUser: string | undefined; readonly path: string; readonly body: string }>>;

/** Collects the page's console errors and warnings, page errors, failed requests and HTTP errors, what it fetched, and its CSP violations. */
async function watchPage(page: Page): Promise<{ problems: string[]; fetched: Fetched }> {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (failed) => problems.push(`request failed: ${failed.url()} ${failed.failure()?.errorText ?? ''}`));
  const fetched: Fetched = [];
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} for ${response.url()}`);
    const asUser = response.request().headers()['x-user-id'];
    const path = new URL(response.url()).pathname;
    fetched.push(response.text().then((body) => ({ asUser, path, body })));
  });
  // Installed before any script of the page runs, so a violation while loading is seen too.
  await page.addInitScript(() => {
    const browserGlobals = globalThis as unknown as BrowserGlobals;
    const violations: string[] = (browserGlobals.cspViolations = []);
    browserGlobals.document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return { problems, fetched };
}

/** The table has exactly the expected columns, rows and cells. */
function expectTableShows(table: TableSnapshot, headers: readonly string[], expected: readonly ExpectedRow[]): void {
  expect(table.headers).toEqual(headers);
  const columns = headers.slice(0, -1) as DocumentField[];
  expect(columns).toEqual(COLUMN_ORDER.filter((field) => expected.some((row) => row.visible.includes(field))));
  expect(table.rows.map(({ documentId, cells }) => ({ documentId, cells }))).toEqual(
    expected.map(({ id, visible }) => {
      const document = documentWithId(id);
      return {
        documentId: visible.includes('id') ? String(id) : null,
        cells: columns.map((field) => (visible.includes(field) ? shown(document[field]) : '—')),
      };
    }),
  );
}

/** Buttons: the server's answer for every row (rows without a visible id are asked about the document they are). */
async function expectButtonsAsGranted(table: TableSnapshot, userId: PageUserId, expected: readonly ExpectedRow[]): Promise<void> {
  const serverTruth: ButtonStates[] = [];
  for (const { id } of expected) {
    const states = {} as ButtonStates;
    for (const action of ACTIONS) states[action] = await serverGrants(userId, action, id);
    serverTruth.push(states);
  }
  expect(table.rows.map((row) => row.enabled)).toEqual(serverTruth);
  const hiddenIdRows = expected.flatMap((row, i) => (row.visible.includes('id') ? [] : [{ id: row.id, granted: serverTruth[i] }]));
  expect(hiddenIdRows.filter((row) => ACTIONS.some((action) => row.granted?.[action] === true))).toEqual([]);
  const counts = Object.fromEntries(ACTIONS.map((action) => [action, serverTruth.filter((states) => states[action]).length]));
  expect(counts).toEqual(EXPECTED_ENABLED_COUNTS[userId]);
}

/** Nothing the user may not see is anywhere: not in the DOM (text or attributes), not in anything fetched. */
async function expectNothingLeaked(page: Page, userId: PageUserId, expected: readonly ExpectedRow[], fetched: Fetched): Promise<void> {
  expect(occurring(await page.content(), forbiddenValues(expected))).toEqual([]);
  const answers = await Promise.all(fetched);
  // The slice, the listed documents (not for user 4) and the readable ones; the page's check of its slice every few
  // seconds asks the slice's path again on a slow machine, so what is counted is which paths were asked.
  expect(new Set(answers.filter(({ asUser }) => asUser === String(userId)).map(({ path }) => path)).size).toBe(userId === 4 ? 2 : 3);
  for (const { asUser, body } of answers) {
    const seenBy = PAGE_USERS.find((user) => String(user.userId) === asUser)?.userId;
    if (asUser !== undefined)
      expect({ asUser, leaked: seenBy === undefined ? ['(unexpected user)'] : occurring(body, forbiddenValues(expectedRows(seenBy))) }).toEqual({
        asUser,
        leaked: [],
      });
  }
  const documentIds = await page.locator('[data-document-id]').evaluateAll((elements) => elements.length);
  expect(documentIds).toBe(expected.filter((row) => row.visible.includes('id')).length);
}

/**
 * No violation and no error so far. Then the page's context compiles a string (a string timer is eval; DevTools'
 * own evaluation is exempt from the CSP, the page's timers are not): blocked, and reported to the listener.
 */
async function expectStringEvalBlocked(page: Page, problems: readonly string[]): Promise<void> {
  expect({ problems, violations: await page.evaluate(() => (globalThis as unknown as BrowserGlobals).cspViolations) }).toEqual({
    problems: [],
    violations: [],
  });
  const stringTimer = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const browserGlobals = globalThis as unknown as BrowserGlobals;
        browserGlobals.evalRan = false;
        browserGlobals.setTimeout('globalThis.evalRan = true', 0);
        // Timers run in order: had the string been compiled, it would have run before this one.
        browserGlobals.setTimeout(() => resolve(browserGlobals.evalRan === true ? 'eval ran' : 'eval blocked'), 0);
      }),
  );
  expect(stringTimer).toBe('eval blocked');
  expect(await page.evaluate(() => (globalThis as unknown as BrowserGlobals).cspViolations)).toEqual(['script-src eval']);
}
