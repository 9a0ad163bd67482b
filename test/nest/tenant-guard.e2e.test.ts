/**
 * The Nest guard asks in the tenant the module's `extractTenantFromRequest` names, for REST handlers and GraphQL
 * resolvers alike: a custom role grants in its own tenant only, a tenant that is no tenant id answers 400
 * (GraphQL: BAD_USER_INPUT), an extractTenantFromRequest that throws is a 500 with nothing of the error, and a
 * tenant whose custom roles cannot be read answers 503 (GraphQL: SERVICE_UNAVAILABLE) — over real HTTP. The custom
 * roles are followed through the module's `tenantRoles` option: at start, and no longer once the application closes;
 * a `tenantRoles` that is no source stops the start.
 */
import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, Module, UseGuards, type INestApplication } from '@nestjs/common';
import { Query, Resolver } from '@nestjs/graphql';
import type { Server } from 'node:http';
import request from 'supertest';
import { grantTables } from '../../generated/tables.js';
import { memoryOwnership } from '../../runtime/core/ownership-rules/memory-ownership.js';
import { createPermissionsGuard, PermissionsModule, PermissionsService } from '../../runtime/nest/index.js';
import { PermissionsUsageError } from '../../runtime/permissions/index.js';
import {
  AUDITOR,
  EMPTY_ANSWER,
  LONGEST_TENANT,
  memoryTenantRoles,
  NOT_LISTED,
  TENANT_HEADER,
  TOO_LONG_ANSWER,
  TOO_LONG_TENANT,
  UNAVAILABLE_ANSWER,
} from '../tenants/tenant-fixture.js';
import { memorySource } from '../live/memory-source.js';
import { createApp, listenApp, startApp } from './fixtures/documents.fixture.js';
import { fixtureGraphQLModule } from './fixtures/graphql/graphql-app.fixture.js';

@Controller('decisions')
@UseGuards(createPermissionsGuard({ resource: 'decision' }))
class DecisionsController {
  @Get()
  list(): { listed: string } {
    return { listed: 'decisions' };
  }
}

@Resolver()
@UseGuards(createPermissionsGuard({ resource: 'decision' }))
class DecisionsResolver {
  @Query(() => String, { name: 'decisions', nullable: true })
  list(): string {
    return 'decisions';
  }
}

@Resolver()
@UseGuards(createPermissionsGuard({ resource: 'document' }))
class DocumentsResolver {
  @Query(() => String, { name: 'documents', nullable: true })
  list(): string {
    return 'documents';
  }
}

/** The source of custom roles in memory, watched: the test sees the watch start with the application and stop with it. */
const roles = memoryTenantRoles();
const watching: string[] = [];
const watchedSource = {
  ...roles.source,
  watch: () => {
    watching.push('started');
    return () => Promise.resolve(void watching.push('stopped'));
  },
};

@Module({
  imports: [
    PermissionsModule.forRoot({
      tables: grantTables,
      tenantRoles: watchedSource,
      followTenantRoles: { maxTenants: 100 },
      ownershipRules: memoryOwnership({ document: [], user: [{ id: 1, companyId: 10 }] }),
      logger: { warn: () => undefined },
      extractUserFromRequest: () => AUDITOR,
      extractTenantFromRequest: (req) => {
        const tenant = (req as { headers: Record<string, string | undefined> }).headers[TENANT_HEADER];
        if (tenant === 'boom') throw new Error('the tenant directory is down');
        return tenant;
      },
    }),
    fixtureGraphQLModule(),
  ],
  controllers: [DecisionsController],
  providers: [DecisionsResolver, DocumentsResolver],
})
class TenantsModule {}

let app: INestApplication<Server>;

beforeAll(async () => {
  ({ app } = await listenApp({ imports: [TenantsModule] }));
  expect(watching).toEqual(['started']);
}, 30_000);

afterAll(async () => {
  await app?.close();
}, 30_000);

const get = (tenant?: string) => {
  const pending = request(app.getHttpServer()).get('/decisions').timeout(10_000);
  return tenant === undefined ? pending : pending.set(TENANT_HEADER, tenant);
};
const graphql = (query: string, tenant?: string) => {
  const pending = request(app.getHttpServer()).post('/graphql').timeout(10_000).send({ query });
  return tenant === undefined ? pending : pending.set(TENANT_HEADER, tenant);
};

