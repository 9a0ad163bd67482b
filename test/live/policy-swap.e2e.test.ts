/**
 * A swap never mixes two policies in one answer: 1,200 concurrent requests to an express app, through
 * `permit({ action })` and an ownership hook that takes a moment, while the followed policy changes ten times.
 * Every version grants other attributes, so a decision of one version with the attributes of another would show;
 * every answer must equal exactly the answer of the version its `x-permissions-version` header names.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import { Permissions, type PermissionDefinition, type User } from '../../runtime/permissions/index.js';
import type { PolicySource, SourcedPolicy } from '../../runtime/live/policy-source.js';
import { policyBundleOf, type PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { createPermitMiddleware, permissionsErrorHandler, permitOf } from '../../runtime/express/index.js';

type AppUser = User<number>;
const DOCUMENT = { id: 7, title: 'T', date: 'D', ...Object.fromEntries(Array.from({ length: 11 }, (_, k) => [`f${k}`, `value ${k}`])) };
const VERSIONS = 11;

/** The ownership service: user 1 owns document 7, answered after a pause so that requests overlap swaps. */
const ownership = {
  isCreator: ({ user, resourceId }: { user: AppUser; resourceId: unknown }) =>
    new Promise<boolean>((resolve) => setTimeout(() => resolve(user.id === 1 && resourceId === 7), Math.random() * 3)),
  listCreated: () => [7],
};

/** Version k: own read of `id` and `f<k>`; any read of `title` in even versions only. */
function definitionsOf(k: number): PermissionDefinition[] {
  return [
    { roles: ['EMPLOYEE'], resource: 'document', possession: 'own', grant: { read: ['id', `f${k}`] }, isOwner: 'isCreator', listOwned: 'listCreated' },
    ...(k % 2 === 0 ? [{ roles: ['EMPLOYEE'], resource: 'document', grant: { 'read:any': ['title'] } } satisfies PermissionDefinition] : []),
  ];
}

function bundleOf(k: number): PolicyBundle {
  const permissions = new Permissions({ ownership, resourceIdTypes: { document: 'number' }, logger: { warn: () => undefined } });
  return policyBundleOf(permissions.addPermissions(definitionsOf(k)).build().tables);
}

const bundles = Array.from({ length: VERSIONS }, (_, k) => bundleOf(k));
/** What each version answers user 1 for document 7, by version. */
const expected = new Map(bundles.map((bundle, k) => [bundle.version, { id: 7, [`f${k}`]: `value ${k}`, ...(k % 2 === 0 ? { title: 'T' } : {}) }]));

/** An answer as comparable text: its fields sorted (pick keeps the plan's order; fetch's objects come from another realm). */
const sorted = (body: unknown): string => JSON.stringify(Object.entries(body as object).sort(([a], [b]) => (a < b ? -1 : 1)));

describe('swapping the policy under load', () => {
  let server: Server;
  let base: string;
  let publish: (next: SourcedPolicy) => void = () => undefined;
  const permissions = Permissions.fromTables<AppUser>(bundles[0] as PolicyBundle, { ownership, logger: { warn: () => undefined } });

  beforeAll(async () => {
    let current: SourcedPolicy = { bundle: bundles[0], sequence: 0 };
    const source: PolicySource = {
      description: 'test',
      read: () => Promise.resolve(current),
      watch: (changed) => {
        publish = (next) => {
          current = next;
          changed();
        };
        return () => Promise.resolve();
      },
    };
    await permissions.follow(source);
    const permit = createPermitMiddleware({ permissions, resource: 'document', getUser: (): AppUser => ({ id: 1, roles: ['EMPLOYEE'] }) });
    const app = express();
    app.get('/documents/:id', permit({ action: 'read' }), (req, res, next) => {
      permitOf<AppUser, number>(req)
        .pick(DOCUMENT)
        .then((picked) => res.json(picked), next);
    });
    app.use(permissionsErrorHandler());
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('1,200 concurrent requests across 10 swaps: every answer is exactly the answer of the version it names', async () => {
    const answers: { version: string | null; body: unknown }[] = [];
    let swaps = 0;
    const swapper = setInterval(() => {
      if (swaps >= VERSIONS - 1) return;
      swaps++;
      publish({ bundle: bundles[swaps], sequence: swaps });
    }, 15);
    try {
      // 12 waves of 100 requests in flight at once, each wave started before the previous answers are all in.
      const waves = Array.from({ length: 12 }, async (_, wave) => {
        await new Promise((resolve) => setTimeout(resolve, wave * 12));
        await Promise.all(
          Array.from({ length: 100 }, async () => {
            const response = await fetch(`${base}/documents/7`);
            answers.push({ version: response.headers.get('x-permissions-version'), body: await response.json() });
          }),
        );
      });
      await Promise.all(waves);
    } finally {
      clearInterval(swapper);
    }
    expect(swaps).toBe(VERSIONS - 1);
    expect(answers).toHaveLength(1_200);
    const mixed = answers.filter(({ version, body }) => version === null || sorted(body) !== sorted(expected.get(version)));
    expect(mixed).toEqual([]);
    // The answers really span the swaps.
    expect(new Set(answers.map(({ version }) => version)).size).toBeGreaterThanOrEqual(3);
  }, 60_000);
});
