/**
 * The integration kit (`typed-permissions/integration`), through its public entry only, as a new integration
 * uses it: where a route's record id comes from, the id a request names (or its 400 answer), the decision
 * (permit and headers, or the 403 answer), any other error as an answer (401, 500 with nothing of the error),
 * and the engine an integration is given.
 */
import { describe, expect, it } from '@jest/globals';
import {
  Permissions,
  PermissionsHookError,
  PermissionsInvalidIdError,
  PermissionsUsageError,
  type DecisionEvent,
  type PermissionDefinition,
} from 'typed-permissions';
import {
  answerOfError,
  checkPermitOptions,
  checkPermitRoute,
  decideRequest,
  decisionHeaders,
  errorAnswer,
  errorOfThrown,
  forbiddenReason,
  permissionsEngineOf,
  projectRequestId,
  rawResourceIdOf,
  resolveRoute,
  serverErrorReporter,
  ThrownValueError,
  type IntegrationFactory,
} from 'typed-permissions/integration';

type AppUser = { id: number; roles: string[] };
const DEFINITIONS: PermissionDefinition[] = [
  { roles: ['EMPLOYEE'], resource: 'document', possession: 'own', grant: { read: ['*'] }, isOwner: 'isCreator', listOwned: 'listCreated' },
  { roles: ['ADMIN'], resource: 'document', grant: ['*:any'] },
];
const employee: AppUser = { id: 1, roles: ['EMPLOYEE'] };

function engine(onDecision?: (event: DecisionEvent) => void, failing = false): Permissions<AppUser> {
  const ownership = {
    isCreator: ({ user, resourceId }: { user: AppUser; resourceId: unknown }) => {
      if (failing) throw new Error('the database is down');
      return user.id === 1 && resourceId === 10;
    },
    listCreated: ({ user }: { user: AppUser }) => (user.id === 1 ? [10] : []),
  };
  return new Permissions<AppUser>({ ownership, resourceIdTypes: { document: 'number' }, ...(onDecision === undefined ? {} : { onDecision }) })
    .addPermissions(DEFINITIONS, { source: 'kit rules' })
    .build();
}

