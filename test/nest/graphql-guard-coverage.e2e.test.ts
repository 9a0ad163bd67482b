/**
 * What the permissions guard covers on GraphQL: a guarded @ResolveField (with fieldResolverEnhancers: guards)
 * is refused while one marked @SkipPermissions() resolves, and @GetPermit() on a resolver no permissions
 * guard covers stops the start, naming the resolver method and the fix.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PermissionsUsageError } from '../../runtime/permissions/index.js';
import { createApp, startApp, type TestApp } from './fixtures/documents.fixture.js';
import { gqlDocumentsModule, postGraphQL } from './fixtures/graphql/graphql-app.fixture.js';
import { GqlHandlerLog } from './fixtures/graphql/graphql-documents.data.js';
import { GqlDocumentsResolver, GqlFoldersResolver, GqlUnguardedResolver } from './fixtures/graphql/graphql-documents.resolvers.js';

describe('permissions guard on GraphQL field resolvers (fieldResolverEnhancers: guards)', () => {
  let app: TestApp;
  let log: GqlHandlerLog;

  beforeAll(async () => {
    app = await startApp(gqlDocumentsModule({ resolvers: [GqlFoldersResolver], graphql: { fieldResolverEnhancers: ['guards'] } }));
    log = app.get(GqlHandlerLog);
  });

  afterAll(async () => {
    await app.close();
  });

  it('a guarded @ResolveField is refused (INTERNAL_SERVER_ERROR, not run); one marked @SkipPermissions() resolves', async () => {
    const answer = await postGraphQL(app, '{ folder(id: 7) { id name owner label } }', { userId: 1 });
    expect(answer.body).toEqual({
      data: { folder: { id: 7, name: 'Folder 7', owner: null, label: 'F7' } },
      errors: [
        { message: 'Internal server error', locations: [{ line: 1, column: 27 }], path: ['folder', 'owner'], extensions: { code: 'INTERNAL_SERVER_ERROR' } },
      ],
    });
    expect(log.ran).toEqual(['label']);
  });
});

describe('@GetPermit() on a resolver no permissions guard covers', () => {
  it('stops the start, naming the resolver method and the fix', async () => {
    const app = await createApp(gqlDocumentsModule({ resolvers: [GqlDocumentsResolver, GqlUnguardedResolver] }));
    const failure = await app.init().then(
      () => undefined,
      (error: unknown) => error,
    );
    await app.close();
    expect(failure).toBeInstanceOf(PermissionsUsageError);
    expect((failure as Error).message).toBe(
      'Handlers inject @GetPermit() but no permissions guard gives them a permit, so every request would fail; the application does not start:\n' +
        '  - GqlUnguardedResolver.permitWithoutGuard injects @GetPermit(), but no permissions guard covers it. Fix: add ' +
        '@UseGuards(createPermissionsGuard(…)) to the class or the method (or register one as APP_GUARD).',
    );
  });
});
