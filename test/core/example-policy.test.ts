// Over 350 lines: every example check and role of the documents app on its ownership rules over the in-memory example data, each answer spelled out.
/**
 * The five example behaviour checks of the documents app, proved on the real example definitions as compiled
 * (generated/ from definitions/: document.permissions.json, and session.permissions.json that makes the anonymous
 * placeholder's role known) and the example data, with the example's ownership rules over the records in memory
 * (memoryOwnership: the documents, and the users' companies the rule sameCompany reads through `creator`).
 */
import { describe, expect, it } from '@jest/globals';
import { createPermissions } from '../../generated/index.js';
import { memoryOwnership, type Permit } from '../../runtime/permissions/index.js';
import { exampleAnonymousUser, exampleDocuments, exampleUsers, type ExampleDocument, type ExampleUser } from '../../examples/documents/example-data.js';
import { collectingLogger } from './helpers.js';

type DocumentPredicate = (document: ExampleDocument) => boolean;

function setup() {
  const { warnings, logger } = collectingLogger();
  const ownershipRules = memoryOwnership({ document: exampleDocuments, user: exampleUsers.map(({ id, companyId }) => ({ id, companyId })) });
  const permissions = createPermissions<ExampleUser, DocumentPredicate>({ ownershipRules, logger });
  return { permissions, warnings };
}

function user(id: number): ExampleUser {
  const found = exampleUsers.find((candidate) => candidate.id === id);
  if (found === undefined) throw new Error(`no example user ${id}`);
  return found;
}

function document(id: number): ExampleDocument {
  const found = exampleDocuments.find((candidate) => candidate.id === id);
  if (found === undefined) throw new Error(`no example document ${id}`);
  return found;
}

/** `document` without the named attributes. */
function without(document: ExampleDocument, ...attributes: (keyof ExampleDocument)[]): Partial<ExampleDocument> {
  const copy: Partial<Record<keyof ExampleDocument, unknown>> = { ...document };
  for (const attribute of attributes) delete copy[attribute];
  return copy as Partial<ExampleDocument>;
}

/** `document` with only the named attributes. */
function only(document: ExampleDocument, ...attributes: (keyof ExampleDocument)[]): Partial<ExampleDocument> {
  return Object.fromEntries(attributes.map((attribute) => [attribute, document[attribute]]));
}

function decision(permit: Permit) {
  return { granted: permit.granted, anyGranted: permit.anyGranted, ownGranted: permit.ownGranted, anyAttributes: [...permit.anyAttributes] };
}

const REFUSED = { granted: false, anyGranted: false, ownGranted: false, anyAttributes: [] };
const OWNED = { granted: true, anyGranted: false, ownGranted: true, anyAttributes: [] };

