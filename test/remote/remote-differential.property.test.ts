/**
 * Remote permissions ≡ the embedded engine, on the example. The embedded engine is the example's compiled one
 * (`createPermissions` with the example's ownership rules over the seeded PGlite database, documentOwnershipRules);
 * the remote one asks a decision service that follows the example's compiled policy.json over loopback HTTP and
 * runs the same rules over the same database locally. For the example's users, mixes of their roles and roles
 * nobody defines with any company and managed users, every action, and documents that exist or not, with and
 * without an id, every answer of the Permit is the same:
 * granted, anyGranted, ownGranted, anyAttributes, pick, filterPick, listOwn / limitOwn, owningGroups — or the
 * same error. In tenants, where custom roles of the same name grant something else in each (read from one source
 * by both), every answer is the same too.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import type { Permit } from '../../runtime/permissions/index.js';
import type { AppUser } from '../../examples/documents/app-user.js';
import { closeDatabase } from '../../examples/documents/database.js';
import { seededTestDatabase } from '../example/test-databases.js';
import type { DocumentFilter } from '../../examples/documents/document-filter.js';
import { documentOwnershipRules } from '../../examples/documents/document-ownership-rules.js';
import { DocumentsRepository } from '../../examples/documents/documents.repository.js';
import { exampleAnonymousUser, exampleDocuments, exampleUsers, type ExampleDocument } from '../../examples/documents/example-data.js';
import type { ExampleDatabase } from '../../examples/documents/example-database.js';
import { createPermissions, type Schema } from '../../generated/index.js';
import type { PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { createRemotePermissions, type RemotePermissions } from '../../runtime/remote/index.js';
import { createDecisionService, type DecisionService } from '../../runtime/service/index.js';
import { recordingLogger, TOKEN } from '../service/service-fixture.js';
import { memoryTenantRoles } from '../tenants/tenant-fixture.js';

const NUM_RUNS = 150;
const ACTIONS = ['read', 'list', 'review', 'delete', 'update', 'create'] as const;
/** Defined roles, roles nobody defines, and names no role can have (empty, longer than 128 characters), which the service refuses to read. */
const ROLES = ['EMPLOYEE', 'EMPLOYEE_MANAGER', 'COMPANY_ADMIN', 'SUPER_ADMIN', 'QA_MANAGER', 'GOD', 'ANONYMOUS', '', 'R'.repeat(129)] as const;
const MISSING_IDS = [0, 9, 11, 1000] as const;
/** REVIEWER reviews its company's documents without confidential data in acme, lists and reads every title in globex; initech has no custom roles. */
const CUSTOM_ROLES = {
  acme: {
    definitions: [
      {
        roles: ['REVIEWER'],
        resource: 'document',
        possession: 'own',
        grant: { read: ['*', '!confidential'], review: ['*', '!confidential'] },
        owner: 'sameCompany',
      },
    ],
  },
  globex: { definitions: [{ roles: ['REVIEWER'], resource: 'document', grant: { 'read:any': ['id', 'title'], 'list:any': ['id', 'title'] } }] },
};
const TENANTS = ['acme', 'globex', 'initech'] as const;
const bundle = JSON.parse(readFileSync(new URL('../../generated/policy.json', import.meta.url), 'utf8')) as PolicyBundle;

let db: Kysely<ExampleDatabase>;
let embedded: ReturnType<typeof createPermissions<AppUser, DocumentFilter>>;
let remote: RemotePermissions<Schema, AppUser, DocumentFilter>;
let service: DecisionService;

