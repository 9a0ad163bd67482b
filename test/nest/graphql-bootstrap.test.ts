/**
 * What the permissions module checks when a GraphQL application starts: every guarded
 * resolver whose record id cannot be told, and every guarded subscription, stops the start with a message
 * naming the resolver, its field and the fix; a returned object type with non-null fields is a warning (an
 * error in strict mode); resolvers the schema does not serve are not checked.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { type ModuleMetadata } from '@nestjs/common';
import { type PermissionDefinition, PermissionsUsageError } from '../../runtime/permissions/index.js';
import { PermissionsModule, type PermissionsModuleOptions } from '../../runtime/nest/index.js';
import { createApp, type TestApp } from './fixtures/documents.fixture.js';
import { fixtureGraphQLModule, postGraphQL } from './fixtures/graphql/graphql-app.fixture.js';
import { gqlUserFromHeader } from './fixtures/graphql/graphql-documents.data.js';
import {
  BootHealthResolver,
  SearchResolver,
  MisnamedIdResolver,
  GuardKeyResolver,
  ListIdResolver,
  NamedListIdResolver,
  InputIdResolver,
  NamedInputResolver,
  SubscriptionResolver,
  SkippedSubscriptionResolver,
  StrictDocumentResolver,
  ServedResolver,
  ServedModule,
  NotServedModule,
  InheritedByIdResolver,
  InheritedByKeyResolver,
  PermitFieldResolver,
} from './fixtures/graphql/boot-resolvers.js';

const DEFINITIONS: readonly PermissionDefinition[] = [
  { roles: ['EMPLOYEE'], resource: 'document', descr: 'Employees read and list documents.', grant: ['read:any', 'list:any'] },
];

/** The first line of every id refusal. */
const ID_REFUSAL =
  'Guarded resolvers whose resource id argument is ambiguous or that cannot be checked; the application does not start, because a check ' +
  'without the right record id could grant access to the wrong record:\n';
const OPT_OUT = 'or opt out with resourceIdParam: null if this handler does not act on one record.';

interface BootOptions {
  readonly resolvers?: ModuleMetadata['providers'];
  readonly imports?: ModuleMetadata['imports'];
  readonly graphql?: boolean;
  readonly permissions?: Partial<PermissionsModuleOptions>;
}

/** An application with the GraphQL module (unless `graphql: false`), the permissions module and the given resolvers, not started. */
function bootApp({ resolvers = [], imports = [], graphql = true, permissions = {} }: BootOptions): Promise<TestApp> {
  return createApp({
    imports: [
      ...(graphql ? [fixtureGraphQLModule()] : []),
      PermissionsModule.forRoot({ extractUserFromRequest: gqlUserFromHeader, definitions: [...DEFINITIONS], ...permissions }),
      ...imports,
    ],
    providers: [BootHealthResolver, ...resolvers],
  });
}

/** The error `app.init()` rejects with (the application is closed either way). */
async function startFailure(options: BootOptions): Promise<unknown> {
  const app = await bootApp(options);
  try {
    await app.init();
  } catch (error) {
    await app.close();
    return error;
  }
  await app.close();
  throw new Error('app.init() resolved, but a refusal was expected');
}

describe('GraphQL resolvers checked at application start', () => {
  resolversThatStopTheStart();
  warningsAndUncheckedResolvers();
});