describe('example data', () => {
  it('example data: user u created documents u, 10u and 100u, each with deterministic fields', () => {
    expect(exampleDocuments.map((d) => d.id)).toEqual([1, 10, 100, 2, 20, 200, 3, 30, 300, 4, 40, 400, 5, 50, 500, 6, 60, 600, 7, 70, 700, 8, 80, 800]);
    for (const d of exampleDocuments) {
      expect(d.creatorId).toBe(d.id < 10 ? d.id : d.id < 100 ? d.id / 10 : d.id / 100);
      expect(d.title).toBe(`Document Title ${d.id}`);
      expect(d.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    expect(document(10)).toEqual({
      id: 10,
      title: 'Document Title 10',
      date: '2024-01-10',
      status: 'review',
      personal: 'Personal note of user 1 on document 10',
      confidential: 'Confidential figures of document 10',
      creatorId: 1,
    });
    expect(exampleUsers.map((u) => [u.id, u.roles])).toEqual([
      [1, ['EMPLOYEE']],
      [2, ['EMPLOYEE_MANAGER']],
      [3, ['QA_MANAGER']],
      [4, ['COMPANY_ADMIN']],
      [5, ['SUPER_ADMIN']],
      [6, ['GOD']],
      [7, ['EMPLOYEE_MANAGER', 'COMPANY_ADMIN']],
      [8, ['EMPLOYEE', 'SUPER_ADMIN']],
      [9, ['QA_MANAGER']],
    ]);
  });
});

describe('the five example behaviour checks of the documents app', () => {
  it('Example behaviour check 1: EMPLOYEE reads an owned document and sees all attributes except confidential', async () => {
    const { permissions } = setup();
    for (const id of [1, 10, 100]) {
      const permit = await permissions.grantPermit({ user: user(1), resource: 'document', action: 'read', resourceId: id });
      expect(decision(permit)).toEqual(OWNED);
      expect(await permit.pick(document(id))).toEqual(without(document(id), 'confidential'));
    }
    const one = await permissions.grantPermit({ user: user(1), resource: 'document', action: 'read', resourceId: 1 });
    expect(await one.pick(document(1))).toEqual({
      id: 1,
      title: 'Document Title 1',
      date: '2024-01-01',
      status: 'draft',
      personal: 'Personal note of user 1 on document 1',
      creatorId: 1,
    });
  });

  it('Example behaviour check 2: EMPLOYEE reading a document they do not own is refused (403)', async () => {
    const { permissions } = setup();
    for (const id of [2, 20, 500, 8]) {
      const permit = await permissions.grantPermit({ user: user(1), resource: 'document', action: 'read', resourceId: id });
      expect(decision(permit)).toEqual(REFUSED);
      expect(await permit.pick(document(id))).toEqual({});
    }
  });

  it(
    'Example behaviour check 3: COMPANY_ADMIN reads an owned (same-company) document with all attributes ' +
      'including confidential; a non-owned one is refused',
    async () => {
      const { permissions } = setup();
      for (const id of [4, 5, 50, 600]) {
        const permit = await permissions.grantPermit({ user: user(4), resource: 'document', action: 'read', resourceId: id });
        expect(decision(permit)).toEqual(OWNED);
        expect(await permit.pick(document(id))).toEqual(document(id));
      }
      for (const id of [1, 70, 8]) {
        const permit = await permissions.grantPermit({ user: user(4), resource: 'document', action: 'read', resourceId: id });
        expect(decision(permit)).toEqual(REFUSED);
      }
    },
  );

  it('Example behaviour check 4: EMPLOYEE lists owned documents with all non-confidential attributes, other documents with only title and date', async () => {
    const { permissions } = setup();
    const permit = await permissions.grantPermit({ user: user(1), resource: 'document', action: 'list' });
    expect(decision(permit)).toEqual({ granted: true, anyGranted: true, ownGranted: true, anyAttributes: ['date', 'title'] });
    expect(await permit.filterPick(exampleDocuments)).toEqual(
      exampleDocuments.map((d) => (d.creatorId === 1 ? without(d, 'confidential') : only(d, 'title', 'date'))),
    );
  });

  it("Example behaviour check 5: COMPANY_ADMIN listing is refused (403): 'list' is not granted", async () => {
    const { permissions } = setup();
    const permit = await permissions.grantPermit({ user: user(4), resource: 'document', action: 'list' });
    expect(decision(permit)).toEqual(REFUSED);
    expect(await permit.filterPick(exampleDocuments)).toEqual([]);
  });
});

describe('example app: more roles', () => {
  it("EMPLOYEE_MANAGER reads a managed user's document without confidential and personal, and is refused a non-managed one", async () => {
    const { permissions } = setup();
    for (const id of [1, 100, 40, 2]) {
      const permit = await permissions.grantPermit({ user: user(2), resource: 'document', action: 'read', resourceId: id });
      expect(decision(permit)).toEqual(OWNED);
      expect(await permit.pick(document(id))).toEqual(without(document(id), 'confidential', 'personal'));
    }
    for (const id of [3, 5, 60, 8]) {
      const permit = await permissions.grantPermit({ user: user(2), resource: 'document', action: 'read', resourceId: id });
      expect(decision(permit)).toEqual(REFUSED);
    }
  });

  it('EMPLOYEE_MANAGER lists managed documents without confidential and personal, others with title, date and status', async () => {
    const { permissions } = setup();
    const permit = await permissions.grantPermit({ user: user(2), resource: 'document', action: 'list' });
    expect(decision(permit)).toEqual({ granted: true, anyGranted: true, ownGranted: true, anyAttributes: ['date', 'status', 'title'] });
    expect(await permit.filterPick(exampleDocuments)).toEqual(
      exampleDocuments.map((d) => ([1, 2, 4].includes(d.creatorId) ? without(d, 'confidential', 'personal') : only(d, 'title', 'date', 'status'))),
    );
  });

  it(
    'defect fix on the example: user 7 (EMPLOYEE_MANAGER + COMPANY_ADMIN) reading a document owned only through ' +
      'management (document 6) gets no confidential and no personal',
    async () => {
      const { permissions } = setup();
      for (const id of [6, 5, 60]) {
        const permit = await permissions.grantPermit({ user: user(7), resource: 'document', action: 'read', resourceId: id });
        expect(decision(permit)).toEqual(OWNED);
        expect(await permit.pick(document(id))).toEqual(without(document(id), 'confidential', 'personal'));
        expect(await permit.pick(document(id))).toEqual({
          id,
          title: `Document Title ${id}`,
          date: document(id).date,
          status: document(id).status,
          creatorId: document(id).creatorId,
        });
      }
    },
  );

  it('defect fix on the example (reverse): user 7 reading a document owned only through the company (document 1) gets every attribute', async () => {
    const { permissions } = setup();
    for (const id of [1, 20, 300, 7]) {
      const permit = await permissions.grantPermit({ user: user(7), resource: 'document', action: 'read', resourceId: id });
      expect(decision(permit)).toEqual(OWNED);
      expect(await permit.pick(document(id))).toEqual(document(id));
    }
    for (const id of [4, 8, 800]) {
      const permit = await permissions.grantPermit({ user: user(7), resource: 'document', action: 'read', resourceId: id });
      expect(decision(permit)).toEqual(REFUSED);
    }
  });

  it("user 7 lists with EMPLOYEE_MANAGER's grants only: COMPANY_ADMIN grants no 'list', so company documents show title, date and status", async () => {
    const { permissions } = setup();
    const permit = await permissions.grantPermit({ user: user(7), resource: 'document', action: 'list' });
    expect(decision(permit)).toEqual({ granted: true, anyGranted: true, ownGranted: true, anyAttributes: ['date', 'status', 'title'] });
    expect(await permit.filterPick(exampleDocuments)).toEqual(
      exampleDocuments.map((d) => ([5, 6, 7].includes(d.creatorId) ? without(d, 'confidential', 'personal') : only(d, 'title', 'date', 'status'))),
    );
    const filter = permit.limitOwn();
    expect(exampleDocuments.filter(filter).map((d) => d.id)).toEqual([5, 50, 500, 6, 60, 600, 7, 70, 700]);
  });
  actionMatrixAndOwnLists();
});

function actionMatrixAndOwnLists(): void {
  it('example action matrix: each role is granted exactly its actions on an owned document (known actions: CRUD, list, review)', async () => {
    const { permissions } = setup();
    const actions = ['create', 'read', 'update', 'delete', 'list', 'review'] as const;
    const matrix = async (userId: number, resourceId: number) => {
      const row: Record<string, boolean> = {};
      for (const action of actions) row[action] = (await permissions.grantPermit({ user: user(userId), resource: 'document', action, resourceId })).granted;
      return row;
    };
    expect(await matrix(1, 10)).toEqual({ create: true, read: true, update: false, delete: false, list: true, review: false });
    expect(await matrix(2, 40)).toEqual({ create: false, read: true, update: false, delete: true, list: true, review: true });
    expect(await matrix(4, 500)).toEqual({ create: false, read: true, update: true, delete: false, list: false, review: true });
    expect(await matrix(7, 6)).toEqual({ create: false, read: true, update: false, delete: true, list: true, review: true });
    expect(await matrix(7, 1)).toEqual({ create: false, read: true, update: true, delete: false, list: true, review: true });
    expect(await matrix(1, 20)).toEqual({ create: false, read: false, update: false, delete: false, list: true, review: false });
  });

  it('SUPER_ADMIN reads and lists everything with every attribute, and is granted every known action', async () => {
    const { permissions } = setup();
    for (const action of ['create', 'read', 'update', 'delete', 'list', 'review'] as const) {
      const permit = await permissions.grantPermit({ user: user(5), resource: 'document', action, resourceId: 300 });
      expect(decision(permit)).toEqual({ granted: true, anyGranted: true, ownGranted: true, anyAttributes: ['*'] });
    }
    const read = await permissions.grantPermit({ user: user(5), resource: 'document', action: 'read', resourceId: 1 });
    expect(await read.pick(document(1))).toEqual(document(1));
    const list = await permissions.grantPermit({ user: user(5), resource: 'document', action: 'list' });
    expect(await list.filterPick(exampleDocuments)).toEqual(exampleDocuments);
  });

  it("user 8 (EMPLOYEE + SUPER_ADMIN) owns through EMPLOYEE's rule: isOwn(8) is true, isOwn of another's document false", async () => {
    const { permissions } = setup();
    const permit = await permissions.grantPermit({ user: user(8), resource: 'document', action: 'read', resourceId: 1 });
    expect(decision(permit)).toEqual({ granted: true, anyGranted: true, ownGranted: true, anyAttributes: ['*'] });
    expect([await permit.isOwn(8), await permit.isOwn(80), await permit.isOwn(800), await permit.isOwn(1), await permit.isOwn(7)]).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(await permit.pick(document(1))).toEqual(document(1));
  });

  it('QA_MANAGER and GOD have no definitions, ANONYMOUS none on documents: nothing is granted; only the unknown roles are warned about', async () => {
    const { permissions, warnings } = setup();
    for (const who of [user(3), user(6), exampleAnonymousUser]) {
      for (const action of ['read', 'list', 'create', 'review'] as const) {
        for (const resourceId of [undefined, 1, 3, 6]) {
          const permit = await permissions.grantPermit({ user: who, resource: 'document', action, resourceId });
          expect(decision(permit)).toEqual(REFUSED);
        }
      }
      const permit = await permissions.grantPermit({ user: who, resource: 'document', action: 'read' });
      expect(await permit.filterPick(exampleDocuments)).toEqual([]);
      expect(await permit.isOwn(who.id)).toBe(false);
    }
    expect(exampleAnonymousUser).toEqual({ id: 0, roles: ['ANONYMOUS'], companyId: null, managedUserIds: [] });
    expect(warnings).toEqual([
      'typed-permissions: unknown role "QA_MANAGER": no definition names it; it is ignored.',
      'typed-permissions: unknown role "GOD": no definition names it; it is ignored.',
    ]);
  }, 30_000);

  it('limitOwn on the example: EMPLOYEE gets a creator predicate that selects documents 1, 10 and 100', async () => {
    const { permissions } = setup();
    const permit = await permissions.grantPermit({ user: user(1), resource: 'document', action: 'list' });
    const filter = permit.limitOwn();
    expect(exampleDocuments.filter(filter).map((d) => d.id)).toEqual([1, 10, 100]);
  });

  it('listOwn on the example: COMPANY_ADMIN lists the documents of company 2, and the rule’s limitOwn predicate selects the same', async () => {
    const { permissions } = setup();
    const permit = await permissions.grantPermit({ user: user(4), resource: 'document', action: 'read' });
    expect(await permit.listOwn()).toEqual([4, 40, 400, 5, 50, 500, 6, 60, 600]);
    expect(exampleDocuments.filter(permit.limitOwn()).map((d) => d.id)).toEqual([4, 40, 400, 5, 50, 500, 6, 60, 600]);
  });
}