beforeAll(async () => {
  db = await seededTestDatabase();
  const ownershipRules = documentOwnershipRules(db);
  embedded = createPermissions<AppUser, DocumentFilter>({ ownershipRules, logger: { warn: () => undefined } });
  await embedded.followTenantRoles(memoryTenantRoles(CUSTOM_ROLES).source);
  service = await createDecisionService({
    tables: bundle,
    tenantRoles: memoryTenantRoles(CUSTOM_ROLES).source,
    tokens: [TOKEN],
    port: 0,
    logger: recordingLogger(),
  });
  const url = await service.listen();
  remote = await createRemotePermissions<Schema, AppUser, DocumentFilter>({
    url,
    token: TOKEN,
    // The example's policy names only rules: no ownership service is given.
    ownershipRules,
    logger: { warn: () => undefined },
  });
}, 60_000);

afterAll(async () => {
  remote?.close();
  await service?.close();
  await closeDatabase(db);
});

function documentOf(id: number): ExampleDocument {
  return (
    exampleDocuments.find((document) => document.id === id) ?? {
      id,
      title: `Document Title ${id}`,
      date: '2024-01-01',
      status: 'draft',
      personal: `Personal note on document ${id}`,
      confidential: `Confidential figures of document ${id}`,
      creatorId: 1,
    }
  );
}

/** A promise's value, or its error's class and message: two sides that fail must fail alike. */
async function outcome<T>(promise: () => Promise<T> | T): Promise<unknown> {
  try {
    return { value: await promise() };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

/** Everything a permit answers, for the documents that exist and `extra`. */
async function answersOf(permit: Permit<AppUser, number, DocumentFilter>, extra: number | undefined) {
  const documents = [...exampleDocuments, ...(extra === undefined ? [] : [documentOf(extra)])];
  return {
    granted: permit.granted,
    anyGranted: permit.anyGranted,
    ownGranted: permit.ownGranted,
    anyAttributes: permit.anyAttributes,
    pick: await outcome(() => (extra === undefined ? undefined : permit.pick(documentOf(extra)))),
    filterPick: await outcome(() => permit.filterPick(documents)),
    listOwn: await outcome(() => permit.listOwn()),
    // A filter is a function: compared by the documents it selects.
    limitOwn: await outcome(async () => (await new DocumentsRepository(db).findWhere(permit.limitOwn())).map((document) => document.id)),
    owningGroups: await outcome(() => permit.owningGroups(documents.map((document) => document.id))),
  };
}

const userArb = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<AppUser>(...(exampleUsers as readonly AppUser[]), exampleAnonymousUser as AppUser) },
  {
    weight: 1,
    arbitrary: fc.record({
      id: fc.integer({ min: 0, max: 9 }),
      roles: fc.uniqueArray(fc.constantFrom<string>(...ROLES), { maxLength: 3 }),
      // The attributes the rules read: any company (or none) and any users managed, existing or not.
      companyId: fc.option(fc.constantFrom(1, 2, 3), { nil: null }),
      managedUserIds: fc.uniqueArray(fc.integer({ min: 0, max: 9 }), { maxLength: 3 }),
    }),
  },
);

