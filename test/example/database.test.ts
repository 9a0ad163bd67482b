/**
 * The example app's data layer against a real (embedded) PostgreSQL: the schema and seed, the
 * repositories, the example's ownership rules and the hand-written ownership methods they replaced
 * (test/fixtures/example-hooks), each compared, for every user and every document, with a plain
 * in-memory reading of example-data.ts. One PGlite for the whole file (it takes a second or
 * two to start). With TEST_DATABASE_URL set (.ci/run starts a throwaway server on loopback), the
 * same tests also run against that PostgreSQL server — the app's DATABASE_URL path. They truncate and
 * re-seed its example tables: point it at a throwaway database.
 */
import { readFileSync } from 'node:fs';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Permissions,
  type IsOwnerHook,
  type LimitOwnedHook,
  type LimitOwnReducer,
  type ListOwnedHook,
  type PermissionDefinition,
} from '../../runtime/permissions/index.js';
import type { AppUser } from '../../examples/documents/app-user.js';
import { closeDatabase, createDatabase, migrate, seed } from '../../examples/documents/database.js';
import type { DocumentFilter } from '../../examples/documents/document-filter.js';
import { documentOwnershipRules } from '../../examples/documents/document-ownership-rules.js';
import { DocumentsRepository } from '../../examples/documents/documents.repository.js';
import { exampleAnonymousUser, exampleCompanies, exampleDocuments, exampleManagers, exampleUsers } from '../../examples/documents/example-data.js';
import type { ExampleDatabase } from '../../examples/documents/example-database.js';
import { UsersRepository } from '../../examples/documents/users.repository.js';
import { createPermissions } from '../../generated/index.js';
import { DocumentOwnershipService, type ExampleHookUser } from '../fixtures/example-hooks/document-ownership.service.js';
import { limitOwnReduce } from '../fixtures/example-hooks/limit-own-reduce.js';

// Type-level: the hand-written service fits the ownership-service shape, hook by hook, and
// limitOwnReduce fits the core's reducer type. Checked by `tsc --noEmit`.
type ExpectedOwnershipService = {
  isCreator: IsOwnerHook<ExampleHookUser, number>;
  isCreatorOrManagerOfCreator: IsOwnerHook<ExampleHookUser, number>;
  isCreatedInSameCompany: IsOwnerHook<ExampleHookUser, number>;
  listCreatedInSameCompany: ListOwnedHook<ExampleHookUser, number>;
  limitToCreator: LimitOwnedHook<ExampleHookUser, DocumentFilter>;
  limitToCreatorOrManagedCreators: LimitOwnedHook<ExampleHookUser, DocumentFilter>;
};
const serviceFitsContract = (service: DocumentOwnershipService): ExpectedOwnershipService => service;
const reducerFitsCore: LimitOwnReducer<ExampleHookUser, DocumentFilter> = limitOwnReduce;
void serviceFitsContract;
void reducerFitsCore;

// ---- the reference: example-data.ts read naively ----------------------------------------------
const creatorOf = new Map(exampleDocuments.map((document) => [document.id, document.creatorId]));
const manages = (managerId: number, managedId: number): boolean => exampleManagers.some((m) => m.managerId === managerId && m.managedId === managedId);
const companyOf = (userId: number): number | undefined => exampleCompanies.find((c) => c.userId === userId)?.companyId;
const shareACompany = (a: number, b: number): boolean => companyOf(a) !== undefined && companyOf(a) === companyOf(b);

const reference = {
  isCreator: (userId: number, documentId: number) => creatorOf.get(documentId) === userId,
  isCreatorOrManagerOfCreator: (userId: number, documentId: number) => {
    const creator = creatorOf.get(documentId);
    return creator !== undefined && (creator === userId || manages(userId, creator));
  },
  isCreatedInSameCompany: (userId: number, documentId: number) => {
    const creator = creatorOf.get(documentId);
    return creator !== undefined && shareACompany(userId, creator);
  },
};
type IsMethod = keyof typeof reference;
const isMethods = Object.keys(reference) as IsMethod[];

