/**
 * The decision service answers exactly as the embedded engine does. One engine is the example's, embedded: its
 * compiled definitions with its ownership rules over the seeded example database (PGlite, documentOwnershipRules).
 * The service runs the same policy (its bundle) and never sees the database. For the example's users (and mixes of
 * their roles and roles nobody defines, with any company and managed users), every action and documents that
 * exist or not, with and without an id:
 *
 * - with `ownedBy` filled from the example's ownership (`permit.owningGroups([id])`, as the example's page does),
 *   the service's granted, anyGranted, ownGranted and anyAttributes are the embedded permit's, and its attributes
 *   pick from the document exactly what `permit.pick` keeps;
 * - with the document as `record`, its creator as `related` and the user's `attributes` (the service evaluates the
 *   rules itself), the same, final answers — for a document the database does not have, `ownedBy: []` says so;
 * - without either, whatever the service says is final (needsOwnership false) is the embedded answer, and where
 *   it says ownership decides, the embedded answer does depend on it: the action is granted as own, not as any.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import type { PrecompiledPermissions } from '../../runtime/permissions/precompiled-permissions.js';
import { compileAttributePatterns } from '../../runtime/core/projection/attribute-plan.js';
import { pickWithPlan } from '../../runtime/core/projection/attribute-picker.js';
import { policyBundleOf } from '../../runtime/live/policy-bundle.js';
import type { AppUser } from '../../examples/documents/app-user.js';
import { closeDatabase } from '../../examples/documents/database.js';
import { seededTestDatabase } from '../example/test-databases.js';
import type { DocumentFilter } from '../../examples/documents/document-filter.js';
import { documentOwnershipRules } from '../../examples/documents/document-ownership-rules.js';
import { exampleAnonymousUser, exampleDocuments, exampleUsers, type ExampleDocument } from '../../examples/documents/example-data.js';
import type { ExampleDatabase } from '../../examples/documents/example-database.js';
import { createPermissions } from '../../generated/index.js';
import { createDecisionService, type CheckAnswer, type DecisionService } from '../../runtime/service/index.js';
import { ask, recordingLogger, TOKEN } from './service-fixture.js';

/** Each run asks the database a few times per check; this keeps the file near 10 s on PGlite. */
const NUM_RUNS = 400;
const ACTIONS = ['read', 'list', 'review', 'delete', 'update', 'create'] as const;
const ROLES = ['EMPLOYEE', 'EMPLOYEE_MANAGER', 'COMPANY_ADMIN', 'SUPER_ADMIN', 'QA_MANAGER', 'GOD', 'ANONYMOUS'] as const;
/** Ids no seeded document has (0 included: an id, not "no id"). */
const MISSING_IDS = [0, 9, 11, 1000] as const;

let db: Kysely<ExampleDatabase> | undefined;
let embedded: PrecompiledPermissions<AppUser, DocumentFilter>;
let service: DecisionService;

beforeAll(async () => {
  db = await seededTestDatabase();
  embedded = createPermissions<AppUser, DocumentFilter>({ ownershipRules: documentOwnershipRules(db), logger: { warn: () => undefined } }).permissions;
  service = await createDecisionService({ tables: policyBundleOf(embedded.tables), tokens: [TOKEN], port: 0, logger: recordingLogger() });
  // Seeding PGlite takes most of it; on a loaded 2-core machine beside other suites it has taken over 60 s.
}, 120_000);

afterAll(async () => {
  await service?.close();
  if (db !== undefined) await closeDatabase(db);
});

/** The document of `id`, or one that does not exist (created by `creatorId`, which owns nothing of it in the database). */
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
const checkArb = fc.record({
  user: userArb,
  action: fc.constantFrom<string>(...ACTIONS),
  resourceId: fc.option(fc.constantFrom<number>(...exampleDocuments.map((document) => document.id), ...MISSING_IDS), { nil: undefined, freq: 4 }),
});

const picked = (answer: CheckAnswer, document: ExampleDocument) => pickWithPlan(compileAttributePatterns(answer.attributes), document, false);

/**
 * What a check carries for the service to evaluate the rules itself: the user's attributes, and the document with
 * its creator (as the example's database has them). A document the database does not have is owned by no group.
 */
function withRecord(check: { readonly user: AppUser; readonly resourceId?: number | undefined }): object {
  const { id, roles, companyId, managedUserIds } = check.user;
  const user = { id, roles, attributes: { companyId, managedUserIds } };
  const document = exampleDocuments.find((candidate) => candidate.id === check.resourceId);
  if (check.resourceId === undefined) return { user };
  if (document === undefined) return { user, ownedBy: [] };
  const creator = exampleUsers.find((candidate) => candidate.id === document.creatorId);
  return { user, record: { ...document }, related: { user: creator === undefined ? [] : [{ id: creator.id, companyId: creator.companyId }] } };
}

