/**
 * The example app in tenants: every company is a tenant, and a custom role one company defines for itself takes
 * effect in that company only, with one command and no restart. The app follows a folder store of tenants' custom
 * roles; QA_MANAGER, a role the compiled policy does not know, is held by user 3 (company 1) and user 9 (company 2).
 * Before the publish both are refused; after `typed-permissions tenant publish 1 …` user 3 reads and reviews company
 * 1's documents (without the confidential figures), while user 9 asking the same of company 2 stays refused.
 */
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import request from 'supertest';
import type { Schema } from '../../generated/index.js';
import { createClient } from '../../runtime/client/index.js';
import { fileTenantRoles } from '../../runtime/live/index.js';
import type { PermissionSlice } from '../../runtime/permissions/index.js';
import { makeTempDir, removeTempDir } from '../compiler/helpers.js';
import { bundleForNode } from '../compiler/node-bundle.js';
import type { TestApp } from '../nest/fixtures/documents.fixture.js';
import { startExampleApp } from './example-app.fixture.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ROLES_FILE = 'examples/documents/custom-roles/qa-manager.json';

/** Document 1 as a QA manager of company 1 may read it: every attribute but the confidential figures. */
const DOCUMENT_1_FOR_QA = {
  id: 1,
  title: 'Document Title 1',
  date: '2024-01-01',
  status: 'draft',
  personal: 'Personal note of user 1 on document 1',
  creatorId: 1,
};

describe('the example app in tenants: a custom role of one company, published while it runs', () => {
  let folder: string;
  let store: string;
  let compilerCli: string;
  let app: TestApp | undefined;
  const warnings: string[] = [];

  beforeAll(async () => {
    // QA_MANAGER and GOD are unknown to the compiled policy: the library warns once each; keep them for the assertions.
    jest.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args.map(String).join(' ')));
    folder = makeTempDir('example-tenants');
    store = join(folder, 'tenant-roles');
    compilerCli = await bundleForNode('compiler/bin.ts', join(folder, 'compiler-cli.mjs'));
    app = await startExampleApp({ tenantRoles: fileTenantRoles(store, { pollIntervalMs: 50 }) });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    if (folder !== undefined) removeTempDir(folder);
    jest.restoreAllMocks();
  });

  const get = (path: string, userId: string) =>
    request((app as TestApp).getHttpServer())
      .get(path)
      .set('x-user-id', userId);

  /** The installed CLI, as a user runs it: `npx typed-permissions tenant publish …` (here: the compiler's entry). */
  async function publish(...args: string[]): Promise<{ status: number | null; output: string }> {
    const child = spawn(process.execPath, [compilerCli, 'tenant', 'publish', ...args], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: '' },
      timeout: 60_000,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const status = await new Promise<number | null>((resolve) => child.once('close', resolve));
    return { status, output };
  }

  /** Asks until the answer has `status`, every 50 ms for at most 10 s; answers the last response. */
  async function until(status: number, ask: () => request.Test): Promise<request.Response> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const response = await ask();
      if (response.status === status || Date.now() > deadline) return response;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('refuses QA managers before the publish, grants user 3 in company 1 after it, and keeps refusing user 9 in company 2', async () => {
    // Before: QA_MANAGER is no role of the compiled policy, and no company defines it yet.
    expect((await get('/documents-protected-simple/1', '3')).status).toBe(403);
    expect((await get('/documents-protected-simple/4', '9')).status).toBe(403);
    const before = await get('/me/permissions', '3');
    expect(before.headers['x-permissions-tenant']).toBe('1');
    expect((before.body as PermissionSlice).grants).toEqual([]);

    const published = await publish('1', ROLES_FILE, '--store', store, '--policy', 'generated/policy.json');
    expect(published).toEqual({
      status: 0,
      output: `typed-permissions: published the custom roles of tenant "1" from ${ROLES_FILE} as #1 to folder ${store}.\n`,
    });

    // After: the app sees the store change within its poll; no restart.
    const read = await until(200, () => get('/documents-protected-simple/1', '3'));
    expect({ status: read.status, body: read.body as unknown }).toEqual({ status: 200, body: DOCUMENT_1_FOR_QA });
    const reviewed = await request((app as TestApp).getHttpServer())
      .post('/documents-protected-simple/3/review')
      .set('x-user-id', '3');
    expect(reviewed.status).toBe(200);
    expect(reviewed.body).toEqual({
      id: 3,
      title: 'Document Title 3',
      date: '2024-01-03',
      status: 'approved',
      personal: 'Personal note of user 3 on document 3',
      creatorId: 3,
    });
    // Company 1's documents only: document 4 was created by user 4 of company 2.
    expect((await get('/documents-protected-simple/4', '3')).status).toBe(403);
    // The same role name in company 2 grants nothing: company 2 defines no QA_MANAGER.
    expect((await get('/documents-protected-simple/4', '9')).status).toBe(403);
    expect((await get('/documents-protected-simple/1', '9')).status).toBe(403);
    // Another role of company 1 is unchanged: EMPLOYEE 1 still reads only their own documents.
    expect((await get('/documents-protected-simple/2', '1')).status).toBe(403);

    const after = await get('/me/permissions', '3');
    expect(after.headers['x-permissions-tenant']).toBe('1');
    expect(after.headers['etag']).not.toBe(before.headers['etag']);
    // The slice of user 3 now says what the page enables: read and review of the company's documents, no list.
    const client = createClient<Schema>(after.body as PermissionSlice);
    const can = (action: 'read' | 'review' | 'list' | 'update') => [client.canOwn(action, 'document'), client.canAny(action, 'document')];
    expect([can('read'), can('review'), can('list'), can('update')]).toEqual([
      [true, false],
      [true, false],
      [false, false],
      [false, false],
    ]);
    const other = await get('/me/permissions', '9');
    expect({ tenant: other.headers['x-permissions-tenant'], grants: (other.body as PermissionSlice).grants }).toEqual({ tenant: '2', grants: [] });
    // A user of no company asks in no tenant.
    expect((await get('/me/permissions', '8')).headers['x-permissions-tenant']).toBeUndefined();
    // The published roles fit the policy: nothing was warned about them.
    expect(warnings.filter((warning) => warning.includes('custom roles'))).toEqual([]);
  }, 60_000);
});