describe('decideRequest', () => {
  it('a granted query: the permit and the decision headers of that permit', async () => {
    const decision = await decideRequest(engine(), { user: employee, resource: 'document', action: 'read', resourceId: '10' }, 'kit');
    if (!decision.granted) throw new Error('expected a grant');
    expect([decision.permit.granted, decision.permit.resourceId]).toEqual([true, 10]);
    expect(decision.headers).toEqual({ 'x-permissions-version': decision.permit.policyVersion, 'x-permissions-call-id': decision.permit.callId });
  });

  it('a refused query: the 403 answer as data, with the refusing permit and its headers', async () => {
    const decision = await decideRequest(engine(), { user: employee, resource: 'document', action: 'read', resourceId: '11' }, 'kit');
    if (decision.granted) throw new Error('expected a refusal');
    // The employee reads own documents only, and 11 is not theirs: the body says so, as the permit does.
    expect(decision.permit?.reason).toBe('not-owner');
    expect(decision.answer).toEqual({
      status: 403,
      body: { statusCode: 403, error: 'Forbidden', message: 'read on document is not granted', reason: 'not-owner' },
    });
    expect(JSON.stringify(decision.answer.body)).toBe(
      '{"statusCode":403,"error":"Forbidden","message":"read on document is not granted","reason":"not-owner"}',
    );
    expect(decision.headers).toEqual(decisionHeaders(decision.permit as NonNullable<typeof decision.permit>));
  });

  it('a 403 body shows no-grant or not-owner only: an unknown role, resource or action is the server’s to know', async () => {
    const permissions = engine();
    const refused = async (user: AppUser, resource: string, action: string, resourceId?: string) => {
      const decision = await decideRequest(permissions, { user, resource, action, ...(resourceId === undefined ? {} : { resourceId }) }, 'kit');
      if (decision.granted || decision.permit === undefined) throw new Error('expected a refusal with a permit');
      return [decision.permit.reason, (decision.answer.body as { reason?: unknown }).reason];
    };
    expect(await refused(employee, 'document', 'delete')).toEqual(['no-grant', 'no-grant']);
    expect(await refused(employee, 'document', 'read', '11')).toEqual(['not-owner', 'not-owner']);
    expect(await refused({ id: 2, roles: ['GHOST'] }, 'document', 'read')).toEqual(['unknown-role', 'no-grant']);
    expect(await refused(employee, 'invoice', 'read')).toEqual(['unknown-resource', 'no-grant']);
    expect(await refused(employee, 'document', 'archive')).toEqual(['unknown-action', 'no-grant']);
    expect(forbiddenReason('unknown-tenant')).toBe('no-grant');
    expect(forbiddenReason('granted-any')).toBe('no-grant');
  });

  it('an id that is no id of the resource: the 400 answer, nothing decided, no headers', async () => {
    const decision = await decideRequest(engine(), { user: employee, resource: 'document', action: 'read', resourceId: '010' }, 'kit');
    expect(decision).toEqual({
      granted: false,
      permit: undefined,
      headers: undefined,
      answer: {
        status: 400,
        body: {
          statusCode: 400,
          error: 'Bad Request',
          message: '"010" is not an id of "document": its ids are an integer written in decimal without leading zeros, within ±9007199254740991 (such as 42).',
        },
      },
    });
  });

  it("a tenant that is no string is the application's mistake: a usage error naming every integration's tenant option", async () => {
    const query = { user: employee, resource: 'document', action: 'read', tenant: 42 } as unknown as Parameters<typeof decideRequest>[1];
    await expect(decideRequest(engine(), query, 'kit')).rejects.toEqual(
      new PermissionsUsageError(
        'The tenant of a request must be a tenant id (a string) or undefined, got number: check what the tenant option returns ' +
          '(getTenant; extractTenantFromRequest in NestJS).',
      ),
    );
  });

  it('a failing ownership hook rejects; answerOfError makes it a 500 with nothing of the error', async () => {
    const decided = decideRequest(engine(undefined, true), { user: employee, resource: 'document', action: 'read', resourceId: '10' }, 'kit');
    const error = await decided.then(
      () => undefined,
      (rejected: unknown) => rejected,
    );
    expect(error).toBeInstanceOf(PermissionsHookError);
    expect(answerOfError(error)).toEqual({
      status: 500,
      body: { statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' },
      serverError: true,
    });
  });
});

describe('projectRequestId', () => {
  it('no raw id is a collection check; without a projection the text goes to the decision', () => {
    expect([projectRequestId(undefined, 'document', undefined), projectRequestId('10', 'document', undefined)]).toEqual([
      { resourceId: undefined },
      { resourceId: '10' },
    ]);
  });

  it("a projection's id is taken; its undefined or null is a 400 answer; anything else it throws is thrown on", () => {
    const digits = (raw: string) => (/^\d+$/.test(raw) ? Number(raw) : undefined);
    expect(projectRequestId('7', 'document', digits)).toEqual({ resourceId: 7 });
    expect(projectRequestId('x7', 'document', digits)).toEqual({
      answer: { status: 400, body: { statusCode: 400, error: 'Bad Request', message: '"x7" is not an id of "document".' } },
    });
    expect(projectRequestId('x7', 'document', () => null)).toEqual({
      answer: { status: 400, body: { statusCode: 400, error: 'Bad Request', message: '"x7" is not an id of "document".' } },
    });
    const own = Object.assign(new Error('not found'), { status: 404 });
    expect(() =>
      projectRequestId('x7', 'document', () => {
        throw own;
      }),
    ).toThrow(own);
  });
});

describe('answers as data', () => {
  it('errorAnswer names the status; one without a name here is "Error"', () => {
    expect([errorAnswer(401, 'Unknown user'), errorAnswer(418, 'short and stout')]).toEqual([
      { status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'Unknown user' } },
      { status: 418, body: { statusCode: 418, error: 'Error', message: 'short and stout' } },
    ]);
  });

  it('answerOfError: 400 for an invalid id, the 4xx an error carries (401), 500 for anything else (a redirect status, a thrown string)', () => {
    const unknownCaller = Object.assign(new Error('Unknown user 77'), { status: 401 });
    const viaStatusCode = Object.assign(new Error('slow down'), { statusCode: 429 });
    const redirect = Object.assign(new Error('elsewhere'), { status: 302 });
    const internal = { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' }, serverError: true };
    expect([
      answerOfError(new PermissionsInvalidIdError('document', '"x" is not an id of "document".')),
      answerOfError(unknownCaller),
      answerOfError(viaStatusCode),
      answerOfError(redirect),
      answerOfError('db-7 is down'),
      answerOfError(null),
    ]).toEqual([
      { status: 400, body: { statusCode: 400, error: 'Bad Request', message: '"x" is not an id of "document".' }, serverError: false },
      { status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'Unknown user 77' }, serverError: false },
      { status: 429, body: { statusCode: 429, error: 'Too Many Requests', message: 'slow down' }, serverError: false },
      internal,
      internal,
      internal,
    ]);
  });

  it('answerOfError and errorOfThrown never throw: a value whose getters or Proxy traps throw is a 500, wrapped when it is no Error', () => {
    const failingGetter = () => {
      throw new Error('cannot compute status: db-7.internal:5432 down');
    };
    const statusCodeGetter = Object.defineProperty(new Error('session store down'), 'statusCode', { get: failingGetter });
    const statusGetter = Object.defineProperty(new Error('session store down'), 'status', { get: failingGetter });
    const messageGetter = Object.defineProperty(Object.assign(new Error('x'), { status: 401 }), 'message', { get: failingGetter });
    const noPrototype = new Proxy({}, { getPrototypeOf: failingGetter });
    const noProperty = new Proxy(new Error('x'), { get: failingGetter });
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();
    const internal = { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' }, serverError: true };
    for (const hostile of [statusCodeGetter, statusGetter, messageGetter, noPrototype, noProperty, revoked]) {
      expect(answerOfError(hostile)).toEqual(internal);
      expect(answerOfError(errorOfThrown(hostile))).toEqual(internal);
    }
    expect(errorOfThrown(statusCodeGetter)).toBe(statusCodeGetter);
    const wrapped = errorOfThrown(noPrototype);
    expect([wrapped instanceof ThrownValueError, (wrapped as ThrownValueError).thrown === noPrototype, wrapped.message]).toEqual([
      true,
      true,
      'The application threw object, which is not an Error.',
    ]);
    expect(errorOfThrown(revoked).message).toBe('The application threw a value that cannot be read, which is not an Error.');
  });
});

describe('resolveRoute and rawResourceIdOf', () => {
  it('the id is the last parameter named id; a route without parameters is a collection check', () => {
    const read = resolveRoute({ label: 'GET /documents/:id', path: '/documents/:id', resourceIdParam: undefined });
    const list = resolveRoute({ label: 'GET /documents', path: '/documents', resourceIdParam: undefined });
    expect([rawResourceIdOf(read, { id: '10' }), rawResourceIdOf(list, {})]).toEqual(['10', undefined]);
  });

  it('an ambiguous route resolves to a problem, which a request is refused with (never checked as a collection)', () => {
    const nested = resolveRoute({ label: 'GET /users/:id/documents/:docId', path: '/users/:id/documents/:docId', resourceIdParam: undefined });
    expect(() => rawResourceIdOf(nested, { id: '1', docId: '10' })).toThrow(
      new PermissionsUsageError(
        'GET /users/:id/documents/:docId ("/users/:id/documents/:docId") declares the parameters "id", "docId" but none of them is the resource id: ' +
          'the default "id" counts only as the last parameter, so the permissions check cannot tell which record it is about. Set resourceIdParam ' +
          'to the parameter that holds the id of the record checked (one of "id", "docId"), or opt out with resourceIdParam: null if this handler ' +
          'does not act on one record.',
      ),
    );
    const named = resolveRoute({ label: 'GET /users/:id/documents/:docId', path: '/users/:id/documents/:docId', resourceIdParam: 'docId' });
    expect(rawResourceIdOf(named, { id: '1', docId: '10' })).toBe('10');
  });

  it('parameters from outside the route are never the id by default, and a parameter nobody declared is refused', () => {
    const inherited = resolveRoute({ label: 'GET /', path: '/', resourceIdParam: undefined, inheritedParams: ['userId'] });
    expect(() => rawResourceIdOf(inherited, { userId: '1' })).toThrow(/has no path parameter of its own, but receives "userId" from a parent router/);
    const read = resolveRoute({ label: 'GET /documents/:id', path: '/documents/:id', resourceIdParam: undefined });
    expect(() => rawResourceIdOf(read, { id: '10', tenant: 'a' })).toThrow(
      new PermissionsUsageError(
        'GET /documents/:id received the path parameter "tenant", which its paths "/documents/:id" do not declare; the permissions check refuses ' +
          'a request whose resource id it did not resolve at start. Declare the parameter on the route (or set resourceIdParam explicitly).',
      ),
    );
  });

  it("a router's own path syntax is read by the reader its integration passes (pathParams), not as Express's", () => {
    // Hono's optional parameter: Express's reader cannot parse '/documents/:id?' and would count "id" as required.
    const optional = (path: string) => (path === '/documents/:id?' ? [{ name: 'id', optional: true, wildcard: false }] : []);
    const byDefault = resolveRoute({ label: 'GET /documents/:id?', path: '/documents/:id?', resourceIdParam: undefined });
    const read = resolveRoute({ label: 'GET /documents/:id?', path: '/documents/:id?', resourceIdParam: undefined, pathParams: optional });
    expect([byDefault.resourceId, read.resourceId]).toEqual([
      { kind: 'param', name: 'id', optional: false },
      { kind: 'param', name: 'id', optional: true },
    ]);
    expect([rawResourceIdOf(read, { id: '10' }), rawResourceIdOf(read, {})]).toEqual(['10', undefined]);
    expect(() => rawResourceIdOf(byDefault, {})).toThrow('takes the resource id from path parameter "id", but the request has none');
  });

  it("a router with a path syntax of its own passes its reader; the default reader is Express's", () => {
    // A reader of a syntax where a trailing '?' makes the last parameter optional.
    const optionalLast = (path: string) =>
      [...path.matchAll(/:(\w+)(\?)?/g)].map((match) => ({ name: match[1] as string, optional: match[2] === '?', wildcard: false }));
    const own = resolveRoute({ label: 'GET /files/:id?', path: '/files/:id?', resourceIdParam: undefined, pathParams: optionalLast });
    expect(own.resourceId).toEqual({ kind: 'param', name: 'id', optional: true });
    expect([rawResourceIdOf(own, {}), rawResourceIdOf(own, { id: '7' })]).toEqual([undefined, '7']);
    const prefixed = resolveRoute({ label: 'GET /users/:userId', path: '', resourceIdParam: undefined, inheritedParams: ['userId'], pathParams: optionalLast });
    expect(prefixed.resourceId).toHaveProperty('problem');
    // Read as Express's syntax, the same path has no optional parameter.
    expect(resolveRoute({ label: 'GET /files/:id?', path: '/files/:id?', resourceIdParam: undefined }).resourceId).toEqual({
      kind: 'param',
      name: 'id',
      optional: false,
    });
  });
});

describe('permissionsEngineOf', () => {
  it('takes a Permissions or a typed engine (its plain engine), and refuses anything else or an engine without a policy', () => {
    const permissions = engine();
    expect(permissionsEngineOf(permissions, 'kit()')).toBe(permissions);
    expect(permissionsEngineOf(permissions.typed<{ resources: { document: { actions: 'read'; id: number } } }>(), 'kit()')).toBe(permissions);
    expect(() => permissionsEngineOf({} as never, 'kit()')).toThrow(
      new PermissionsUsageError('kit(): options.permissions must be what createPermissions() returns, or a Permissions instance (see initPermissions).'),
    );
    expect(() => permissionsEngineOf(new Permissions(), 'kit()')).toThrow(
      new PermissionsUsageError('kit(): options.permissions is not built; call permissions.build() at boot (or use initPermissions) first.'),
    );
  });
});

describe('checkPermitOptions: the options of a permit factory, in the words of the integration that made it', () => {
  const koa: IntegrationFactory = { name: 'createKoaPermit', receives: 'ctx' };
  const getUser = (): AppUser => employee;

  it('returns the engine (unwrapped from a typed one) and the options as given', () => {
    const permissions = engine();
    const projectResourceId = (raw: string) => Number(raw);
    const checked = checkPermitOptions(
      { permissions: permissions.typed<{ resources: { document: { actions: 'read'; id: number } } }>(), getUser, projectResourceId },
      koa,
    );
    expect(checked).toEqual({ permissions, getUser, resource: undefined, projectResourceId });
    expect(checkPermitOptions({ permissions, getUser, resource: 'document' }, koa).resource).toBe('document');
  });

  it('refuses one mistake at a time, in order: options, engine, getUser, projectResourceId; naming the factory and what getUser is given', () => {
    const permissions = engine();
    const refusal = (options: unknown, factory: IntegrationFactory = koa) => {
      try {
        checkPermitOptions(options as never, factory);
      } catch (error) {
        return [(error as Error).constructor.name, (error as Error).message];
      }
      return 'accepted';
    };
    expect(refusal(null)).toEqual([
      PermissionsUsageError.name,
      'createKoaPermit(options): options must be an object { permissions, getUser, getTenant?, resource?, projectResourceId? }.',
    ]);
    expect(refusal('options', { ...koa, extraOptions: ['onServerError?', 'logLevel'] })).toEqual([
      PermissionsUsageError.name,
      'createKoaPermit(options): options must be an object { permissions, getUser, getTenant?, resource?, projectResourceId?, onServerError?, logLevel }.',
    ]);
    expect(refusal({ permissions: {}, getUser: 'user', projectResourceId: 1 })).toEqual([
      PermissionsUsageError.name,
      'createKoaPermit(): options.permissions must be what createPermissions() returns, or a Permissions instance (see initPermissions).',
    ]);
    expect(refusal({ permissions, getUser: 'user', projectResourceId: 1 })).toEqual([
      PermissionsUsageError.name,
      'createKoaPermit(): options.getUser must be a function (ctx) => user.',
    ]);
    expect(refusal({ permissions, getUser, projectResourceId: null })).toEqual([
      PermissionsUsageError.name,
      'createKoaPermit(): options.projectResourceId must be a function (raw, { resource }) => id | undefined.',
    ]);
    // The default resource is the routes' to check: a route of its own resource does not need it.
    expect(refusal({ permissions, getUser, resource: 42 })).toBe('accepted');
  });
});

describe('checkPermitRoute: the argument of permit(route)', () => {
  it("resolves the action, the route's resource or the factory's, and the id parameter setting", () => {
    expect(checkPermitRoute({ action: 'read' }, 'document', 'createKoaPermit')).toEqual({ action: 'read', resource: 'document', resourceIdParam: undefined });
    expect(checkPermitRoute({ action: 'delete', resource: 'note', resourceIdParam: 'noteId' }, 'document', 'createKoaPermit')).toEqual({
      action: 'delete',
      resource: 'note',
      resourceIdParam: 'noteId',
    });
    expect(checkPermitRoute({ action: 'list', resourceIdParam: null }, 'document', 'createKoaPermit')).toEqual({
      action: 'list',
      resource: 'document',
      resourceIdParam: null,
    });
  });

  it('refuses a route without an action, without a resource anywhere, or with an id parameter that is no name — hostile values included', () => {
    const ROUTE = 'permit(route): route must be an object { action, resource?, resourceIdParam? } with a non-empty action.';
    for (const route of [undefined, null, 'read', [], {}, { action: '' }, { action: 7 }])
      expect(() => checkPermitRoute(route, 'document', 'createKoaPermit')).toThrow(new PermissionsUsageError(ROUTE));
    for (const [resource, fallback] of [
      [undefined, undefined],
      ['', 'document'],
      [undefined, ''],
      [undefined, 42],
    ])
      expect(() => checkPermitRoute({ action: 'read', resource }, fallback, 'createKoaPermit')).toThrow(
        new PermissionsUsageError('permit({ action: "read" }): no resource; pass resource here or to createKoaPermit.'),
      );
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const [setting, got] of [
      ['', '""'],
      [7, '7'],
      [{ name: 'id' }, '{"name":"id"}'],
      // What JSON cannot write is described instead of failing with a TypeError.
      [10n, 'bigint'],
      [cycle, 'object'],
    ] as const)
      expect(() => checkPermitRoute({ action: 'read', resourceIdParam: setting }, 'document', 'createKoaPermit')).toThrow(
        new PermissionsUsageError(`permit(): resourceIdParam must be a parameter name or null, got ${got}.`),
      );
  });
});