function resolversThatStopTheStart(): void {
  it('a guarded resolver with arguments but no id argument stops the start', async () => {
    const error = await startFailure({ resolvers: [SearchResolver] });
    expect(error).toBeInstanceOf(PermissionsUsageError);
    expect((error as Error).message).toBe(
      ID_REFUSAL +
        '  - SearchResolver.search (Query.search) declares the arguments "text" but none of them is the resource id: the default is an ' +
        'argument named "id" holding one id. Fix: Set resourceIdParam to the argument that holds the id of the record checked (one of ' +
        `"text"), ${OPT_OUT}`,
    );
  });

  it('a guarded resolver provided by a factory or as a value is checked like a class: it stops the start the same way', async () => {
    for (const provider of [
      { provide: SearchResolver, useFactory: () => new SearchResolver() },
      { provide: SearchResolver, useValue: new SearchResolver() },
    ]) {
      const error = await startFailure({ resolvers: [provider] });
      expect(error).toBeInstanceOf(PermissionsUsageError);
      expect((error as Error).message).toContain('  - SearchResolver.search (Query.search) declares the arguments "text" but none of them is the resource id');
    }
  });

  it('@GetPermit() in a @ResolveField() method stops the start: permits are made per root field call', async () => {
    const error = await startFailure({ resolvers: [PermitFieldResolver] });
    expect(error).toBeInstanceOf(PermissionsUsageError);
    expect((error as Error).message).toBe(
      'Handlers inject @GetPermit() but no permissions guard gives them a permit, so every request would fail; the application does not start:\n' +
        '  - PermitFieldResolver.title injects @GetPermit() in a @ResolveField() method, which no permissions guard gives a permit: one is ' +
        'made per root field call. Fix: ask for what the field needs with PermissionsService, or resolve it in the root field.',
    );
  });

  it('@Permission({ resourceIdParam }) naming no argument of the field stops the start', async () => {
    const error = await startFailure({ resolvers: [MisnamedIdResolver] });
    expect((error as Error).message).toBe(
      ID_REFUSAL +
        '  - MisnamedIdResolver.byKey (Query.byKey) takes the resource id from argument "documentId", which it does not declare (it ' +
        `declares "id"). Fix: Set resourceIdParam to one of "id", ${OPT_OUT}`,
    );
  });

  it("a guard's resourceIdParam naming no argument of a field with arguments stops the start", async () => {
    const error = await startFailure({ resolvers: [GuardKeyResolver] });
    expect((error as Error).message).toBe(
      ID_REFUSAL +
        '  - GuardKeyResolver.read (Query.read) takes the resource id from argument "documentId" (set on the guard), which it does not ' +
        `declare (it declares "id"). Fix: Set resourceIdParam to one of "id", ${OPT_OUT}`,
    );
  });

  it('an id argument of a list type is not one id: the start stops (default and named)', async () => {
    const byDefault = await startFailure({ resolvers: [ListIdResolver] });
    expect((byDefault as Error).message).toBe(
      ID_REFUSAL +
        '  - ListIdResolver.read (Query.read) declares the arguments "id" but none of them is the resource id: the default is an argument ' +
        // A list is never offered as the id.
        `named "id" holding one id. Fix: Take the id from an argument of a scalar type (Int, ID, String), ${OPT_OUT}`,
    );
    const named = await startFailure({ resolvers: [NamedListIdResolver] });
    expect((named as Error).message).toBe(
      ID_REFUSAL +
        '  - NamedListIdResolver.many (Query.many) takes the resource id from the argument "ids", which is a list or an input object, not ' +
        `one id. Fix: Take the id from an argument of a scalar type (Int, ID, String) ${OPT_OUT}`,
    );
  });

  it('an input-object argument is not one id: the start stops (named id by default, and named by resourceIdParam)', async () => {
    const byDefault = await startFailure({ resolvers: [InputIdResolver] });
    expect((byDefault as Error).message).toBe(
      ID_REFUSAL +
        '  - InputIdResolver.read (Query.read) declares the arguments "id", "id.id", "id.version" but none of them is the resource id: the ' +
        'default is an argument named "id" holding one id. Fix: Set resourceIdParam to the argument that holds the id of the record checked ' +
        `(one of "id.id", "id.version"), ${OPT_OUT}`,
    );
    const named = await startFailure({ resolvers: [NamedInputResolver] });
    expect((named as Error).message).toBe(
      ID_REFUSAL +
        '  - NamedInputResolver.byInput (Query.byInput) takes the resource id from the argument "key", which is a list or an input object, ' +
        `not one id. Fix: Take the id from an argument of a scalar type (Int, ID, String) ${OPT_OUT}`,
    );
  });

  it('a guarded subscription stops the start; one marked @SkipPermissions() does not', async () => {
    const error = await startFailure({ resolvers: [SubscriptionResolver] });
    expect((error as Error).message).toBe(
      ID_REFUSAL +
        '  - SubscriptionResolver.documentChanged (Subscription.documentChanged) is a subscription, which the permissions guard cannot ' +
        'check per event. Fix: mark it @SkipPermissions() and check each event with PermissionsService.grantPermit() in its filter or ' +
        'resolve function.',
    );
    const app = await bootApp({ resolvers: [SkippedSubscriptionResolver] });
    await expect(app.init()).resolves.toBe(app);
    await app.close();
  });
}

