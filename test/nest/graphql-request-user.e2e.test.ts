/**
 * A GraphQL operation runs the permissions guard once per guarded field; the user of the request is
 * asked once (`extractUserFromRequest`), so fifteen aliases do not mean fifteen user lookups, and every field
 * sees the same user — or the same refusal.
 */
import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Module, UnauthorizedException, UseGuards, type INestApplication } from '@nestjs/common';
import { Args, Field, Int, ObjectType, Query, Resolver } from '@nestjs/graphql';
import type { Server } from 'node:http';
import request from 'supertest';
import type { Permit } from '../../runtime/permissions/index.js';
import { createPermissionsGuard, GetPermit, PermissionsModule } from '../../runtime/nest/index.js';
import { startApp } from './fixtures/documents.fixture.js';
import { fixtureGraphQLModule } from './fixtures/graphql/graphql-app.fixture.js';

@ObjectType('Note')
class NoteModel {
  @Field(() => Int, { nullable: true })
  id?: number;

  @Field(() => String, { nullable: true })
  text?: string;
}

const NotesGuard = createPermissionsGuard({ resource: 'note' });

@Resolver(() => NoteModel)
@UseGuards(NotesGuard)
class NotesResolver {
  @Query(() => NoteModel, { nullable: true })
  read(@Args('id', { type: () => Int }) id: number, @GetPermit() permit: Permit): Record<string, unknown> {
    return permit.pickSync({ id, text: `note ${id}` });
  }
}

const lookups: string[] = [];

@Module({
  imports: [
    PermissionsModule.forRoot({
      definitions: [{ roles: ['READER'], resource: 'note', grant: ['read:any'] }],
      extractUserFromRequest: (req) => {
        const header = (req as { headers: Record<string, string | undefined> }).headers['x-user'];
        lookups.push(header ?? '(none)');
        if (header !== 'reader') throw new UnauthorizedException('Unknown user.');
        return { id: 1, roles: ['READER'] };
      },
      projectResourceId: (id) => Number(id),
    }),
    fixtureGraphQLModule(),
  ],
  providers: [NotesResolver],
})
class NotesModule {}

describe('the user of a GraphQL request is asked once', () => {
  let app: INestApplication<Server>;

  beforeAll(async () => {
    app = await startApp({ imports: [NotesModule] });
  });

  afterAll(async () => {
    await app.close();
  });

  const query = '{ a: read(id: 1) { id } b: read(id: 2) { id } c: read(id: 3) { text } }';

  it('three guarded fields in one operation make one extractUserFromRequest call; the next request asks again', async () => {
    lookups.length = 0;
    const first = await request(app.getHttpServer()).post('/graphql').set('x-user', 'reader').send({ query }).expect(200);
    expect(first.body).toEqual({ data: { a: { id: 1 }, b: { id: 2 }, c: { text: 'note 3' } } });
    expect(lookups).toEqual(['reader']);
    await request(app.getHttpServer()).post('/graphql').set('x-user', 'reader').send({ query }).expect(200);
    expect(lookups).toEqual(['reader', 'reader']);
  });

  it('a refused user is refused once and every field gets the same UNAUTHENTICATED error', async () => {
    lookups.length = 0;
    const response = await request(app.getHttpServer()).post('/graphql').set('x-user', 'stranger').send({ query }).expect(200);
    expect(lookups).toEqual(['stranger']);
    expect(response.body).toEqual({
      data: { a: null, b: null, c: null },
      errors: [
        { message: 'Unknown user.', locations: [{ line: 1, column: 3 }], path: ['a'], extensions: { code: 'UNAUTHENTICATED' } },
        { message: 'Unknown user.', locations: [{ line: 1, column: 25 }], path: ['b'], extensions: { code: 'UNAUTHENTICATED' } },
        { message: 'Unknown user.', locations: [{ line: 1, column: 47 }], path: ['c'], extensions: { code: 'UNAUTHENTICATED' } },
      ],
    });
  });
});
