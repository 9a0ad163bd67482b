/**
 * typed-permissions/hono runs outside Node.js: a Hono application guarded by it (test/hono/browser-app.ts, on the
 * compiled tables of this repository's definitions) is bundled by esbuild for the browser — where importing any
 * Node.js built-in fails the build — and run in headless Chromium (Debian's, driven by playwright-core), which
 * has no Node.js globals: the page calls `app.fetch(new Request(…))` and the answers are those of a Node server.
 */
import { relative, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { build } from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { PageAnswer } from './browser-app.js';
import { browserDescribe, CHROMIUM_FLAGS, CHROMIUM_PATH } from '../example/chromium.js';

const ENTRY = resolve('test/hono/browser-app.ts');
const describeInBrowser = browserDescribe('test/hono/hono-in-browser.browser.test.ts');

/** Bundles `contents` (resolved from the repository) as the browser gets it: every import inlined, none from Node.js. */
async function bundleForBrowser(contents: string): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    stdin: { contents, resolveDir: resolve('.'), loader: 'ts', sourcefile: 'page-entry.ts' },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    metafile: true,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild wrote no output');
  return { code: output.text, inputs: Object.keys(result.metafile.inputs).map((input) => relative(process.cwd(), resolve(input))) };
}

/** Employees read their own documents only: a refusal of someone else's (or of one that does not exist) is 'not-owner'. */
const FORBIDDEN = { statusCode: 403, error: 'Forbidden', message: 'read on document is not granted', reason: 'not-owner' };

describeInBrowser('a Hono application with typed-permissions/hono, bundled for the browser and run in Chromium', () => {
  let bundled: { code: string; inputs: string[] };
  let browser: Browser | undefined;
  let page: Page;

  beforeAll(async () => {
    bundled = await bundleForBrowser(`import ${JSON.stringify(`./${relative(resolve('.'), ENTRY)}`)};`);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS, timeout: 30_000 });
    page = await browser.newPage();
    await page.setContent('<!doctype html><title>hono</title>');
    await page.addScriptTag({ content: bundled.code });
  }, 60_000);

  afterAll(async () => browser?.close(), 30_000);

  const answer = (path: string, userId?: string): Promise<PageAnswer> =>
    page.evaluate(
      ([path, userId]) =>
        (globalThis as unknown as { honoInBrowser: { answer: (path: string, userId?: string) => Promise<PageAnswer> } }).honoInBrowser.answer(path, userId),
      [path, userId] as const,
    );

  it('the bundle holds the middleware, the kit, the engine and Hono — and nothing of Node.js or of the Node.js server adapter', () => {
    expect(bundled.inputs).toEqual(
      expect.arrayContaining([
        'runtime/hono/permit-middleware.ts',
        'runtime/integration/decide-request.ts',
        'runtime/permissions/precompiled.ts',
        'generated/tables.ts',
      ]),
    );
    expect(bundled.inputs.filter((input) => input.startsWith('node_modules/') && !/^node_modules\/(hono|path-to-regexp|leven)\//.test(input))).toEqual([]);
    // No import of a Node.js module survives bundling; the engine's two run-time look-ups through
    // process.getBuiltinModule (tracing, hashing a policy without a version) find nothing here and stay off.
    expect(bundled.code).not.toMatch(/\b(?:from|import|require)\s*\(?\s*["'`]node:/);
  });

  it('importing a Node.js built-in fails the same build: the check above can fail', async () => {
    await expect(bundleForBrowser(`import './test/hono/browser-app.ts'; import 'node:crypto';`)).rejects.toThrow('Could not resolve "node:crypto"');
  });

  it('the page is no Node.js: no process, require, Buffer or global', async () => {
    expect(
      await page.evaluate(() => [
        typeof (globalThis as Record<string, unknown>)['process'],
        typeof (globalThis as Record<string, unknown>)['require'],
        typeof (globalThis as Record<string, unknown>)['Buffer'],
        typeof (globalThis as Record<string, unknown>)['global'],
      ]),
    ).toEqual(['undefined', 'undefined', 'undefined', 'undefined']);
  });

  it("answers in the page as on a server: own document 200 (less what the role may not see), another's 403, unknown user 401, malformed id 400", async () => {
    const own = await answer('/documents/1', '1');
    expect([own.status, own.body]).toEqual([200, { id: 1, title: 'Travel policy', date: '2026-01-05', status: 'draft', personal: 'p1', creatorId: 1 }]);
    expect(own.headers['x-permissions-version']).toMatch(/^[0-9a-f]{64}$/);
    expect(own.headers['x-permissions-call-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const other = await answer('/documents/2', '1');
    expect([other.status, other.body, other.headers['x-permissions-version']]).toEqual([403, FORBIDDEN, own.headers['x-permissions-version']]);
    expect(await answer('/documents/1', 'mallory')).toMatchObject({ status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'Unknown user.' } });
    const malformed = await answer('/documents/01', '1');
    expect([malformed.status, malformed.body, malformed.headers['x-permissions-call-id']]).toEqual([
      400,
      {
        statusCode: 400,
        error: 'Bad Request',
        message: '"01" is not an id of "document": its ids are an integer written in decimal without leading zeros, within ±9007199254740991 (such as 42).',
      },
      undefined,
    ]);
    // Nobody owns document 99, so reading it is refused like any document the user does not own.
    expect(await answer('/documents/99', '1')).toMatchObject({ status: 403, body: FORBIDDEN });
    const list = await answer('/documents', '2');
    expect([list.status, list.body]).toEqual([
      200,
      [
        { title: 'Travel policy', date: '2026-01-05' },
        { id: 2, title: 'Team offsite', date: '2026-02-10', status: 'final', personal: 'p2', creatorId: 2 },
      ],
    ]);
  });
});