function warningsAndUncheckedResolvers(): void {
  it('a returned object type with non-null fields is a warning naming them', async () => {
    const warn = jest.fn<(message: string) => void>();
    const app = await bootApp({ resolvers: [StrictDocumentResolver], permissions: { logger: { warn } } });
    await app.init();
    expect(warn.mock.calls).toEqual([
      [
        'typed-permissions: StrictDocumentResolver.strictDocument (Query.strictDocument) returns non-null fields (BootStrictDocument.id): an ' +
          'attribute a permit hides resolves to null, which a non-null field turns into an error for its whole parent. Make them nullable ' +
          '(@Field({ nullable: true })).',
      ],
    ]);
    await app.close();
  });

  it('strict: true turns the non-null field warning into a refusal to start', async () => {
    const warn = jest.fn<(message: string) => void>();
    const error = await startFailure({ resolvers: [StrictDocumentResolver], permissions: { strict: true, logger: { warn } } });
    expect(error).toBeInstanceOf(PermissionsUsageError);
    expect((error as Error).message).toBe(
      'Guarded handlers that are misconfigured (strict mode):\n' +
        '  - StrictDocumentResolver.strictDocument (Query.strictDocument) returns non-null fields (BootStrictDocument.id): an attribute a ' +
        'permit hides resolves to null, which a non-null field turns into an error for its whole parent. Make them nullable ' +
        '(@Field({ nullable: true })).',
    );
    expect(warn).not.toHaveBeenCalled();
  });

  it("a guarded resolver whose module the GraphQL module's include leaves out is not checked", async () => {
    const warn = jest.fn<(message: string) => void>();
    const app = await createApp({
      imports: [
        fixtureGraphQLModule({ include: [ServedModule] }),
        PermissionsModule.forRoot({ extractUserFromRequest: gqlUserFromHeader, definitions: [...DEFINITIONS], logger: { warn } }),
        ServedModule,
        NotServedModule,
      ],
    });
    // SearchResolver alone stops the start (first test); left out of the schema, it is never called.
    await app.init();
    const answer = await postGraphQL(app, '{ served(id: 4) { id title } }', { userId: 1 });
    expect(answer.body).toEqual({ data: { served: { id: 4, title: 'Doc 4' } } });
    const search = await postGraphQL(app, '{ search(text: "a") { id } }', { userId: 1 });
    expect(search.status).toBe(400);
    expect(search.body.errors?.map((e) => [e.message, e.extensions.code])).toEqual([
      ['Cannot query field "search" on type "Query". Did you mean "health"?', 'GRAPHQL_VALIDATION_FAILED'],
    ]);
    expect(warn).not.toHaveBeenCalled();
    await app.close();
  });

  it('an application without a GraphQL module starts with a guarded resolver among its providers', async () => {
    const warn = jest.fn<(message: string) => void>();
    // SearchResolver would stop the start of an application that serves it.
    const app = await bootApp({ graphql: false, resolvers: [SearchResolver, ServedResolver], permissions: { logger: { warn } } });
    await expect(app.init()).resolves.toBe(app);
    expect(warn).not.toHaveBeenCalled();
    await app.close();
  });
}

describe('an inherited resolver method is resolved per resolver class', () => {
  it.each([
    ['by id first', [InheritedByIdResolver, InheritedByKeyResolver]],
    ['by key first', [InheritedByKeyResolver, InheritedByIdResolver]],
  ])('the class whose guard names an argument the field lacks stops the start (%s)', async (_order, resolvers) => {
    const error = await startFailure({ resolvers });
    expect(error).toBeInstanceOf(PermissionsUsageError);
    expect((error as Error).message).toBe(
      ID_REFUSAL +
        '  - InheritedByKeyResolver.read (Query.inheritedRead) takes the resource id from argument "documentId" (set on the guard), which it ' +
        `does not declare (it declares "id"). Fix: Set resourceIdParam to one of "id", ${OPT_OUT}`,
    );
  });
});