describe('serverErrorReporter: the error of a 500 to the application, guarded', () => {
  const koa = { name: 'koaPermissions', receives: 'ctx' };

  it("hands the error and the request to the application's reporter, else to the fallback", () => {
    const seen: unknown[] = [];
    serverErrorReporter<[string]>(
      (error, ctx) => void seen.push(['app', error, ctx]),
      () => void seen.push('fallback'),
      koa,
    )('boom', 'GET /');
    serverErrorReporter<[string]>(undefined, (error, ctx) => void seen.push(['fallback', error, ctx]), koa)('boom', 'GET /');
    expect(seen).toEqual([
      ['app', 'boom', 'GET /'],
      ['fallback', 'boom', 'GET /'],
    ]);
  });

  it('a reporter that throws, or whose promise rejects, is never thrown on; a rejection is handled', () => {
    const throwing = serverErrorReporter<[]>(
      () => {
        throw new Error('the log shipper is down');
      },
      () => undefined,
      koa,
    );
    expect(() => throwing(new Error('boom'))).not.toThrow();
    // A thenable that records whether a rejection handler was attached to it.
    let onRejected: unknown;
    const thenable = { then: (_onFulfilled: unknown, rejected: unknown) => void (onRejected = rejected) };
    serverErrorReporter<[]>(
      () => thenable,
      () => undefined,
      koa,
    )(new Error('boom'));
    expect(typeof onRejected).toBe('function');
    // A thenable whose then throws, and a reporter returning one whose then is no function, are dropped too.
    const brokenThen = {
      then: () => {
        throw new Error('broken');
      },
    };
    expect(() =>
      serverErrorReporter<[]>(
        () => brokenThen,
        () => undefined,
        koa,
      )(new Error('boom')),
    ).not.toThrow();
    expect(() =>
      serverErrorReporter<[]>(
        () => ({ then: 1 }),
        () => undefined,
        koa,
      )(new Error('boom')),
    ).not.toThrow();
  });

  it('refuses a reporter that is not a function when the integration is made', () => {
    for (const onServerError of [null, 'log', {}])
      expect(() => serverErrorReporter(onServerError as never, () => undefined, koa)).toThrow(
        new PermissionsUsageError('koaPermissions(): options.onServerError must be a function (error, ctx) => void.'),
      );
  });
});

describe('the entry', () => {
  it('documents every export with an example (integration authors read the kit through its TSDoc)', async () => {
    const { default: ts } = await import('typescript');
    const entry = new URL('../../runtime/integration/index.ts', import.meta.url).pathname;
    const program = ts.createProgram([entry], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true });
    const checker = program.getTypeChecker();
    const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(entry) as import('typescript').SourceFile);
    const undocumented = checker
      .getExportsOfModule(moduleSymbol as import('typescript').Symbol)
      .filter((symbol) => {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        return !(target.declarations ?? []).some((declaration) => ts.getJSDocTags(declaration).some((tag) => tag.tagName.text === 'example'));
      })
      .map((symbol) => symbol.name);
    expect(undocumented).toEqual([]);
  }, 60_000);
});
