/**
 * The browser-client project that docs/browser-client.md builds, as a user gets it: copied out of the repository,
 * installed from the packed tarballs, built (`npm run build`: compile, type-check, bundle the page), started
 * (`npm start`, on a port the system chooses), and used in Debian's chromium driven by playwright-core.
 * The page must show each user exactly the rows and attributes the definitions allow (expected by hand), enable
 * exactly the buttons the server would grant, and show what the server answers: the owner's document (200), a
 * refusal (403) for a link to someone else's, the 401 of an unknown user and the 400 of a malformed id. A visitor
 * (the ANONYMOUS placeholder user) sees titles without any warning on the server. The same four answers are
 * asserted over HTTP with their exact bodies, and the project also compiles with TypeScript 6 (it installs 7).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { chromium, type Browser, type Page } from 'playwright-core';
import { repoRoot } from '../compiler/helpers.js';
import { browserDescribe, CHROMIUM_FLAGS, CHROMIUM_PATH, TEMPORARY_SCREENSHOTS } from '../example/chromium.js';
import { NPM, ok, run } from '../package/throwaway-project.js';
import { installExample, removeExample, startExample } from './example-project.js';

const describeInBrowser = browserDescribe('test/examples/browser-client.browser.test.ts');

const LISTENING = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/;
/** The lines npm prints around a script (`> browser-client-example@1.0.0 start`, the command, blank lines). */
const NPM_LINE = /^(?:> .*)?$/;
/** Chromium's console line for a response that is not 2xx: the page shows the refusal itself. */
const REFUSED_RESOURCE =
  /^Failed to load resource: the server responded with a status of (?:400 \(Bad Request\)|401 \(Unauthorized\)|403 \(Forbidden\)|404 \(Not Found\))$/;

/** The rows of the table: id, title, owner (— when the server did not send it). */
const TITLES = [
  ['1', 'Travel policy'],
  ['2', 'Team offsite'],
  ['3', 'Onboarding'],
] as const;
const OWNERS = ['1', '2', '1'] as const;

