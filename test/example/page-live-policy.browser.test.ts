/**
 * The example page while the policy changes under it: the app follows a policy file; the page, open as user 1
 * (EMPLOYEE), shows their documents without the confidential column. A recompiled policy that lets employees list
 * their documents in full is written in place; without any click, the page notices (it revalidates its slice every
 * few seconds) and shows itself again with the column — exactly the fields the server now sends. The same holds for
 * the custom roles of the caller's company, which change the slice without changing the policy's version: user 3's
 * QA_MANAGER role of company 1 loses `review`, and the page stops offering it.
 */
import 'reflect-metadata';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { chromium, type Browser } from 'playwright-core';
import { policyVersion } from '../../generated/index.js';
import { filePolicySource, fileTenantRoles, fileTenantRolesAdmin } from '../../runtime/live/index.js';
import { compileChangedExample } from '../live/fixtures/example-policy.js';
import { browserDescribe, CHROMIUM_FLAGS, CHROMIUM_PATH, REPOSITORY, TEMPORARY_SCREENSHOTS } from './chromium.js';
import { buildPageDir, listenExampleApp, removePageDir } from './example-app.fixture.js';

const describeInBrowser = browserDescribe('test/example/page-live-policy.browser.test.ts');

describeInBrowser('the example page under a live policy', () => {
  const folder = mkdtempSync(join(tmpdir(), 'typed-permissions-page-live-'));
  const policyFile = join(folder, 'policy.json');
  const tenantRolesFolder = join(folder, 'tenant-roles');
  let pageDir: string;
  let browser: Browser | undefined;
  let listening: Awaited<ReturnType<typeof listenExampleApp>> | undefined;

  beforeAll(async () => {
    writeFileSync(policyFile, readFileSync(join(REPOSITORY, 'generated', 'policy.json')));
    pageDir = await buildPageDir();
    listening = await listenExampleApp({
      pageDir,
      policySource: filePolicySource(policyFile, { pollIntervalMs: 50 }),
      tenantRoles: fileTenantRoles(tenantRolesFolder, { pollIntervalMs: 50 }),
    });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await listening?.app.close();
    await removePageDir(pageDir);
    rmSync(folder, { recursive: true, force: true });
  });

  it('shows itself again with the new slice when the policy changes, without a click', async () => {
    const page = await (browser as Browser).newPage();
    await page.goto(`${listening?.origin ?? ''}/`);
    await page.waitForSelector('body[data-ready="true"][data-user="1"]');
    const headers = () => page.locator('#documents thead th').allTextContents();
    expect(await headers()).toEqual(['id', 'title', 'date', 'status', 'personal', 'creatorId', 'actions']);
    expect(await page.evaluate(() => fetch('/me/permissions', { headers: { 'x-user-id': '1' } }).then((r) => r.json()))).toMatchObject({
      version: policyVersion,
    });

    // EMPLOYEE lists own documents with every attribute, confidential included.
    writeFileSync(`${policyFile}.next`, compileChangedExample(folder, '"list": ["*", "!confidential"],', '"list": ["*"],').text);
    renameSync(`${policyFile}.next`, policyFile);
    await page.waitForSelector('#documents thead th:text-is("confidential")', { timeout: 20_000 });
    expect(await headers()).toEqual(['id', 'title', 'date', 'status', 'personal', 'confidential', 'creatorId', 'actions']);
    expect(await page.locator('tr[data-document-id="10"] td[data-field="confidential"]').textContent()).toBe('Confidential figures of document 10');
    // For a person to look at when this fails; never one of the committed screenshots.
    await page.screenshot({ path: join(TEMPORARY_SCREENSHOTS, 'page-after-policy-change.png'), fullPage: true });
    await page.close();
  }, 180_000);

  it("shows itself again when the custom roles of the caller's company change, which leave the policy's version as it was", async () => {
    const admin = fileTenantRolesAdmin(tenantRolesFolder, { policy: JSON.parse(readFileSync(join(REPOSITORY, 'generated', 'policy.json'), 'utf8')) as never });
    const qaManager = JSON.parse(readFileSync(join(REPOSITORY, 'examples', 'documents', 'custom-roles', 'qa-manager.json'), 'utf8')) as {
      definitions: [{ grant: Record<string, string[]> }];
    };
    await admin.publish('1', qaManager);
    const page = await (browser as Browser).newPage();
    await page.goto(`${listening?.origin ?? ''}/`);
    await page.waitForSelector('body[data-ready="true"][data-user="1"]');
    await page.selectOption('#user', '3');
    await page.waitForSelector('body[data-ready="true"][data-user="3"]');
    const review = page.locator('tr[data-document-id="1"] button[data-action="review"]');
    expect(await review.isEnabled()).toBe(true);
    const version = () => page.evaluate(() => fetch('/me/permissions', { headers: { 'x-user-id': '3' } }).then((r) => r.headers.get('x-permissions-version')));
    const before = await version();

    // Company 1's QA managers read, and no longer review.
    const grant = Object.fromEntries(Object.entries(qaManager.definitions[0].grant).filter(([action]) => action !== 'review'));
    await admin.publish('1', { definitions: [{ ...qaManager.definitions[0], grant }] });
    await page.waitForSelector('tr[data-document-id="1"] button[data-action="review"]:disabled', { timeout: 20_000 });
    expect(await page.locator('tr[data-document-id="1"] button[data-action="read"]').isEnabled()).toBe(true);
    expect(await version()).toBe(before);
    await admin.close();
    await page.close();
  }, 180_000);
});
