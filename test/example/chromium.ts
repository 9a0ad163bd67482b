/**
 * The browser of the page tests: Debian's chromium at /usr/bin/chromium, driven by playwright-core (never a
 * downloaded browser). When it is missing, scripts/install-chromium.sh is tried once; if it still is, the browser
 * tests skip with the reason printed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from '@jest/globals';

/** The repository root. */
export const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const INSTALL_SCRIPT = join(REPOSITORY, 'scripts', 'install-chromium.sh');
/** The screenshots of the example page the repository keeps (docs/screenshots), rewritten only on request. */
export const COMMITTED_SCREENSHOTS = join(REPOSITORY, 'docs', 'screenshots');
/** Where the page tests save what they saw otherwise: outside the working tree, one folder reused by every run. */
export const TEMPORARY_SCREENSHOTS = join(tmpdir(), 'typed-permissions-screenshots');

/**
 * Where the page tests save the screenshots the repository keeps: docs/screenshots when `UPDATE_SCREENSHOTS=1`,
 * else {@link TEMPORARY_SCREENSHOTS} — a test that rewrote committed files on every run would leave the tree dirty.
 *
 * @example
 * ```ts
 * await page.screenshot({ path: join(screenshotFolder(), 'page-user-1.png') }); // UPDATE_SCREENSHOTS=1 npm run test:unit -- <file>
 * ```
 */
export function screenshotFolder(environment: NodeJS.ProcessEnv = process.env): string {
  return environment['UPDATE_SCREENSHOTS'] === '1' ? COMMITTED_SCREENSHOTS : TEMPORARY_SCREENSHOTS;
}
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Why the browser tests cannot run here, or `undefined` when chromium is (now) installed. Tries the
 * install script once: in CI it already ran (.ci/run), on a developer's machine it may need root.
 */
function missingChromiumReason(): string | undefined {
  if (existsSync(CHROMIUM_PATH)) return undefined;
  const install = spawnSync(INSTALL_SCRIPT, { encoding: 'utf8', timeout: 600_000, env: { ...process.env, CHROMIUM_PATH } });
  if (existsSync(CHROMIUM_PATH)) return undefined;
  const said = `${install.stderr ?? ''}${install.stdout ?? ''}`.trim() || install.error?.message || 'no output';
  return `${CHROMIUM_PATH} is missing and scripts/install-chromium.sh could not install it (exit ${String(install.status)}): ${said}`;
}

/**
 * `describe` where chromium can run, else `describe.skip` after a warning naming `file` and the reason.
 *
 * @example
 * ```ts
 * const describeInBrowser = browserDescribe('test/example/page.browser.test.ts');
 * describeInBrowser('the page', () => { … });
 * ```
 */
export function browserDescribe(file: string): typeof describe | typeof describe.skip {
  const skipReason = missingChromiumReason();
  if (skipReason === undefined) return describe;
  console.warn(`${file}: the browser tests are SKIPPED. ${skipReason}`);
  return describe.skip;
}
