/**
 * How the permissions module gathers and builds definitions at start: forRoot, forFeature and the
 * guards controllers use all take effect; invalid definitions and missing hook methods fail
 * app.init(); forRootAsync; precompiled tables; start-time checks of guarded handlers.
 */
import { describe, expect, it } from '@jest/globals';
import { Controller, Get, Inject, Injectable, Module, UseGuards } from '@nestjs/common';
import request from 'supertest';
import { PermissionDefinitionError, Permissions, PermissionsUsageError, type PermissionDefinition } from '../../runtime/permissions/index.js';
import {
  createPermissionsGuard,
  GetPermit,
  PERMISSIONS_OWNERSHIP_SERVICE_TOKEN,
  PermissionsModule,
  PermissionsService,
  SkipPermissions,
} from '../../runtime/nest/index.js';
import {
  collectingLogger,
  createApp,
  DOCUMENT_DEFINITIONS,
  HandlerLog,
  InMemoryOwnership,
  integerId,
  makeDocumentsController,
  startApp,
  userFromHeader,
  type TestUser,
} from './fixtures/documents.fixture.js';

const ownershipProvider = { provide: PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, useClass: InMemoryOwnership };

/** Rejects with the error app.init() fails with. */
async function initError(app: { init(): Promise<unknown> }): Promise<unknown> {
  try {
    await app.init();
  } catch (error) {
    return error;
  }
  throw new Error('app.init() was expected to reject, but it succeeded');
}

