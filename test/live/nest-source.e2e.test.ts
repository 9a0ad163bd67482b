/**
 * `PermissionsModule.forRoot({ source })`: the first version is loaded before the application starts, every
 * guarded response names the version it was decided on, a newer version changes the answers without a restart,
 * and `app.close()` stops following. Without tables, definitions or a version to load, the start is refused
 * and the source released.
 */
import type { Server } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { Controller, Get, Module, UseGuards, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { Permissions, type Permit, type User } from '../../runtime/permissions/index.js';
import type { PolicySource } from '../../runtime/live/policy-source.js';
import { memorySource } from './memory-source.js';
import { policyBundleOf, type PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { createPermissionsGuard, GetPermit, PermissionsModule } from '../../runtime/nest/index.js';

function bundle(attributes: readonly string[]): PolicyBundle {
  const built = new Permissions({ logger: { warn: () => undefined } })
    .addPermissions([{ roles: ['READER'], resource: 'doc', grant: { 'read:any': [...attributes] } }])
    .build();
  return policyBundleOf(built.tables);
}
const [titles, everything] = [bundle(['id', 'title']), bundle(['*'])];
const record = { id: 7, title: 'Seven', body: 'text' };

const DocGuard = createPermissionsGuard({ resource: 'doc' });

@Controller('docs')
@UseGuards(DocGuard)
class DocsController {
  @Get(':id')
  read(@GetPermit() permit: Permit<User<number>, number>) {
    return permit.pickSync(record);
  }
}

async function appFollowing(source: PolicySource, tables?: PolicyBundle['tables']): Promise<INestApplication> {
  @Module({
    imports: [
      PermissionsModule.forRoot({
        ...(tables === undefined ? {} : { tables: tables as never }),
        source,
        follow: { onChange: () => undefined },
        extractUserFromRequest: () => ({ id: 1, roles: ['READER'] }),
      }),
    ],
    controllers: [DocsController],
  })
  class AppModule {}
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return app;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('PermissionsModule.forRoot({ source })', () => {
  it("starts on the source's version, answers with each newer one, and stops following at close", async () => {
    const memory = memorySource({ bundle: titles, sequence: 1 });
    const { source, publish } = memory;
    const app = await appFollowing(source, everything.tables);
    const first = await request(app.getHttpServer() as Server).get('/docs/7');
    expect([first.status, first.body, first.headers['x-permissions-version']]).toEqual([200, { id: 7, title: 'Seven' }, titles.version]);
    publish({ bundle: everything, sequence: 2 });
    await settle();
    const second = await request(app.getHttpServer() as Server).get('/docs/7');
    expect([second.body, second.headers['x-permissions-version']]).toEqual([record, everything.version]);
    await app.close();
    expect(memory.stopped).toBe(true);
  });

  it('starts without tables when the source holds a version', async () => {
    const { source } = memorySource({ bundle: titles, sequence: 1 });
    const app = await appFollowing(source);
    expect((await request(app.getHttpServer() as Server).get('/docs/7')).body).toEqual({ id: 7, title: 'Seven' });
    await app.close();
  });

  it('refuses to start with no policy at all, and releases the source', async () => {
    const memory = memorySource(undefined);
    const { source } = memory;
    await expect(appFollowing(source)).rejects.toThrow(
      'PermissionsModule.forRoot({ source }): no policy could be loaded from memory, and no tables or definitions were given; ' +
        'the application does not start without a policy.',
    );
    expect(memory.stopped).toBe(true);
  });
});