describe('the decision service ≡ the embedded engine, on the example', () => {
  it('for the example users, actions and documents, with ownedBy from the example’s ownership, with the records, and without', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(checkArb, { minLength: 1, maxLength: 5 }), async (cases) => {
        const expected = await Promise.all(
          cases.map(async ({ user, action, resourceId }) => {
            const permit = await embedded.grantPermit({ user, resource: 'document', action, resourceId });
            if (resourceId === undefined) return { permit, ownedBy: undefined, pick: undefined };
            const [ownedBy] = await (await embedded.grantPermit({ user, resource: 'document', action })).owningGroups([resourceId]);
            return { permit, ownedBy: ownedBy as number[], pick: await permit.pick(documentOf(resourceId)) };
          }),
        );
        // The service's user is its id and roles; the attributes the rules read travel only with a record (withRecord).
        const checks = cases.map(({ user, action, resourceId }) => ({
          user: { id: user.id, roles: user.roles },
          resource: 'document',
          action,
          ...(resourceId === undefined ? {} : { resourceId }),
        }));
        const [withOwners, withRecords, without] = await Promise.all([
          ask(service, {
            method: 'POST',
            url: '/v1/check',
            payload: { checks: checks.map((check, i) => ({ ...check, ...(expected[i]?.ownedBy === undefined ? {} : { ownedBy: expected[i]?.ownedBy }) })) },
          }),
          ask(service, { method: 'POST', url: '/v1/check', payload: { checks: cases.map((check, i) => ({ ...checks[i], ...withRecord(check) })) } }),
          ask(service, { method: 'POST', url: '/v1/check', payload: { checks } }),
        ]);
        expect([withOwners.status, withRecords.status, without.status]).toEqual([200, 200, 200]);
        cases.forEach(({ resourceId }, i) => {
          const { permit, pick } = expected[i] as (typeof expected)[number];
          const answer = withOwners.body.answers[i] as CheckAnswer;
          const embeddedAnswer = {
            granted: permit.granted,
            anyGranted: permit.anyGranted,
            ownGranted: permit.ownGranted,
            anyAttributes: [...permit.anyAttributes],
          };
          expect({ granted: answer.granted, anyGranted: answer.anyGranted, ownGranted: answer.ownGranted, anyAttributes: answer.anyAttributes }).toEqual(
            embeddedAnswer,
          );
          expect(answer.needsOwnership).toBe(false);
          expect(answer.policyVersion).toBe(embedded.policyVersion);
          if (resourceId !== undefined) expect(picked(answer, documentOf(resourceId))).toEqual(pick);

          const evaluated = withRecords.body.answers[i] as CheckAnswer;
          expect(evaluated).toEqual(answer);
          if (resourceId !== undefined) expect(picked(evaluated, documentOf(resourceId))).toEqual(pick);

          const unowned = without.body.answers[i] as CheckAnswer;
          expect([unowned.anyGranted, unowned.anyAttributes, unowned.ownership]).toEqual([answer.anyGranted, answer.anyAttributes, answer.ownership]);
          if (!unowned.needsOwnership) {
            expect([unowned.granted, unowned.ownGranted]).toEqual([permit.granted, permit.ownGranted]);
            if (resourceId !== undefined) expect(picked(unowned, documentOf(resourceId))).toEqual(pick);
          } else {
            // Ownership decides: the record is granted as any (only its attributes wait) or as own (its decision waits).
            expect(resourceId).not.toBeUndefined();
            expect(unowned.ownership.length).toBeGreaterThan(0);
            if (!unowned.anyGranted) expect(unowned.granted).toBe(false);
          }
        });
      }),
      { numRuns: NUM_RUNS },
    );
  }, 120_000);

  it('names, for each ownership group, the very rule of the example’s definitions', async () => {
    const answer = await ask(service, {
      method: 'POST',
      url: '/v1/check',
      payload: {
        checks: [{ user: { id: 7, roles: ['EMPLOYEE', 'EMPLOYEE_MANAGER', 'COMPANY_ADMIN'] }, resource: 'document', action: 'read', resourceId: 10 }],
      },
    });
    expect(answer.body.answers[0]?.ownership).toEqual([
      { group: 0, rule: 'creator', attributes: ['*', '!confidential'] },
      { group: 1, rule: 'creatorOrManaged', attributes: ['*', '!confidential', '!personal'] },
      { group: 2, rule: 'sameCompany', attributes: ['*'] },
    ]);
  });
});