describe('definitions from forRoot, forFeature and guards', () => {
  const SOURCES_USERS: Record<number, TestUser> = {
    1: { id: 1, roles: ['ROOT_READER'] },
    2: { id: 2, roles: ['GUARD_LISTER'] },
    3: { id: 3, roles: ['NOTE_READER'] },
    4: { id: 4, roles: ['NOTE_LISTER'] },
  };
  const rootDefinitions: PermissionDefinition[] = [
    { roles: ['ROOT_READER'], resource: 'document', grant: ['read:any'] },
    { roles: ['AUDITOR'], resource: 'audit-log', grant: ['read:any'] },
  ];
  const documentsGuard = createPermissionsGuard({ resource: 'document' }, [{ roles: ['GUARD_LISTER'], resource: 'document', grant: ['list:any'] }]);
  const notesGuard = createPermissionsGuard({ resource: 'note' }, [{ roles: ['NOTE_READER'], resource: 'note', grant: ['read:any'] }]);
  // Created, but no controller uses it: its (invalid) definition must not count.
  createPermissionsGuard({ resource: 'note' }, [{ roles: ['NOBODY'], resource: 'note', grant: ['read:mine'] }]);

  @Controller('notes')
  @UseGuards(notesGuard)
  class NotesController {
    @Get()
    list(@GetPermit() permit: { action: string }): { action: string } {
      return { action: permit.action };
    }

    @Get(':id')
    read(@GetPermit() permit: { action: string; resourceId: unknown }): { action: string; resourceId: unknown } {
      return { action: permit.action, resourceId: permit.resourceId };
    }
  }

  @Module({
    imports: [PermissionsModule.forFeature([{ roles: ['NOTE_LISTER'], resource: 'note', grant: ['list:any'] }])],
    controllers: [NotesController],
  })
  class NotesModule {}

  it('all take effect equally, and an unused guard adds nothing', async () => {
    const { warnings, logger } = collectingLogger();
    const app = await startApp({
      imports: [
        PermissionsModule.forRoot({
          extractUserFromRequest: userFromHeader(SOURCES_USERS),
          projectResourceId: integerId,
          definitions: rootDefinitions,
          logger,
        }),
        NotesModule,
      ],
      controllers: [makeDocumentsController(documentsGuard)],
      providers: [HandlerLog, ownershipProvider],
    });
    try {
      const server = app.getHttpServer();
      const expectations: [path: string, user: number, status: number][] = [
        ['/documents/1', 1, 200], // forRoot
        ['/documents', 1, 403],
        ['/documents', 2, 200], // guard on the documents controller
        ['/documents/1', 2, 403],
        ['/notes/7', 3, 200], // guard on the notes controller
        ['/notes', 3, 403],
        ['/notes', 4, 200], // forFeature
        ['/notes/7', 4, 403],
      ];
      const statuses: [string, number, number][] = [];
      for (const [path, user] of expectations) statuses.push([path, user, (await request(server).get(path).set('x-user-id', String(user))).status]);
      expect(statuses).toEqual(expectations);
      const sources = new Set(app.get(PermissionsService).permissions.tables.definitions.map((d) => d.source));
      expect(sources).toEqual(
        new Set([
          'PermissionsModule.forRoot({ definitions })',
          'PermissionsModule.forFeature() in NotesModule',
          'createPermissionsGuard({ resource: "document" }) used by DocumentsController',
          'createPermissionsGuard({ resource: "note" }) used by NotesController',
        ]),
      );
      expect(warnings).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe('one definitions array shared by two guards', () => {
  it('is added once', async () => {
    const { warnings, logger } = collectingLogger();
    const shared: PermissionDefinition[] = [...DOCUMENT_DEFINITIONS];
    const app = await startApp({
      imports: [PermissionsModule.forRoot({ extractUserFromRequest: userFromHeader(), logger })],
      controllers: [
        makeDocumentsController(createPermissionsGuard({ resource: 'document' }, shared)),
        makeDocumentsController(createPermissionsGuard({ resource: 'document' }, shared), 'documents-again'),
      ],
      providers: [HandlerLog, ownershipProvider],
    });
    try {
      expect(app.get(PermissionsService).permissions.tables.definitions).toHaveLength(shared.length);
      expect(warnings).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe('start fails on bad definitions', () => {
  it('an invalid definition makes app.init() reject with PermissionDefinitionError naming the guard', async () => {
    const guard = createPermissionsGuard({ resource: 'document' }, [{ roles: ['EMPLOYEE'], resource: 'document', grant: ['read:mine'] }]);
    const app = await createApp({
      imports: [PermissionsModule.forRoot({ extractUserFromRequest: userFromHeader() })],
      controllers: [makeDocumentsController(guard)],
      providers: [HandlerLog, ownershipProvider],
    });
    const error = await initError(app);
    expect(error).toBeInstanceOf(PermissionDefinitionError);
    const problems = (error as PermissionDefinitionError).problems;
    expect(problems.map((p) => [p.code, p.index, p.source, p.path])).toEqual([
      ['bad-possession', 0, 'createPermissionsGuard({ resource: "document" }) used by DocumentsController', ['grant', 0]],
    ]);
  });

  it('a hook string naming a method the ownership service lacks makes app.init() reject naming the method', async () => {
    const app = await createApp({
      imports: [
        PermissionsModule.forRoot({
          extractUserFromRequest: userFromHeader(),
          definitions: [{ roles: ['EMPLOYEE'], resource: 'document', possession: 'own', grant: ['read'], isOwner: 'isAuthor', listOwned: 'listCreated' }],
        }),
      ],
      controllers: [makeDocumentsController(createPermissionsGuard({ resource: 'document' }))],
      providers: [HandlerLog, ownershipProvider],
    });
    const error = await initError(app);
    expect(error).toBeInstanceOf(PermissionDefinitionError);
    expect((error as Error).message).toContain('isOwner names method "isAuthor", which the ownership service (InMemoryOwnership) does not have.');
    expect((error as Error).message).toContain('definitions[0].isOwner (PermissionsModule.forRoot({ definitions }))');
  });

  it('hook strings without any ownership service provided make app.init() reject', async () => {
    const app = await createApp({
      imports: [PermissionsModule.forRoot({ extractUserFromRequest: userFromHeader(), definitions: [...DOCUMENT_DEFINITIONS] })],
      controllers: [makeDocumentsController(createPermissionsGuard({ resource: 'document' }))],
      providers: [HandlerLog],
    });
    const error = await initError(app);
    expect(error).toBeInstanceOf(PermissionDefinitionError);
    expect((error as Error).message).toContain(
      'isOwner names method "isCreator", but no ownership service was given. Fix: Provide the ownership service, with a method isCreator, ' +
        'under PERMISSIONS_OWNERSHIP_SERVICE_TOKEN in any module ({ provide: PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, useClass: YourOwnershipService }), ' +
        'or pass it as the ownership option of PermissionsModule.forRoot().',
    );
    expect((error as Error).message).not.toContain('new Permissions');
  });

  it('an ownership service given both as the module option and under the token stops the start', async () => {
    const app = await createApp({
      imports: [
        PermissionsModule.forRoot({ extractUserFromRequest: userFromHeader(), definitions: [...DOCUMENT_DEFINITIONS], ownership: new InMemoryOwnership() }),
      ],
      controllers: [makeDocumentsController(createPermissionsGuard({ resource: 'document' }))],
      providers: [HandlerLog, ownershipProvider],
    });
    const error = await initError(app);
    expect(error).toBeInstanceOf(PermissionsUsageError);
    expect((error as Error).message).toBe(
      'The ownership service is given twice: as the ownership option of PermissionsModule.forRoot() and under PERMISSIONS_OWNERSHIP_SERVICE_TOKEN; keep one.',
    );
  });

  it('the ownership service may be the module option; every engine option reaches the engine (getResourceId)', async () => {
    const app = await startApp({
      imports: [
        PermissionsModule.forRoot({
          extractUserFromRequest: userFromHeader(),
          definitions: [...DOCUMENT_DEFINITIONS],
          ownership: new InMemoryOwnership(),
          // Items are identified by `key` here: without the option reaching the engine, no item would be owned.
          getResourceId: ({ item }) => (item as { key?: unknown }).key,
          logger: collectingLogger().logger,
        }),
      ],
      controllers: [makeDocumentsController(createPermissionsGuard({ resource: 'document' }))],
      providers: [HandlerLog],
    });
    try {
      const permit = await app.get(PermissionsService).grantPermit({ user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'list' });
      expect(await permit.filterPick([{ key: 1, id: 99, title: 'mine', confidential: 'c' }])).toEqual([{ key: 1, id: 99, title: 'mine' }]);
    } finally {
      await app.close();
    }
  });

  it('a misspelt module option stops the start, naming the options', async () => {
    const error = await createApp({
      imports: [PermissionsModule.forRoot({ extractUserFromRequest: userFromHeader(), definitions: [], limitOwnReduse: () => undefined } as never)],
    }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(PermissionsUsageError);
    expect((error as Error).message).toBe(
      'PermissionsModule.forRoot(): option "limitOwnReduse" does not exist; the options are extractUserFromRequest, extractTenantFromRequest, ' +
        'projectResourceId, definitions, tables, source, follow, tenantRoles, followTenantRoles, ownership, ownershipRules, limitOwnReduce, strict, ' +
        'logger, getResourceId, ' +
        'hookTimeoutMs, ownedAmong, resourceIdTypes, ' +
        'resourceActions, compileProjections, onDecision, decisionLog, telemetry.',
    );
  });
});

describe('the ownership service', () => {
  it('is found when a feature module provides it', async () => {
    @Module({ providers: [ownershipProvider] })
    class OwnershipModule {}
    const app = await startApp({
      imports: [
        PermissionsModule.forRoot({
          extractUserFromRequest: userFromHeader(),
          projectResourceId: integerId,
          definitions: [...DOCUMENT_DEFINITIONS],
          logger: collectingLogger().logger,
        }),
        OwnershipModule,
      ],
      controllers: [makeDocumentsController(createPermissionsGuard({ resource: 'document' }))],
      providers: [HandlerLog],
    });
    try {
      await request(app.getHttpServer()).get('/documents/1').set('x-user-id', '1').expect(200);
      await request(app.getHttpServer()).get('/documents/3').set('x-user-id', '1').expect(403);
    } finally {
      await app.close();
    }
  });
});

describe('PermissionsModule.forRootAsync', () => {
  it('takes its options from a factory with injected providers', async () => {
    @Injectable()
    class AuthConfig {
      readonly users = { 1: { id: 1, roles: ['EMPLOYEE'] } };
    }
    @Module({ providers: [AuthConfig], exports: [AuthConfig] })
    class AuthModule {}

    const app = await startApp({
      imports: [
        PermissionsModule.forRootAsync({
          imports: [AuthModule],
          inject: [AuthConfig],
          useFactory: (config: AuthConfig) =>
            Promise.resolve({
              extractUserFromRequest: userFromHeader(config.users),
              projectResourceId: integerId,
              definitions: [...DOCUMENT_DEFINITIONS],
              logger: collectingLogger().logger,
            }),
        }),
      ],
      controllers: [makeDocumentsController(createPermissionsGuard({ resource: 'document' }))],
      providers: [HandlerLog, ownershipProvider],
    });
    try {
      const own = await request(app.getHttpServer()).get('/documents/2').set('x-user-id', '1').expect(200);
      expect(own.body).toEqual({ id: 2, title: 'Doc 2', date: '2024-01-02', status: 'draft', personal: 'personal 2', creatorId: 1 });
      await request(app.getHttpServer()).get('/documents/3').set('x-user-id', '1').expect(403);
      await request(app.getHttpServer()).get('/documents/2').set('x-user-id', '2').expect(401);
    } finally {
      await app.close();
    }
  });
});

describe('PermissionsModule imported twice', () => {
  // A feature module's own forRoot would be a second engine: its looser policy answered the guards near it (200 for a
  // document the user does not own, where the root's policy refuses).
  it.each([
    [
      'forRoot',
      () =>
        PermissionsModule.forRoot({
          extractUserFromRequest: userFromHeader(),
          definitions: [{ roles: ['EMPLOYEE'], resource: 'document', grant: ['read:any'] }],
        }),
    ],
    [
      'forRootAsync',
      () =>
        PermissionsModule.forRootAsync({
          useFactory: () => ({ extractUserFromRequest: userFromHeader(), definitions: [{ roles: ['EMPLOYEE'], resource: 'document', grant: ['read:any'] }] }),
        }),
    ],
  ])('by a feature module (%s) stops the start, naming the modules', async (_how, second) => {
    const controller = makeDocumentsController(createPermissionsGuard({ resource: 'document' }));
    @Module({ imports: [second()], controllers: [controller], providers: [HandlerLog] })
    class LooseDocumentsModule {}
    @Module({
      imports: [
        PermissionsModule.forRoot({ extractUserFromRequest: userFromHeader(), projectResourceId: integerId, definitions: [...DOCUMENT_DEFINITIONS] }),
        LooseDocumentsModule,
      ],
      providers: [ownershipProvider],
    })
    class RootModule {}
    const app = await createApp({ imports: [RootModule] });
    try {
      const error = await initError(app);
      expect(error).toBeInstanceOf(PermissionsUsageError);
      expect((error as Error).message).toBe(
        'PermissionsModule.forRoot() (or forRootAsync()) is imported 2 times, by LooseDocumentsModule and RootModule: each import makes ' +
          'an engine of its own, with its own policy, and the guards of a module would ask the one nearest to it. Import it once, in the ' +
          'root module (it is global: every module sees it); give the definitions of feature modules with PermissionsModule.forFeature().',
      );
    } finally {
      await app.close();
    }
  });
});

describe('precompiled tables', () => {
  const tables = new Permissions({ ownership: new InMemoryOwnership(), logger: collectingLogger().logger }).addPermissions(DOCUMENT_DEFINITIONS).build().tables;

  it('forRoot({ tables }) answers from the tables', async () => {
    const app = await startApp({
      imports: [
        PermissionsModule.forRoot({ extractUserFromRequest: userFromHeader(), projectResourceId: integerId, tables, logger: collectingLogger().logger }),
      ],
      controllers: [makeDocumentsController(createPermissionsGuard({ resource: 'document' }))],
      providers: [HandlerLog, ownershipProvider],
    });
    try {
      const server = app.getHttpServer();
      const own = await request(server).get('/documents/1').set('x-user-id', '1').expect(200);
      expect(own.body).toEqual({ id: 1, title: 'Doc 1', date: '2024-01-01', status: 'draft', personal: 'personal 1', creatorId: 1 });
      await request(server).get('/documents/3').set('x-user-id', '1').expect(403);
      await request(server).get('/documents').set('x-user-id', '4').expect(403);
    } finally {
      await app.close();
    }
  });

  it('with tables, a hook method the ownership service lacks makes app.init() reject naming the method', async () => {
    const app = await createApp({
      imports: [PermissionsModule.forRoot({ extractUserFromRequest: userFromHeader(), tables })],
      controllers: [makeDocumentsController(createPermissionsGuard({ resource: 'document' }))],
      providers: [HandlerLog, { provide: PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, useValue: { listCreated: () => [], explode: () => false } }],
    });
    const error = await initError(app);
    expect(error).toBeInstanceOf(PermissionDefinitionError);
    expect((error as Error).message).toContain('isOwner names method "isCreator", which the ownership service (Object) does not have.');
  });

  it('with tables, definitions given elsewhere fail start with an error that says to compile them', async () => {
    const guard = createPermissionsGuard({ resource: 'document' }, [{ roles: ['READER'], resource: 'document', grant: ['list:any'] }]);
    const app = await createApp({
      imports: [PermissionsModule.forRoot({ extractUserFromRequest: userFromHeader(), tables })],
      controllers: [makeDocumentsController(guard)],
      providers: [HandlerLog, ownershipProvider],
    });
    const error = await initError(app);
    expect(error).toBeInstanceOf(PermissionsUsageError);
    expect((error as Error).message).toContain('createPermissionsGuard({ resource: "document" }) used by DocumentsController (1)');
    expect((error as Error).message).toContain('Move these definitions into a file in definitions/ and compile again');
  });
});

describe('start-time checks of guarded handlers', () => {
  @Controller('reports')
  @UseGuards(createPermissionsGuard({ resource: 'document' }))
  class ReportsController {
    @Get(':id')
    approve(): string {
      return 'approved';
    }

    @Get()
    read(): string {
      return 'read';
    }
  }

  it('warn about actions never granted', async () => {
    const { warnings, logger } = collectingLogger();
    const app = await startApp({
      imports: [PermissionsModule.forRoot({ extractUserFromRequest: userFromHeader(), definitions: [...DOCUMENT_DEFINITIONS], logger })],
      controllers: [ReportsController],
      providers: [ownershipProvider],
    });
    await app.close();
    expect(warnings).toEqual([
      'typed-permissions: ReportsController.approve checks action "approve" on "document", which no role is ' +
        'granted, so every request is refused (403). Rename the method, set @Permission({ action }), or grant the ' +
        'action.',
    ]);
  });

  it('fail start in strict mode', async () => {
    const app = await createApp({
      imports: [PermissionsModule.forRoot({ extractUserFromRequest: userFromHeader(), definitions: [...DOCUMENT_DEFINITIONS], strict: true })],
      controllers: [ReportsController],
      providers: [ownershipProvider],
    });
    const error = await initError(app);
    expect(error).toBeInstanceOf(PermissionsUsageError);
    expect((error as Error).message).toBe(
      'Guarded handlers that are misconfigured (strict mode):\n  - ReportsController.approve checks action ' +
        '"approve" on "document", which no role is granted, so every request is refused (403). Rename the method, ' +
        'set @Permission({ action }), or grant the action.',
    );
  });
});

describe('a guarded handler asking an action its resource does not declare', () => {
  const ran: string[] = [];

  @Controller('reports')
  @UseGuards(createPermissionsGuard({ resource: 'document' }))
  class ReportsController {
    @Get(':id')
    approve(): string {
      ran.push('approve');
      return 'approved';
    }

    @Get()
    list(): string {
      return 'listed';
    }
  }

  it('warns at start that every request fails, and each request is a 500 whose handler never runs, even for ADMIN', async () => {
    const { warnings, logger } = collectingLogger();
    const app = await startApp({
      imports: [
        PermissionsModule.forRoot({
          extractUserFromRequest: userFromHeader(),
          definitions: [...DOCUMENT_DEFINITIONS],
          resourceActions: { document: ['read', 'list'] },
          logger,
        }),
      ],
      controllers: [ReportsController],
      providers: [ownershipProvider],
    });
    try {
      expect(warnings).toEqual([
        'typed-permissions: ReportsController.approve checks action "approve" on "document", which declares only "list", "read", so every ' +
          'request fails (500, a PermissionsUsageError). Rename the method, set @Permission({ action }), or declare the action in the resource file.',
      ]);
      const answer = await request(app.getHttpServer()).get('/reports/1').set('x-user-id', '3');
      expect([answer.status, answer.body]).toEqual([500, { statusCode: 500, message: 'Internal server error' }]);
      expect(ran).toEqual([]);
      expect((await request(app.getHttpServer()).get('/reports').set('x-user-id', '3')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('PermissionsService and @GetPermit outside a guard', () => {
  @Controller('unguarded')
  class UnguardedController {
    constructor(@Inject(PermissionsService) private readonly permissionsService: PermissionsService<TestUser>) {}

    @Get('permit')
    permit(@GetPermit() permit: unknown): unknown {
      return permit;
    }

    @Get('service')
    async service(): Promise<{ granted: boolean; anyGranted: boolean }> {
      const permit = await this.permissionsService.grantPermit({ user: { id: 4, roles: ['READER'] }, resource: 'document', action: 'read' });
      return { granted: permit.granted, anyGranted: permit.anyGranted };
    }
  }

  it('PermissionsService.grantPermit answers in a handler no guard covers', async () => {
    @Controller('unguarded')
    class ServiceController {
      constructor(@Inject(PermissionsService) private readonly permissionsService: PermissionsService<TestUser>) {}

      @Get('service')
      async service(): Promise<{ granted: boolean; anyGranted: boolean }> {
        const permit = await this.permissionsService.grantPermit({ user: { id: 4, roles: ['READER'] }, resource: 'document', action: 'read' });
        return { granted: permit.granted, anyGranted: permit.anyGranted };
      }
    }
    const app = await startApp({
      imports: [
        PermissionsModule.forRoot({ extractUserFromRequest: userFromHeader(), definitions: [...DOCUMENT_DEFINITIONS], logger: collectingLogger().logger }),
      ],
      controllers: [ServiceController],
      providers: [ownershipProvider],
    });
    try {
      const service = await request(app.getHttpServer()).get('/unguarded/service').expect(200);
      expect(service.body).toEqual({ granted: true, anyGranted: true });
    } finally {
      await app.close();
    }
  });

  it('@GetPermit() on a handler no guard covers, or one marked @SkipPermissions(), stops the start', async () => {
    @Controller('skipped')
    @UseGuards(createPermissionsGuard({ resource: 'document' }))
    class SkippedController {
      @Get()
      @SkipPermissions()
      list(@GetPermit() permit: unknown): unknown {
        return permit;
      }
    }
    const app = await createApp({
      imports: [PermissionsModule.forRoot({ extractUserFromRequest: userFromHeader(), definitions: [...DOCUMENT_DEFINITIONS] })],
      controllers: [UnguardedController, SkippedController],
      providers: [ownershipProvider],
    });
    const error = await initError(app);
    expect(error).toBeInstanceOf(PermissionsUsageError);
    expect((error as Error).message).toBe(
      'Handlers inject @GetPermit() but no permissions guard gives them a permit, so every request would fail; the application does not start:\n' +
        '  - UnguardedController.permit injects @GetPermit(), but no permissions guard covers it. Fix: add @UseGuards(createPermissionsGuard(…)) ' +
        'to the class or the method (or register one as APP_GUARD).\n' +
        '  - SkippedController.list injects @GetPermit(), but is marked @SkipPermissions(), so no permit is made for it. Fix: remove ' +
        '@SkipPermissions(), or the @GetPermit() parameter.',
    );
  });
});