describe('remote permissions ≡ the embedded engine, on the example', () => {
  it('every example user, action and document, with and without an id', async () => {
    const ids = [undefined, ...exampleDocuments.map((document) => document.id), ...MISSING_IDS];
    for (const user of [...(exampleUsers as readonly AppUser[]), exampleAnonymousUser as AppUser]) {
      for (const action of ACTIONS) {
        for (const resourceId of ids) {
          const query = { user, resource: 'document', action, resourceId } as const;
          const [mine, theirs] = await Promise.all([embedded.grantPermit(query), remote.grantPermit(query)]);
          expect([user.id, action, resourceId, await answersOf(theirs, resourceId)]).toEqual([user.id, action, resourceId, await answersOf(mine, resourceId)]);
          expect(theirs.policyVersion).toBe(mine.policyVersion);
        }
      }
    }
  }, 120_000);

  it('any mix of roles, defined or not', async () => {
    await fc.assert(
      fc.asyncProperty(
        userArb,
        fc.constantFrom(...ACTIONS),
        fc.option(fc.constantFrom(...exampleDocuments.map((document) => document.id), ...MISSING_IDS), { nil: undefined }),
        async (user, action, resourceId) => {
          const query = { user, resource: 'document', action, resourceId } as const;
          const [mine, theirs] = await Promise.all([embedded.grantPermit(query), remote.grantPermit(query)]);
          expect(await answersOf(theirs, resourceId)).toEqual(await answersOf(mine, resourceId));
        },
      ),
      { numRuns: NUM_RUNS },
    );
  }, 120_000);

  it('the decision log resource: the super admin lists, others do not', async () => {
    for (const user of exampleUsers as readonly AppUser[]) {
      const [mine, theirs] = await Promise.all([
        embedded.grantPermit({ user, resource: 'decision', action: 'list' }),
        remote.grantPermit({ user, resource: 'decision', action: 'list' }),
      ]);
      expect([user.id, theirs.granted, theirs.anyAttributes]).toEqual([user.id, mine.granted, mine.anyAttributes]);
    }
  });

  it('in tenants: every example user, also holding the custom role, every action, a document of each creator and a missing one', async () => {
    // Documents of each company (the custom role's rule compares companies) and one that does not exist: the whole
    // set of documents is the test above's, without tenants.
    const ids = [undefined, ...new Set(exampleUsers.map((user) => exampleDocuments.find((document) => document.creatorId === user.id)?.id)), MISSING_IDS[0]];
    for (const tenant of TENANTS) {
      for (const example of [...(exampleUsers as readonly AppUser[]), exampleAnonymousUser as AppUser]) {
        const user = { ...example, roles: [...example.roles, 'REVIEWER'] };
        for (const action of ACTIONS) {
          for (const resourceId of ids) {
            const query = { user, resource: 'document', action, resourceId, tenant } as const;
            const [mine, theirs] = await Promise.all([embedded.grantPermit(query), remote.grantPermit(query)]);
            expect([tenant, user.id, action, resourceId, await answersOf(theirs, resourceId)]).toEqual([
              tenant,
              user.id,
              action,
              resourceId,
              await answersOf(mine, resourceId),
            ]);
          }
        }
      }
    }
  }, 120_000);

  it('in tenants: any mix of roles, custom or not', async () => {
    await fc.assert(
      fc.asyncProperty(
        userArb,
        fc.boolean(),
        fc.constantFrom(...TENANTS),
        fc.constantFrom(...ACTIONS),
        fc.option(fc.constantFrom(...exampleDocuments.map((document) => document.id), ...MISSING_IDS), { nil: undefined }),
        async (someone, reviewer, tenant, action, resourceId) => {
          const user = reviewer ? { ...someone, roles: [...someone.roles, 'REVIEWER'] } : someone;
          const query = { user, resource: 'document', action, resourceId, tenant } as const;
          const [mine, theirs] = await Promise.all([embedded.grantPermit(query), remote.grantPermit(query)]);
          expect(await answersOf(theirs, resourceId)).toEqual(await answersOf(mine, resourceId));
        },
      ),
      { numRuns: NUM_RUNS },
    );
  }, 120_000);

  it('the same bad tenant ids are refused the same way', async () => {
    const user = exampleUsers[0] as AppUser;
    for (const tenant of ['', 't'.repeat(257), 'a\u0000b', 7] as unknown as string[]) {
      const query = { user, resource: 'document', action: 'read', tenant } as const;
      expect(await outcome(() => remote.grantPermit(query))).toEqual(await outcome(() => embedded.grantPermit(query)));
    }
  });

  it('the same malformed ids are refused the same way', async () => {
    const user = exampleUsers[0] as AppUser;
    for (const resourceId of ['1e1', '01', -0.5, 'abc', Number.NaN] as unknown as number[]) {
      const query = { user, resource: 'document', action: 'read', resourceId } as const;
      expect(await outcome(() => remote.grantPermit(query))).toEqual(await outcome(() => embedded.grantPermit(query)));
    }
  });
});