describe('the Nest guard of a REST handler in a tenant', () => {
  it("grants what the tenant's custom role grants there, and nowhere else", async () => {
    expect((await get('acme').expect(200)).body).toEqual({ listed: 'decisions' });
    expect((await get('globex').expect(403)).body).toEqual(NOT_LISTED('decision'));
    expect((await get().expect(403)).body).toEqual(NOT_LISTED('decision'));
  });

  it('answers 400 for a tenant that is no tenant id (past the longest), and decides one of the longest length', async () => {
    expect((await get(TOO_LONG_TENANT).expect(400)).body).toEqual(TOO_LONG_ANSWER);
    expect((await get('').expect(400)).body).toEqual(EMPTY_ANSWER);
    expect((await get(LONGEST_TENANT).expect(403)).body).toEqual(NOT_LISTED('decision'));
  });

  it('answers 500 with nothing of the error for an extractTenantFromRequest that throws', async () => {
    expect((await get('boom').expect(500)).body).toEqual({ statusCode: 500, message: 'Internal server error' });
  });

  it("answers 503 while the tenant's custom roles cannot be read, then decides once they can", async () => {
    roles.fail(new Error('connect ECONNREFUSED 10.0.0.7:5432'));
    expect((await get('initech').expect(503)).body).toEqual(UNAVAILABLE_ANSWER('initech'));
    roles.fail(undefined);
    expect((await get('initech').expect(403)).body).toEqual(NOT_LISTED('decision'));
  });
});

describe('the Nest guard of GraphQL resolvers in a tenant', () => {
  it("grants what the tenant's custom role grants there, and nowhere else", async () => {
    expect((await graphql('{ decisions }', 'acme').expect(200)).body).toEqual({ data: { decisions: 'decisions' } });
    expect((await graphql('{ documents }', 'globex').expect(200)).body).toEqual({ data: { documents: 'documents' } });
    const forbidden = (resource: string, path: string) => ({
      message: `list on ${resource} is not granted`,
      locations: [{ line: 1, column: 3 }],
      path: [path],
      // A role of no tenant, or one that lists nothing here: the caller is told 'no-grant' either way.
      extensions: { code: 'FORBIDDEN', reason: 'no-grant' },
    });
    expect((await graphql('{ documents }', 'acme').expect(200)).body).toEqual({ data: { documents: null }, errors: [forbidden('document', 'documents')] });
    expect((await graphql('{ decisions }').expect(200)).body).toEqual({ data: { decisions: null }, errors: [forbidden('decision', 'decisions')] });
  });

  it('answers BAD_USER_INPUT for a tenant that is no tenant id, and SERVICE_UNAVAILABLE while its custom roles cannot be read', async () => {
    expect((await graphql('{ decisions }', TOO_LONG_TENANT).expect(200)).body).toEqual({
      data: { decisions: null },
      errors: [{ message: TOO_LONG_ANSWER.message, locations: [{ line: 1, column: 3 }], path: ['decisions'], extensions: { code: 'BAD_USER_INPUT' } }],
    });
    roles.fail(new Error('connect ECONNREFUSED 10.0.0.7:5432'));
    expect((await graphql('{ decisions }', 'hooli').expect(200)).body).toEqual({
      data: { decisions: null },
      errors: [
        { message: UNAVAILABLE_ANSWER('hooli').message, locations: [{ line: 1, column: 3 }], path: ['decisions'], extensions: { code: 'SERVICE_UNAVAILABLE' } },
      ],
    });
    roles.fail(undefined);
  });
});

describe('the module option tenantRoles', () => {
  it('stops following the custom roles when the application closes', async () => {
    const { app: other } = await listenApp({ imports: [TenantsModule] });
    expect(watching).toEqual(['started', 'started']);
    expect(other.get(PermissionsService).permissions.grantPermitSync({ user: AUDITOR, resource: 'decision', action: 'list' }).granted).toBe(false);
    await other.close();
    expect(watching).toEqual(['started', 'started', 'stopped']);
  }, 30_000);

  it('stops the start when followTenantRoles is wrong, saying which option, and stops following the live policy', async () => {
    const policy = memorySource(undefined);
    const failure = await startApp({
      imports: [
        PermissionsModule.forRoot({
          tables: grantTables,
          source: policy.source,
          ownershipRules: memoryOwnership({ document: [], user: [] }),
          extractUserFromRequest: () => AUDITOR,
          tenantRoles: roles.source,
          followTenantRoles: { maxTenants: 0 },
        }),
      ],
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PermissionsUsageError);
    expect((failure as Error).message).toBe('followTenantRoles(source, options): maxTenants must be a positive whole number, got 0.');
    expect(policy.stopped).toBe(true);
  }, 30_000);

  it('stops the start when it is no source of tenant roles', async () => {
    const failure = await createApp({
      imports: [PermissionsModule.forRoot({ tables: grantTables, extractUserFromRequest: () => AUDITOR, tenantRoles: { read: 'acme' } as never })],
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PermissionsUsageError);
    expect((failure as Error).message).toBe(
      'PermissionsModule.forRoot(): tenantRoles must be a source of tenant roles (postgresTenantRoles, fileTenantRoles of typed-permissions/live, ' +
        'or an object with read(tenant)).',
    );
  }, 30_000);
});