const byId = (a: number, b: number): number => a - b;
const documentIds = exampleDocuments.map((document) => document.id).sort(byId);
/** Documents of the given creators, ascending. */
const documentsOf = (...creators: number[]): number[] =>
  exampleDocuments
    .filter((d) => creators.includes(d.creatorId))
    .map((d) => d.id)
    .sort(byId);
const owned = (method: IsMethod, userId: number): number[] => documentIds.filter((id) => reference[method](userId, id));

/** Every user of the data, the anonymous placeholder, and an id nobody has. */
const users: AppUser[] = [...exampleUsers, exampleAnonymousUser, { id: 99, roles: ['EMPLOYEE'], companyId: null, managedUserIds: [] }];
/** The rule each hand-written method became: the same question, declared. */
const RULE_OF_METHOD = { isCreator: 'creator', isCreatorOrManagerOfCreator: 'creatorOrManaged', isCreatedInSameCompany: 'sameCompany' } as const;
/** The role whose definition names each rule: EMPLOYEE creator, EMPLOYEE_MANAGER creatorOrManaged, COMPANY_ADMIN sameCompany. */
const ROLE_OF_METHOD = { isCreator: 'EMPLOYEE', isCreatorOrManagerOfCreator: 'EMPLOYEE_MANAGER', isCreatedInSameCompany: 'COMPANY_ADMIN' } as const;
/** Every document, and ids no document has. */
const probedIds = [...documentIds, 0, 9, 11, 1000];

/** Embedded PGlite always; a PostgreSQL server as well when TEST_DATABASE_URL names one. */
const targets: { name: string; databaseUrl: string | undefined }[] = [
  { name: 'embedded PGlite', databaseUrl: undefined },
  ...(process.env['TEST_DATABASE_URL'] ? [{ name: 'a PostgreSQL server (TEST_DATABASE_URL)', databaseUrl: process.env['TEST_DATABASE_URL'] }] : []),
];

