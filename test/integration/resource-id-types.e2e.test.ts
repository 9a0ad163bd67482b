/**
 * One contract for ids in every integration: with no projection written, the declared id type projects the
 * id (so the owner of a record gets 200 and the hook receives a number), and the same malformed id is 400 in
 * the NestJS guard and the express middleware and BAD_USER_INPUT in GraphQL — never 403 or 500.
 */
import 'reflect-metadata';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, Injectable, Param, UseGuards, type INestApplication } from '@nestjs/common';
import { Args, Field, ID, Int, ObjectType, Query, Resolver } from '@nestjs/graphql';
import express, { type Express, type Request } from 'express';
import request from 'supertest';
import { initPermissions, permissionsErrorHandler, createPermitMiddleware, permitOf } from '../../runtime/express/index.js';
import type { PermissionDefinition, Permit, User } from '../../runtime/permissions/index.js';
import { type ProjectResourceId, createPermissionsGuard, GetPermit, PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, PermissionsModule } from '../../runtime/nest/index.js';
import { startApp } from '../nest/fixtures/documents.fixture.js';
import { fixtureGraphQLModule, postGraphQL } from '../nest/fixtures/graphql/graphql-app.fixture.js';

type AppUser = User<number>;

/** User 1 created document 1 and note "n-1". Ownership hooks compare strictly: a string "1" owns nothing. */
const definitions: PermissionDefinition[] = [
  { roles: ['EMPLOYEE'], resource: 'document', possession: 'own', grant: ['read'], isOwner: 'isCreator', listOwned: 'listCreated' },
  { roles: ['EMPLOYEE'], resource: 'note', possession: 'own', grant: ['read'], isOwner: 'isNoteAuthor', listOwned: 'listNotes' },
];
const resourceIdTypes = { document: 'number', note: 'string' } as const;

@Injectable()
class Ownership {
  readonly asked: unknown[] = [];
  isCreator({ user, resourceId }: { user: AppUser; resourceId: unknown }): boolean {
    this.asked.push(resourceId);
    return user.id === 1 && resourceId === 1;
  }
  listCreated({ user }: { user: AppUser }): number[] {
    return user.id === 1 ? [1] : [];
  }
  isNoteAuthor({ user, resourceId }: { user: AppUser; resourceId: unknown }): boolean {
    this.asked.push(resourceId);
    return user.id === 1 && resourceId === 'n-1';
  }
  listNotes({ user }: { user: AppUser }): string[] {
    return user.id === 1 ? ['n-1'] : [];
  }
}

const userOf = (request: unknown): AppUser => ({ id: Number((request as { headers: Record<string, string> }).headers['x-user-id']), roles: ['EMPLOYEE'] });

@ObjectType('IdCheck')
class IdCheckModel {
  @Field(() => String, { nullable: true })
  checked?: string;
}

const DocumentsGuard = createPermissionsGuard({ resource: 'document' });
const NotesGuard = createPermissionsGuard({ resource: 'note' });

/** What the permit was decided on: its id and that id's type. */
const checked = (permit: Permit<AppUser, unknown>) => ({ checked: `${typeof permit.resourceId} ${String(permit.resourceId)}` });

@Controller('documents')
@UseGuards(DocumentsGuard)
class DocumentsController {
  @Get(':id')
  read(@Param('id') _id: string, @GetPermit() permit: Permit<AppUser, unknown>) {
    return checked(permit);
  }
}

@Controller('notes')
@UseGuards(NotesGuard)
class NotesController {
  @Get(':id')
  read(@GetPermit() permit: Permit<AppUser, unknown>) {
    return checked(permit);
  }
}

@Resolver(() => IdCheckModel)
@UseGuards(DocumentsGuard)
class DocumentsResolver {
  @Query(() => IdCheckModel, { nullable: true })
  read(@Args('id', { type: () => Int }) _id: number, @GetPermit() permit: Permit<AppUser, unknown>) {
    return checked(permit);
  }
}

@Resolver(() => IdCheckModel)
@UseGuards(DocumentsGuard)
class DocumentsByKeyResolver {
  /** The id as a GraphQL ID (text): projected like a path parameter. */
  @Query(() => IdCheckModel, { nullable: true, name: 'documentByKey' })
  read(@Args('id', { type: () => ID }) _id: string, @GetPermit() permit: Permit<AppUser, unknown>) {
    return checked(permit);
  }
}

async function nestApp(projectResourceId?: ProjectResourceId): Promise<INestApplication<Server>> {
  return startApp({
    imports: [
      fixtureGraphQLModule(),
      PermissionsModule.forRoot({
        extractUserFromRequest: userOf,
        definitions,
        resourceIdTypes,
        ...(projectResourceId === undefined ? {} : { projectResourceId }),
      }),
    ],
    controllers: [DocumentsController, NotesController],
    providers: [{ provide: PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, useClass: Ownership }, DocumentsResolver, DocumentsByKeyResolver],
  });
}

function expressApp(ownership: Ownership, projectResourceId?: ProjectResourceId): Express {
  const permissions = initPermissions<AppUser>(definitions, { ownership, resourceIdTypes });
  const permit = createPermitMiddleware({
    permissions,
    getUser: (req: Request) => userOf(req),
    ...(projectResourceId === undefined ? {} : { projectResourceId }),
  });
  const app = express();
  app.get('/documents/:id', permit({ resource: 'document', action: 'read' }), (req, res) => void res.json(checked(permitOf(req))));
  app.get('/notes/:id', permit({ resource: 'note', action: 'read' }), (req, res) => void res.json(checked(permitOf(req))));
  app.use(permissionsErrorHandler());
  return app;
}