describeInBrowser('the browser-client example project', () => {
  let dir = '';
  let server: Awaited<ReturnType<typeof startExample>> | undefined;
  let url = '';
  let browser: Browser | undefined;
  let page: Page;
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    dir = await installExample('browser-client');
    ok(run(NPM, ['run', 'build'], dir), 'npm run build');
    server = await startExample(dir, [NPM, 'start'], { ready: LISTENING, env: { PORT: '0' }, timeoutMs: 60_000 });
    url = server.match[1] as string;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, timeout: 30_000 });
    page = await browser.newPage({ viewport: { width: 900, height: 640 } });
    page.setDefaultTimeout(10_000);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    removeExample(dir);
  }, 30_000);

  /** Opens the page at `path` (`/?user=1#2`) and waits until it has shown the user's documents or why not. */
  async function open(path: string): Promise<void> {
    await page.goto(`${url}${path}`);
    await page.locator('#status').filter({ hasNotText: 'Loading…' }).waitFor();
  }

  /** Each row's cells (id, title, owner) and whether its read and delete buttons are enabled. */
  async function rows(): Promise<{ cells: string[]; read: boolean; delete: boolean }[]> {
    const shown = [];
    for (const row of await page.locator('#documents tr').all()) {
      shown.push({
        cells: (await row.locator('td').allTextContents()).slice(0, 3),
        read: await row.getByRole('button', { name: 'read' }).isEnabled(),
        delete: await row.getByRole('button', { name: 'delete' }).isEnabled(),
      });
    }
    return shown;
  }

  /** The open record: each attribute's name and value, as the page lists them; undefined when none is shown. */
  async function record(): Promise<[string, string][] | undefined> {
    if (await page.locator('#record').isHidden()) return undefined;
    const values = await page.locator('#record-fields dd').allTextContents();
    return (await page.locator('#record-fields dt').allTextContents()).map((name, i) => [name, values[i] ?? '']);
  }

  async function message(): Promise<string | undefined> {
    return (await page.locator('#message').isHidden()) ? undefined : ((await page.locator('#message').textContent()) ?? '');
  }

  const status = async () => page.locator('#status').textContent();

  it('the owner opens their document: every attribute but the confidential note, and buttons on their own rows only', async () => {
    await open('/?user=1#1');
    await page.locator('#record').waitFor();
    expect(await status()).toBe('Signed in as user 1: 3 documents.');
    expect(await rows()).toEqual(TITLES.map((title, i) => ({ cells: [...title, OWNERS[i]], read: i !== 1, delete: i !== 1 })));
    expect(await record()).toEqual([
      ['id', '1'],
      ['title', 'Travel policy'],
      ['text', 'Trains under 700 km.'],
      ['ownerId', '1'],
    ]);
    expect(await message()).toBeUndefined();
    mkdirSync(TEMPORARY_SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(TEMPORARY_SCREENSHOTS, 'browser-client-user-1.png') });
    // The read button of a row opens that document the same way.
    await page.locator('#documents tr').nth(2).getByRole('button', { name: 'read' }).click();
    await page.locator('#record-title', { hasText: /^Document 3$/ }).waitFor();
    expect(await record()).toEqual([
      ['id', '3'],
      ['title', 'Onboarding'],
      ['text', 'Laptops on day one.'],
      ['ownerId', '1'],
    ]);
  });

  it('a link to someone else’s document shows the server’s refusal: 403', async () => {
    await open('/?user=1#2');
    await page.locator('#message').waitFor();
    expect(await message()).toBe('Could not open document 2: the server answered 403 (read on document is not granted).');
    expect(await record()).toBeUndefined();
    await page.screenshot({ path: join(TEMPORARY_SCREENSHOTS, 'browser-client-403.png') });
  });

  it('an unknown user is not signed in: 401, and no document is shown', async () => {
    await open('/?user=9');
    expect(await status()).toBe('Could not sign in: the server answered 401 (x-user-id must be the id of a user).');
    expect(await page.locator('#table').isHidden()).toBe(true);
    expect(await rows()).toEqual([]);
  });

  it('a malformed document id in the address is refused: 400', async () => {
    await open('/?user=1#abc');
    await page.locator('#message').waitFor();
    expect(await message()).toBe(
      'Could not open document abc: the server answered 400 ("abc" is not an id of "document": its ids are an integer written in decimal ' +
        'without leading zeros, within ±9007199254740991 (such as 42)).',
    );
    expect(await record()).toBeUndefined();
  });

  it('a visitor sees the titles, no owner, and no button enabled', async () => {
    await open('/');
    expect(await status()).toBe('Not signed in: 3 documents.');
    expect(await rows()).toEqual(TITLES.map((title) => ({ cells: [...title, '—'], read: false, delete: false })));
  });

  it('a manager reads every document in full and may delete none', async () => {
    await open('/?user=3#2');
    await page.locator('#record').waitFor();
    expect(await rows()).toEqual(TITLES.map((title, i) => ({ cells: [...title, OWNERS[i]], read: true, delete: false })));
    expect(await record()).toEqual([
      ['id', '2'],
      ['title', 'Team offsite'],
      ['text', 'Lisbon, 12 to 14 May.'],
      ['ownerId', '2'],
      ['confidential', 'Budget: 9,000 EUR.'],
    ]);
  });

  it('the owner deletes a document; a page shown before still offers to read it, and shows the server’s 403 on a click', async () => {
    const stale = await (browser as Browser).newPage();
    await stale.goto(`${url}/?user=1`);
    await stale.locator('#documents tr').nth(2).waitFor();
    await open('/?user=1');
    await page.locator('#documents tr').nth(2).getByRole('button', { name: 'delete' }).click();
    await page.locator('#documents tr').nth(2).waitFor({ state: 'detached' });
    expect(await message()).toBe('Document 3 deleted.');
    expect(await status()).toBe('Signed in as user 1: 2 documents.');
    // The other page still offers document 3 from its stale rows: the server decides (user 1 owns no document 3
    // now), and the page shows what it answered.
    await stale.locator('#documents tr').nth(2).getByRole('button', { name: 'read' }).click();
    await stale.locator('#message').waitFor();
    expect(await stale.locator('#message').textContent()).toBe('Could not open document 3: the server answered 403 (read on document is not granted).');
    await stale.close();
  });

  it('answers the four cases over HTTP with their exact bodies, and sends the page under a strict CSP', async () => {
    const get = async (path: string, userId: string) => {
      const response = await fetch(`${url}${path}`, { headers: { 'x-user-id': userId }, signal: AbortSignal.timeout(10_000) });
      const body: unknown = await response.json();
      return { status: response.status, body };
    };
    expect(await get('/documents/1', '1')).toEqual({ status: 200, body: { id: 1, title: 'Travel policy', text: 'Trains under 700 km.', ownerId: 1 } });
    expect(await get('/documents/2', '1')).toEqual({
      status: 403,
      body: { statusCode: 403, error: 'Forbidden', message: 'read on document is not granted', reason: 'not-owner' },
    });
    expect(await get('/documents/1', '9')).toEqual({
      status: 401,
      body: { statusCode: 401, error: 'Unauthorized', message: 'x-user-id must be the id of a user.' },
    });
    expect(await get('/documents/abc', '1')).toEqual({
      status: 400,
      body: {
        statusCode: 400,
        error: 'Bad Request',
        message: '"abc" is not an id of "document": its ids are an integer written in decimal without leading zeros, within ±9007199254740991 (such as 42).',
      },
    });
    const home = await fetch(`${url}/`, { signal: AbortSignal.timeout(10_000) });
    expect(home.headers.get('content-security-policy')).toBe("default-src 'self'");
  });

  it('ran without a script error; the console shows only the refusals the page showed', () => {
    expect(pageErrors).toEqual([]);
    expect(consoleErrors.filter((line) => !REFUSED_RESOURCE.test(line))).toEqual([]);
  });

  it('the server printed where it listens and nothing else: no warning about the visitor’s role', () => {
    expect(server?.lines.filter((line) => !NPM_LINE.test(line))).toEqual([`listening on ${url}`]);
  });

  it('compiles with TypeScript 6 as well as with the TypeScript 7 it installs', () => {
    const tsc6 = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    expect(ok(run(process.execPath, [tsc6, '--version'], dir))).toMatch(/^Version 6\./);
    expect(ok(run(process.execPath, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '--version'], dir))).toMatch(/^Version 7\./);
    ok(run(process.execPath, [tsc6, '-p', '.', '--noEmit'], dir), 'tsc 6 -p .');
    ok(run(process.execPath, [tsc6, '-p', 'page'], dir), 'tsc 6 -p page');
  }, 120_000);
});