describe.each(targets)('the example data layer on $name', ({ databaseUrl }) => {
  let db: Kysely<ExampleDatabase>;
  let ownership: DocumentOwnershipService;
  let documents: DocumentsRepository;
  let usersRepository: UsersRepository;

  beforeAll(async () => {
    db = await createDatabase({ databaseUrl });
    await migrate(db);
    await migrate(db);
    await seed(db);
    await seed(db);
    await migrate(db);
    ownership = new DocumentOwnershipService(db);
    documents = new DocumentsRepository(db);
    usersRepository = new UsersRepository(db);
  });

  afterAll(async () => {
    await closeDatabase(db);
  });

  describe('the reference reading of example-data.ts matches DESIGN.md', () => {
    it('gives the managers and companies of DESIGN.md', () => {
      expect(owned('isCreatorOrManagerOfCreator', 2)).toEqual(documentsOf(1, 2, 4));
      expect(owned('isCreatorOrManagerOfCreator', 3)).toEqual(documentsOf(2, 3, 5));
      expect(owned('isCreatorOrManagerOfCreator', 7)).toEqual(documentsOf(5, 6, 7));
      expect(owned('isCreatorOrManagerOfCreator', 1)).toEqual(documentsOf(1));
      for (const member of [1, 2, 3, 7]) expect(owned('isCreatedInSameCompany', member)).toEqual(documentsOf(1, 2, 3, 7));
      for (const member of [4, 5, 6]) expect(owned('isCreatedInSameCompany', member)).toEqual(documentsOf(4, 5, 6));
      expect(owned('isCreatedInSameCompany', 8)).toEqual([]);
      for (let user = 1; user <= 8; user++) expect(owned('isCreator', user)).toEqual([user, 10 * user, 100 * user]);
    });
  });

  describe('migrate and seed', () => {
    it('seeds exactly the DESIGN.md data, and running migrate and seed again changes nothing', async () => {
      expect(await documents.findAll()).toEqual([...exampleDocuments].sort((a, b) => a.id - b.id));
      expect(documentIds).toHaveLength(24);
      const userRows = await db.selectFrom('users').select(['id', 'name', 'companyId']).orderBy('id').execute();
      expect(userRows).toEqual(exampleUsers.map((user) => ({ id: user.id, name: `User ${user.id}`, companyId: user.companyId })));
      expect(userRows.map((row) => row.companyId)).toEqual([1, 1, 1, 2, 2, 2, 1, null, 2]);
      const managerRows = await db.selectFrom('managers').select(['managerId', 'managedId']).orderBy('managerId').orderBy('managedId').execute();
      expect(managerRows).toEqual(exampleManagers);
      expect(managerRows).toEqual([
        { managerId: 2, managedId: 1 },
        { managerId: 2, managedId: 4 },
        { managerId: 3, managedId: 2 },
        { managerId: 3, managedId: 5 },
        { managerId: 7, managedId: 5 },
        { managerId: 7, managedId: 6 },
      ]);
    });

    it('migrates a database made before users had a company: adds users.company_id, drops company_members', async () => {
      await sql`drop table if exists company_members`.execute(db);
      await sql`alter table users drop column company_id`.execute(db);
      await sql`create table company_members (user_id integer not null, company_id integer not null)`.execute(db);
      await migrate(db);
      await seed(db);
      const tables = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_name = 'company_members'`.execute(db);
      expect(tables.rows).toEqual([]);
      expect((await db.selectFrom('users').select('companyId').where('id', '=', 4).executeTakeFirst())?.companyId).toBe(2);
    });

    it('reads users with their roles (sorted), company and managed users (ascending), and undefined for unknown ids', async () => {
      expect(await usersRepository.findUser(1)).toEqual({ id: 1, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: [] });
      expect(await usersRepository.findUser(7)).toEqual({ id: 7, roles: ['COMPANY_ADMIN', 'EMPLOYEE_MANAGER'], companyId: 1, managedUserIds: [5, 6] });
      expect(await usersRepository.findUser(8)).toEqual({ id: 8, roles: ['EMPLOYEE', 'SUPER_ADMIN'], companyId: null, managedUserIds: [] });
      for (const user of exampleUsers) expect(await usersRepository.findUser(user.id)).toEqual({ ...user, roles: [...user.roles].sort() });
      expect(await usersRepository.findUser(0)).toBeUndefined();
      expect(await usersRepository.findUser(99)).toBeUndefined();
    });

    it('returns dates as ISO strings, not Date objects', async () => {
      const document = await documents.findById(100);
      expect(document?.date).toBe('2024-04-09');
      expect(typeof document?.date).toBe('string');
    });
  });

  describe('DocumentsRepository', () => {
    it('finds one document by id, or undefined', async () => {
      expect(await documents.findById(10)).toEqual(exampleDocuments.find((d) => d.id === 10));
      expect(await documents.findById(9)).toBeUndefined();
      expect(await documents.findById(0)).toBeUndefined();
    });

    it('findWhere applies the extra where-clause and orders by id', async () => {
      const approved = await documents.findWhere((eb) => eb('documents.status', '=', 'approved'));
      expect(approved.map((d) => d.id)).toEqual([100, 200, 300, 400, 500, 600, 700, 800]);
      expect((await documents.findAll()).map((d) => d.id)).toEqual(documentIds);
    });

    it('findPage pages by keyset through the filtered documents, and gives the next cursor until the last page', async () => {
      const approved: DocumentFilter = (eb) => eb('documents.status', '=', 'approved');
      const first = await documents.findPage(approved, { limit: 3, after: 0 });
      expect({ ids: first.rows.map((d) => d.id), next: first.next }).toEqual({ ids: [100, 200, 300], next: 300 });
      const second = await documents.findPage(approved, { limit: 3, after: 300 });
      expect({ ids: second.rows.map((d) => d.id), next: second.next }).toEqual({ ids: [400, 500, 600], next: 600 });
      const last = await documents.findPage(approved, { limit: 3, after: 600 });
      expect({ ids: last.rows.map((d) => d.id), next: last.next }).toEqual({ ids: [700, 800], next: undefined });
      const exact = await documents.findPage(approved, { limit: 8, after: 0 });
      expect({ count: exact.rows.length, next: exact.next }).toEqual({ count: 8, next: undefined });
      expect(await documents.findPage(approved, { limit: 3, after: 800 })).toEqual({ rows: [], next: undefined });
    });
  });

  describe('the ownership rules of definitions/document.resource.json, through kyselyOwnership', () => {
    for (const method of isMethods) {
      const rule = RULE_OF_METHOD[method];
      it(`rule ${rule} owns, for every user and document, exactly what the reference's ${method} says (isOwn, listOwn, limitOwn)`, async () => {
        const ownershipRules = documentOwnershipRules(db);
        const permissions = createPermissions<AppUser, DocumentFilter>({ ownershipRules });
        for (const user of users) {
          const asRole: AppUser = { ...user, roles: [ROLE_OF_METHOD[method]] };
          const permit = await permissions.grantPermit({ user: asRole, resource: 'document', action: 'read' });
          const isOwn = [];
          for (const resourceId of probedIds) if (await permit.isOwn(resourceId)) isOwn.push(resourceId);
          const expected = owned(method, user.id);
          expect({ user: user.id, rule, isOwn }).toEqual({ user: user.id, rule, isOwn: expected });
          expect({ user: user.id, rule, listOwn: [...(await permit.listOwn())].sort(byId) }).toEqual({ user: user.id, rule, listOwn: expected });
          const limited = (await documents.findWhere(permit.limitOwn())).map((row) => row.id);
          expect({ user: user.id, rule, limited }).toEqual({ user: user.id, rule, limited: expected });
        }
        expect(owned(method, 4).length + owned(method, 2).length).toBeGreaterThan(0);
      });
    }
  });

  describe('the hand-written DocumentOwnershipService (test/fixtures/example-hooks)', () => {
    for (const method of isMethods) {
      it(`${method} answers like the reference for every (user, document) pair, including missing users and documents`, async () => {
        const pairs = users.flatMap((user) => probedIds.map((resourceId) => ({ user, resourceId })));
        const answers = await Promise.all(pairs.map((args) => ownership[method](args)));
        const got = pairs.map(({ user, resourceId }, i) => [user.id, resourceId, answers[i]]);
        const expected = pairs.map(({ user, resourceId }) => [user.id, resourceId, reference[method](user.id, resourceId)]);
        expect(got).toEqual(expected);
        expect(answers.filter((answer) => answer === true).length).toBeGreaterThan(0);
      });
    }

    it('listCreatedInSameCompany lists, ascending, exactly the documents isCreatedInSameCompany accepts', async () => {
      for (const user of users) {
        expect(await ownership.listCreatedInSameCompany({ user })).toEqual(owned('isCreatedInSameCompany', user.id));
      }
      expect(await ownership.listCreatedInSameCompany({ user: { id: 4, roles: ['COMPANY_ADMIN'] } })).toEqual([4, 5, 6, 40, 50, 60, 400, 500, 600]);
    });

    const limitPairs: [limit: 'limitToCreator' | 'limitToCreatorOrManagedCreators', isMethod: IsMethod][] = [
      ['limitToCreator', 'isCreator'],
      ['limitToCreatorOrManagedCreators', 'isCreatorOrManagerOfCreator'],
    ];
    for (const [limit, isMethod] of limitPairs) {
      it(`${limit} selects, for every user, exactly the documents ${isMethod} accepts`, async () => {
        for (const user of users) {
          const rows = await documents.findWhere(ownership[limit]({ user }));
          const acceptedByDatabase = [];
          for (const resourceId of documentIds) if (await ownership[isMethod]({ user, resourceId })) acceptedByDatabase.push(resourceId);
          expect({ user: user.id, ids: rows.map((row) => row.id) }).toEqual({ user: user.id, ids: acceptedByDatabase });
          expect(acceptedByDatabase).toEqual(owned(isMethod, user.id));
        }
      });
    }

    it('limit filters configure a condition without querying, and compose with other conditions', async () => {
      const filter = ownership.limitToCreatorOrManagedCreators({ user: { id: 2, roles: ['EMPLOYEE_MANAGER'] } });
      const query = db.selectFrom('documents').select('documents.id').where(filter).where('documents.status', '=', 'draft').orderBy('documents.id');
      expect(query.compile().sql).toContain('exists');
      expect((await query.execute()).map((row) => row.id)).toEqual([1, 2, 4]);
    });
  });

  describe('limitOwnReduce', () => {
    const approvedOnly: LimitOwnedHook<ExampleHookUser, DocumentFilter> = () => (eb) => eb('documents.status', '=', 'approved');
    const idsWhere = async (filter: DocumentFilter) => (await documents.findWhere(filter)).map((row) => row.id);

    it('ORs the filters of two hooks', async () => {
      const user: AppUser = { id: 1, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: [] };
      const ids = await idsWhere(limitOwnReduce({ user, limitOwneds: [(args) => ownership.limitToCreator(args), approvedOnly] }));
      expect(ids).toEqual([1, 10, 100, 200, 300, 400, 500, 600, 700, 800]);

      const manager: AppUser = { id: 3, roles: ['EMPLOYEE', 'EMPLOYEE_MANAGER'], companyId: 1, managedUserIds: [2, 5] };
      const both = await idsWhere(
        limitOwnReduce({ user: manager, limitOwneds: [(args) => ownership.limitToCreator(args), (args) => ownership.limitToCreatorOrManagedCreators(args)] }),
      );
      expect(both).toEqual(documentsOf(2, 3, 5));
    });

    it('with one hook equals that hook', async () => {
      const user: AppUser = { id: 7, roles: ['EMPLOYEE_MANAGER'], companyId: 1, managedUserIds: [5, 6] };
      expect(await idsWhere(limitOwnReduce({ user, limitOwneds: [(args) => ownership.limitToCreatorOrManagedCreators(args)] }))).toEqual(documentsOf(5, 6, 7));
    });

    it('with no hook is a false condition (not NULL): nothing matches it, everything matches its negation', async () => {
      const nothing = limitOwnReduce({ user: { id: 1, roles: [] }, limitOwneds: [] });
      expect(await idsWhere(nothing)).toEqual([]);
      expect(await idsWhere((eb) => eb.not(nothing(eb)))).toEqual(documentIds);
    });
  });

  describe('with the core Permissions and the hook-based definitions of test/fixtures/example-hooks', () => {
    const { definitions } = JSON.parse(readFileSync(new URL('../fixtures/example-hooks/definitions/document.permissions.json', import.meta.url), 'utf8')) as {
      definitions: PermissionDefinition[];
    };
    const build = () => {
      // The executor that the fixture's document.resource.json declares, given to build() directly.
      const permissions = new Permissions({ ownership, limitOwnReduce, logger: { warn: () => undefined }, ownedAmong: { document: 'ownedDocumentsAmong' } });
      permissions.addPermissions(definitions, { source: 'document.permissions.json' });
      permissions.build();
      return permissions;
    };

    it('resolves every hook string to a method of the service, and decides ownership through real queries', async () => {
      const permissions = build();
      const employee = (await usersRepository.findUser(1)) as AppUser;
      expect((await permissions.grantPermit({ user: employee, resource: 'document', action: 'read', resourceId: 10 })).granted).toBe(true);
      expect((await permissions.grantPermit({ user: employee, resource: 'document', action: 'read', resourceId: 2 })).granted).toBe(false);
      const admin = (await usersRepository.findUser(4)) as AppUser;
      expect((await permissions.grantPermit({ user: admin, resource: 'document', action: 'update', resourceId: 50 })).granted).toBe(true);
      expect((await permissions.grantPermit({ user: admin, resource: 'document', action: 'update', resourceId: 10 })).granted).toBe(false);
      const adminPermit = await permissions.grantPermit({ user: admin, resource: 'document', action: 'read' });
      expect(await adminPermit.listOwn()).toEqual(documentsOf(4, 5, 6));
    });

    it("permit.limitOwn() passed to findWhere lists a manager's own documents", async () => {
      const permissions = build();
      const manager = (await usersRepository.findUser(2)) as AppUser;
      const permit = await permissions.grantPermit({ user: manager, resource: 'document', action: 'list' });
      expect((await documents.findWhere(permit.limitOwn())).map((row) => row.id)).toEqual(documentsOf(1, 2, 4));
    });
  });
});
