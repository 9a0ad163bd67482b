/**
 * The permissions guard on GraphQL resolvers: a real Nest application serving Apollo
 * at POST /graphql. Where the action and the record id of each resolver come from, field-level
 * attributes, one permit per resolver call under concurrency, and how refusals and failures surface.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { PERMISSIONS_OWNERSHIP_SERVICE_TOKEN } from '../../runtime/nest/index.js';
import { collectingLogger, startApp, type TestApp } from './fixtures/documents.fixture.js';
import { errorsByPath, gqlDocumentsModule, postGraphQL } from './fixtures/graphql/graphql-app.fixture.js';
import { ConcurrencyGate, GqlHandlerLog, GqlOwnership, HOOK_SECRET } from './fixtures/graphql/graphql-documents.data.js';
import { GqlDocumentsResolver, GqlDocumentsRestController, GqlNoteKeysResolver, GqlNotesResolver } from './fixtures/graphql/graphql-documents.resolvers.js';

let app: TestApp;
let ownership: GqlOwnership;
let log: GqlHandlerLog;

const { warnings, logger } = collectingLogger();

function reset(): void {
  ownership.reset();
  log.ran.length = 0;
}

describe('permissions guard on GraphQL resolvers (documents app)', () => {
  beforeAll(async () => {
    app = await startApp(
      gqlDocumentsModule({ resolvers: [GqlDocumentsResolver, GqlNotesResolver, GqlNoteKeysResolver], controllers: [GqlDocumentsRestController], logger }),
    );
    ownership = app.get(PERMISSIONS_OWNERSHIP_SERVICE_TOKEN);
    log = app.get(GqlHandlerLog);
  });

  afterAll(async () => {
    await app.close();
  });
  recordIdsOfResolvers();
  namedIdArgumentsAndCollections();
  nullableIdsActionsAndFieldLevel();
  concurrencyFailuresAndWarnings();
});

function recordIdsOfResolvers(): void {
  it('the default id argument of type Int is the record id, projected by the guard', async () => {
    reset();
    const owned = await postGraphQL(app, '{ document(id: 2) { id title confidential checkedId } }', { userId: 1 });
    expect(owned.body).toEqual({ data: { document: { id: 2, title: 'Doc 2', confidential: null, checkedId: 2 } } });
    expect(ownership.calls).toEqual([{ hook: 'isCreator', userId: 1, resourceId: 2 }]);
    expect(log.ran).toEqual(['document:2']);
  });

  it('a record of another owner is FORBIDDEN and the resolver does not run', async () => {
    reset();
    const answer = await postGraphQL(app, '{ document(id: 3) { id title } }', { userId: 1 });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: { document: null },
      errors: [
        {
          message: 'read on document is not granted',
          locations: [{ line: 1, column: 3 }],
          path: ['document'],
          extensions: { code: 'FORBIDDEN', reason: 'not-owner' },
        },
      ],
    });
    expect(ownership.calls).toEqual([{ hook: 'isCreator', userId: 1, resourceId: 3 }]);
    expect(log.ran).toEqual([]);
  });

  it('an id the projection refuses is BAD_USER_INPUT, before any hook', async () => {
    reset();
    const answer = await postGraphQL(app, '{ documentInFolder(folderId: 1, documentId: -4) { id } }', { userId: 1 });
    expect(errorsByPath(answer)).toEqual([{ message: 'id must be an integer, got "-4"', path: ['documentInFolder'], extensions: { code: 'BAD_USER_INPUT' } }]);
    expect(ownership.calls).toEqual([]);
    expect(log.ran).toEqual([]);
  });

  it('an id of the wrong type, as a variable or a null literal, is BAD_USER_INPUT before any resolver runs', async () => {
    reset();
    const variable = await postGraphQL(app, 'query Read($id: Int!) { document(id: $id) { id } }', { userId: 1, variables: { id: 'abc' } });
    expect(variable.status).toBe(400);
    expect(variable.body).toEqual({
      errors: [
        {
          message: 'Variable "$id" got invalid value "abc"; Int cannot represent non-integer value: "abc"',
          locations: [{ line: 1, column: 12 }],
          extensions: { code: 'BAD_USER_INPUT' },
        },
      ],
    });
    const nullLiteral = await postGraphQL(app, '{ document(id: null) { id } }', { userId: 1 });
    expect(nullLiteral.status).toBe(400);
    expect(nullLiteral.body).toEqual({
      errors: [{ message: 'Expected value of type "Int!", found null.', locations: [{ line: 1, column: 16 }], extensions: { code: 'BAD_USER_INPUT' } }],
    });
    expect(ownership.calls).toEqual([]);
    expect(log.ran).toEqual([]);
  });

  it('an id literal of the wrong type, document(id: "abc"), is BAD_USER_INPUT like REST\'s 400', async () => {
    const answer = await postGraphQL(app, '{ document(id: "abc") { id } }', { userId: 1 });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      errors: [{ message: 'Int cannot represent non-integer value: "abc"', locations: [{ line: 1, column: 16 }], extensions: { code: 'BAD_USER_INPUT' } }],
    });
  });

  it('the default id argument of type ID is the record id, a string id kept as it is', async () => {
    reset();
    const owned = await postGraphQL(app, '{ note(id: "n1") { id text checkedId } }', { userId: 1 });
    expect(owned.body).toEqual({ data: { note: { id: 'n1', text: 'note one', checkedId: 'n1' } } });
    const other = await postGraphQL(app, '{ note(id: "n2") { id text } }', { userId: 1 });
    expect(errorsByPath(other)).toEqual([{ message: 'read on note is not granted', path: ['note'], extensions: { code: 'FORBIDDEN', reason: 'not-owner' } }]);
    expect(ownership.calls).toEqual([
      { hook: 'isNoteAuthor', userId: 1, resourceId: 'n1' },
      { hook: 'isNoteAuthor', userId: 1, resourceId: 'n2' },
    ]);
  });

  it('an ID argument written as a number reaches the hook as the string GraphQL makes of it', async () => {
    reset();
    const answer = await postGraphQL(app, '{ note(id: 7) { id } }', { userId: 1 });
    expect(errorsByPath(answer)).toEqual([{ message: 'read on note is not granted', path: ['note'], extensions: { code: 'FORBIDDEN', reason: 'not-owner' } }]);
    expect(ownership.calls).toEqual([{ hook: 'isNoteAuthor', userId: 1, resourceId: '7' }]);
  });
}

function namedIdArgumentsAndCollections(): void {
  it("@Permission({ resourceIdParam: 'documentId' }) takes the id from that argument, not from another one", async () => {
    reset();
    // Folder 1 would pass as user 1's document 1 if the wrong argument were read.
    const refused = await postGraphQL(app, '{ documentInFolder(folderId: 1, documentId: 3) { id } }', { userId: 1 });
    expect(errorsByPath(refused)).toEqual([
      { message: 'read on document is not granted', path: ['documentInFolder'], extensions: { code: 'FORBIDDEN', reason: 'not-owner' } },
    ]);
    const granted = await postGraphQL(app, '{ documentInFolder(folderId: 3, documentId: 2) { id checkedId } }', { userId: 1 });
    expect(granted.body).toEqual({ data: { documentInFolder: { id: 2, checkedId: 2 } } });
    expect(ownership.calls).toEqual([
      { hook: 'isCreator', userId: 1, resourceId: 3 },
      { hook: 'isCreator', userId: 1, resourceId: 2 },
    ]);
    expect(log.ran).toEqual(['documentInFolder:2']);
  });

  it("a guard's resourceIdParam names the id argument of each resolver it guards; one without arguments is a collection check", async () => {
    reset();
    const refused = await postGraphQL(app, '{ noteInFolder(folderId: "n1", noteId: "n2") { id } }', { userId: 1 });
    expect(errorsByPath(refused)).toEqual([
      { message: 'read on note is not granted', path: ['noteInFolder'], extensions: { code: 'FORBIDDEN', reason: 'not-owner' } },
    ]);
    const granted = await postGraphQL(app, '{ noteInFolder(folderId: "n2", noteId: "n1") { id checkedId } }', { userId: 1 });
    expect(granted.body).toEqual({ data: { noteInFolder: { id: 'n1', checkedId: 'n1' } } });
    const list = await postGraphQL(app, '{ notes { id text } }', { userId: 1 });
    expect(list.body).toEqual({ data: { notes: [{ id: 'n1', text: 'note one' }] } });
    expect(ownership.calls).toEqual([
      { hook: 'isNoteAuthor', userId: 1, resourceId: 'n2' },
      { hook: 'isNoteAuthor', userId: 1, resourceId: 'n1' },
      { hook: 'listNotes', userId: 1 },
    ]);
  });

  it("'input.id' reaches into the mutation's input: an owned record is renamed", async () => {
    reset();
    const answer = await postGraphQL(app, 'mutation { renameDocument(input: { id: 1, title: "Renamed" }) { id title } }', { userId: 1 });
    expect(answer.body).toEqual({ data: { renameDocument: { id: 1, title: 'Renamed' } } });
    expect(ownership.calls).toEqual([{ hook: 'isCreator', userId: 1, resourceId: 1 }]);
    expect(log.ran).toEqual(['renameDocument:1']);
  });

  it("'input.id' of another owner's record (given as a variable) is FORBIDDEN and the mutation does not run", async () => {
    reset();
    const answer = await postGraphQL(app, 'mutation Rename($input: RenameGqlDocumentInput!) { renameDocument(input: $input) { id title } }', {
      userId: 1,
      variables: { input: { id: 3, title: 'Stolen' } },
    });
    expect(errorsByPath(answer)).toEqual([
      { message: 'update on document is not granted', path: ['renameDocument'], extensions: { code: 'FORBIDDEN', reason: 'not-owner' } },
    ]);
    expect(answer.body.data).toEqual({ renameDocument: null });
    expect(ownership.calls).toEqual([{ hook: 'isCreator', userId: 1, resourceId: 3 }]);
    expect(log.ran).toEqual([]);
  });

  it('a collection query opted out with resourceIdParam: null is a collection check, whatever its arguments', async () => {
    reset();
    const answer = await postGraphQL(app, '{ documents(first: 4) { id title confidential } }', { userId: 1 });
    expect(answer.body).toEqual({
      data: {
        documents: [
          { id: 1, title: 'Doc 1', confidential: null },
          { id: 2, title: 'Doc 2', confidential: null },
          { id: null, title: 'Doc 3', confidential: null },
          { id: null, title: 'Doc 4', confidential: null },
        ],
      },
    });
    expect(ownership.calls).toEqual([{ hook: 'listCreated', userId: 1 }]);
  });
}

function nullableIdsActionsAndFieldLevel(): void {
  it('a nullable id argument that is absent makes a collection check; present, a record check', async () => {
    reset();
    const all = await postGraphQL(app, '{ readable { id } }', { userId: 1 });
    expect(all.body).toEqual({ data: { readable: [{ id: 1 }, { id: 2 }, { id: 5 }, { id: 8 }, { id: 10 }] } });
    expect(ownership.calls).toEqual([{ hook: 'listCreated', userId: 1 }]);
    expect(log.ran).toEqual(['readable:undefined']);
    reset();
    const one = await postGraphQL(app, '{ readable(id: 3) { id } }', { userId: 1 });
    expect(errorsByPath(one)).toEqual([
      { message: 'read on document is not granted', path: ['readable'], extensions: { code: 'FORBIDDEN', reason: 'not-owner' } },
    ]);
    expect(ownership.calls).toEqual([{ hook: 'isCreator', userId: 1, resourceId: 3 }]);
    expect(log.ran).toEqual([]);
    // `id: null` is absent too.
    const explicitNull = await postGraphQL(app, '{ readable(id: null) { id } }', { userId: 1 });
    expect(explicitNull.body).toEqual({ data: { readable: [{ id: 1 }, { id: 2 }, { id: 5 }, { id: 8 }, { id: 10 }] } });
    expect(log.ran).toEqual(['readable:null']);
  });

  it('the action is the method name, not the field name (documentForEdit checks update)', async () => {
    reset();
    // CITY_READER reads any document but updates none.
    const read = await postGraphQL(app, '{ document(id: 1) { title } }', { userId: 4 });
    expect(read.body).toEqual({ data: { document: { title: 'Doc 1' } } });
    const edit = await postGraphQL(app, '{ documentForEdit(id: 1) { title } }', { userId: 4 });
    expect(errorsByPath(edit)).toEqual([
      { message: 'update on document is not granted', path: ['documentForEdit'], extensions: { code: 'FORBIDDEN', reason: 'no-grant' } },
    ]);
    // The owner may update it.
    const owner = await postGraphQL(app, '{ documentForEdit(id: 1) { title confidential } }', { userId: 1 });
    expect(owner.body).toEqual({ data: { documentForEdit: { title: 'Doc 1', confidential: 'confidential 1' } } });
    expect(log.ran).toEqual(['document:1', 'documentForEdit:1']);
  });

  it('@Permission({ action }) overrides the method name (note checks read)', async () => {
    reset();
    const answer = await postGraphQL(app, '{ note(id: "n1") { permitAction } }', { userId: 1 });
    expect(answer.body).toEqual({ data: { note: { permitAction: 'read' } } });
  });

  it('@SkipPermissions() lets the call through without a user or a check', async () => {
    reset();
    // User 99 is unknown: extractUserFromRequest would refuse, but it is not asked.
    const answer = await postGraphQL(app, '{ documentCount }', { userId: 99 });
    expect(answer.body).toEqual({ data: { documentCount: 10 } });
    expect(ownership.calls).toEqual([]);
    expect(log.ran).toEqual(['documentCount']);
  });

  it("field level: grant ['title', 'address.city'] shows the city, and the street is null", async () => {
    reset();
    const answer = await postGraphQL(app, '{ document(id: 1) { id title confidential address { city street } } }', { userId: 4 });
    expect(answer.body).toEqual({ data: { document: { id: null, title: 'Doc 1', confidential: null, address: { city: 'City 1', street: null } } } });
    expect(ownership.calls).toEqual([]);
  });

  it('field level: aliases and fragments cannot reach a hidden attribute', async () => {
    const query = `
      query {
        document(id: 1) {
          a: address { s: street }
          ...Hidden
          ... on GqlDocument { address { street } secret: confidential }
        }
      }
      fragment Hidden on GqlDocument { c: confidential address { city } }`;
    const answer = await postGraphQL(app, query, { userId: 4 });
    expect(answer.body).toEqual({ data: { document: { a: { s: null }, c: null, address: { city: 'City 1', street: null }, secret: null } } });
  });
}

function concurrencyFailuresAndWarnings(): void {
  it('concurrency: ten aliased calls in one operation, resolved at once, each get their own permit', async () => {
    reset();
    const gate = new ConcurrencyGate(10);
    ownership.gate = gate;
    const ids = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const query = `{ ${ids.map((id) => `d${id}: document(id: ${id}) { id title checkedId }`).join(' ')} }`;
    const answer = await postGraphQL(app, query, { userId: 1 });
    // All ten hooks were waiting at once: the calls ran concurrently.
    expect(gate.maxWaiting).toBe(10);
    const owned = new Set([1, 2, 5, 8, 10]);
    expect(answer.body.data).toEqual(Object.fromEntries(ids.map((id) => [`d${id}`, owned.has(id) ? { id, title: `Doc ${id}`, checkedId: id } : null])));
    expect(errorsByPath(answer)).toEqual(
      ids
        .filter((id) => !owned.has(id))
        .map((id) => ({ message: 'read on document is not granted', path: [`d${id}`], extensions: { code: 'FORBIDDEN', reason: 'not-owner' } })),
    );
    expect([...ownership.calls].sort((a, b) => Number(a.resourceId) - Number(b.resourceId))).toEqual(
      ids.map((id) => ({ hook: 'isCreator', userId: 1, resourceId: id })),
    );
    expect([...log.ran].sort()).toEqual([...owned].map((id) => `document:${id}`).sort());
  });

  it('a hook that throws is INTERNAL_SERVER_ERROR "Internal server error" only; its message never reaches the client', async () => {
    reset();
    const answer = await postGraphQL(app, '{ document(id: 1) { id title } }', { userId: 6 });
    expect(answer.body).toEqual({
      data: { document: null },
      errors: [{ message: 'Internal server error', locations: [{ line: 1, column: 3 }], path: ['document'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
    });
    expect(answer.text).not.toContain(HOOK_SECRET);
    expect(answer.text).not.toContain('hunter2');
    expect(answer.text).not.toContain('stacktrace');
    expect(ownership.calls).toEqual([{ hook: 'explode', userId: 6, resourceId: 1 }]);
    expect(log.ran).toEqual([]);
  });

  it('extractUserFromRequest throwing UnauthorizedException is UNAUTHENTICATED', async () => {
    reset();
    const answer = await postGraphQL(app, '{ document(id: 1) { id } }', { userId: 99 });
    expect(answer.body).toEqual({
      data: { document: null },
      errors: [{ message: 'unknown user 99', locations: [{ line: 1, column: 3 }], path: ['document'], extensions: { code: 'UNAUTHENTICATED' } }],
    });
    expect(ownership.calls).toEqual([]);
    expect(log.ran).toEqual([]);
  });

  it('the same guard class on a controller and on a resolver: both are checked', async () => {
    reset();
    const rest = await request(app.getHttpServer()).get('/documents/2').set('x-user-id', '1').expect(200);
    expect(rest.body).toEqual({ id: 2, title: 'Doc 2', creatorId: 1, address: { city: 'City 2', street: '2 Main Street' } });
    await request(app.getHttpServer()).get('/documents/3').set('x-user-id', '1').expect(403);
    const graphql = await postGraphQL(app, '{ document(id: 2) { id } other: document(id: 3) { id } }', { userId: 1 });
    expect(graphql.body.data).toEqual({ document: { id: 2 }, other: null });
    expect(errorsByPath(graphql)).toEqual([
      { message: 'read on document is not granted', path: ['other'], extensions: { code: 'FORBIDDEN', reason: 'not-owner' } },
    ]);
    expect(log.ran).toEqual(['rest:2', 'document:2']);
  });

  it('the app started without warnings', () => {
    expect(warnings).toEqual([]);
  });
}