/** What each integration answered, side by side: status (GraphQL: its error code) and the id the check used. */
async function answers(nest: INestApplication<Server>, express: Express, path: string, graphqlQuery?: string) {
  const [fromNest, fromExpress] = await Promise.all([
    request(nest.getHttpServer()).get(path).set('x-user-id', '1'),
    request(express).get(path).set('x-user-id', '1'),
  ]);
  const graphql = graphqlQuery === undefined ? undefined : await postGraphQL(nest, graphqlQuery, { userId: 1 });
  return {
    nest: { status: fromNest.status, body: fromNest.body as unknown },
    express: { status: fromExpress.status, body: fromExpress.body as unknown },
    ...(graphql === undefined ? {} : { graphql: graphql.body.errors?.[0]?.extensions.code ?? graphql.body.data }),
  };
}

const MALFORMED_NUMBERS = ['1e1', '0x10', '%201', '01', '-0', '+1', '1.0', 'abc', '9007199254740992'];

describe('declared id types, with no projection written', () => {
  let nest: INestApplication<Server>;
  let ownership: Ownership;
  let app: Express;

  beforeAll(async () => {
    nest = await nestApp();
    ownership = new Ownership();
    app = expressApp(ownership);
  }, 30_000);
  afterAll(async () => {
    await nest.close();
  });

  it('the owner of a document gets 200 in REST, GraphQL and express; the hook receives the number 1', async () => {
    const nestOwnership = nest.get<Ownership>(PERMISSIONS_OWNERSHIP_SERVICE_TOKEN);
    nestOwnership.asked.length = 0;
    ownership.asked.length = 0;
    expect(await answers(nest, app, '/documents/1', '{ read(id: 1) { checked } }')).toEqual({
      nest: { status: 200, body: { checked: 'number 1' } },
      express: { status: 200, body: { checked: 'number 1' } },
      graphql: { read: { checked: 'number 1' } },
    });
    expect((await postGraphQL(nest, '{ documentByKey(id: "1") { checked } }', { userId: 1 })).body).toEqual({
      data: { documentByKey: { checked: 'number 1' } },
    });
    expect({ nest: nestOwnership.asked, express: ownership.asked }).toEqual({ nest: [1, 1, 1], express: [1] });
  });

  it.each(MALFORMED_NUMBERS)('the malformed document id %j is 400 in REST and express, BAD_USER_INPUT in GraphQL, before any hook', async (id) => {
    const nestOwnership = nest.get<Ownership>(PERMISSIONS_OWNERSHIP_SERVICE_TOKEN);
    nestOwnership.asked.length = 0;
    ownership.asked.length = 0;
    const shown = decodeURIComponent(id);
    const message =
      `${JSON.stringify(shown)} is not an id of "document": its ids are an integer written in decimal without leading zeros, ` +
      'within ±9007199254740991 (such as 42).';
    expect(await answers(nest, app, `/documents/${id}`, `{ documentByKey(id: ${JSON.stringify(shown)}) { checked } }`)).toEqual({
      nest: { status: 400, body: { statusCode: 400, error: 'Bad Request', message } },
      express: { status: 400, body: { statusCode: 400, error: 'Bad Request', message } },
      graphql: 'BAD_USER_INPUT',
    });
    expect({ nest: nestOwnership.asked, express: ownership.asked }).toEqual({ nest: [], express: [] });
  });

  it('string ids are kept as text, up to 256 characters; longer is 400 everywhere', async () => {
    expect(await answers(nest, app, '/notes/n-1')).toEqual({
      nest: { status: 200, body: { checked: 'string n-1' } },
      express: { status: 200, body: { checked: 'string n-1' } },
    });
    const long = 'n'.repeat(257);
    const result = await answers(nest, app, `/notes/${long}`);
    expect([result.nest.status, result.express.status]).toEqual([400, 400]);
    expect(result.nest.body).toEqual(result.express.body);
  });

  it("another owner's document is 403 everywhere (a valid id, not a malformed one)", async () => {
    expect(await answers(nest, app, '/documents/2', '{ read(id: 2) { checked } }')).toEqual({
      nest: { status: 403, body: { statusCode: 403, error: 'Forbidden', message: 'read on document is not granted', reason: 'not-owner' } },
      express: { status: 403, body: { statusCode: 403, error: 'Forbidden', message: 'read on document is not granted', reason: 'not-owner' } },
      graphql: 'FORBIDDEN',
    });
  });
});

describe('a projection that returns undefined, null or NaN', () => {
  const projections: [string, ProjectResourceId][] = [
    ['undefined', () => undefined],
    ['null', () => null],
    ['NaN', () => Number.NaN],
  ];

  it.each(projections)(
    'returning %s is 400 in REST and express and BAD_USER_INPUT in GraphQL',
    async (_label, projection) => {
      const nest = await nestApp(projection);
      try {
        const result = await answers(nest, expressApp(new Ownership(), projection), '/documents/1', '{ read(id: 1) { checked } }');
        expect({ nest: result.nest.status, express: result.express.status, graphql: result.graphql }).toEqual({
          nest: 400,
          express: 400,
          graphql: 'BAD_USER_INPUT',
        });
        expect(result.nest.body).toEqual(result.express.body);
      } finally {
        await nest.close();
      }
    },
    30_000,
  );
});
