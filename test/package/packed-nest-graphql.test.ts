/**
 * A NestJS GraphQL app on the runtime installed from its packed tarball, in a throwaway project outside the
 * repository: the project has what packed-install.test.ts's newcomer project has by then (the runtime, zod, which
 * building definitions at run time needs, and TypeScript 6), and installs the NestJS and Apollo packages beside it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NPM, ok, run, sharedPackedWorkspaces, tarballPath } from './throwaway-project.js';

describe('the packed runtime in a NestJS GraphQL app', () => {
  let project = '';

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'typed-permissions-nest-graphql-'));
    const { folder, packed } = await sharedPackedWorkspaces();
    ok(run(NPM, ['init', '-y'], project));
    ok(run(NPM, ['pkg', 'set', 'type=module'], project));
    ok(run(NPM, ['install', tarballPath(packed, folder, 'typed-permissions'), 'zod@^4', 'typescript@~6.0.3'], project));
    mkdirSync(join(project, 'src'));
  }, 630_000);

  afterAll(() => {
    if (project !== '') rmSync(project, { recursive: true, force: true });
  });

  it('a NestJS GraphQL app on the installed runtime checks resolvers, nulls hidden fields and maps refusals to FORBIDDEN', () => {
    // The guard finds the schema through the application's own @nestjs/graphql and graphql (optional peers),
    // imported from inside node_modules/typed-permissions: this proves they resolve to the user's copies.
    ok(
      run(
        NPM,
        [
          'install',
          '@nestjs/common@^12.5.1',
          '@nestjs/core@^12.5.1',
          '@nestjs/platform-express@^12.5.1',
          '@nestjs/graphql@^14.0.3',
          '@nestjs/apollo@^14.0.3',
          '@apollo/server@^5.5.1',
          '@as-integrations/express5@^1.1.2',
          'graphql@^16.11.0',
          'reflect-metadata@^0.2.2',
          'rxjs@^7.8.2',
        ],
        project,
      ),
    );
    writeFileSync(
      join(project, 'src', 'graphql-app.ts'),
      `import 'reflect-metadata';
import { Module, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { Args, Field, GraphQLModule, Int, ObjectType, Query, Resolver } from '@nestjs/graphql';
import type { Permit } from 'typed-permissions';
import { createPermissionsGuard, formatGraphQLError, GetPermit, PermissionsModule } from 'typed-permissions/nest';

@ObjectType()
class Article {
  @Field(() => Int, { nullable: true }) id?: number;
  @Field(() => String, { nullable: true }) title?: string;
  @Field(() => String, { nullable: true }) body?: string;
}
const articles = [{ id: 1, title: 'One', body: 'b1' }, { id: 2, title: 'Two', body: 'b2' }];
const ArticlesGuard = createPermissionsGuard({ resource: 'article' });

@Resolver(() => Article)
@UseGuards(ArticlesGuard)
class ArticlesResolver {
  @Query(() => Article, { nullable: true })
  read(@Args('id', { type: () => Int }) id: number, @GetPermit() permit: Permit) {
    return permit.pickSync(articles.find((article) => article.id === id) ?? {});
  }
}

@Module({
  imports: [
    PermissionsModule.forRoot({
      definitions: [{ roles: ['READER'], resource: 'article', grant: { 'read:any': ['id', 'title'] } }],
      extractUserFromRequest: (request) => ({ id: 1, roles: [String((request as { headers: Record<string, string> }).headers['x-role'])] }),
      projectResourceId: (id) => Number(id),
    }),
    GraphQLModule.forRoot<ApolloDriverConfig>({ driver: ApolloDriver, autoSchemaFile: true, formatError: formatGraphQLError }),
  ],
  providers: [ArticlesResolver],
})
class AppModule {}

const app = await NestFactory.create(AppModule, { logger: false });
await app.listen(0, '127.0.0.1');
const { port } = app.getHttpServer().address() as { port: number };
const ask = async (role: string) => {
  const response = await fetch(\`http://127.0.0.1:\${port}/graphql\`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-role': role },
    body: JSON.stringify({ query: '{ read(id: 2) { id title body } }' }),
  });
  return response.json();
};
console.log(JSON.stringify({ reader: await ask('READER'), stranger: await ask('STRANGER') }));
await app.close();
`,
    );
    writeFileSync(
      join(project, 'tsconfig.graphql.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          rootDir: '.',
          outDir: 'out',
          experimentalDecorators: true,
          emitDecoratorMetadata: true,
          skipLibCheck: true,
          types: [],
        },
        include: ['src/graphql-app.ts'],
      }),
    );
    ok(run(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.graphql.json'], project));
    expect(JSON.parse(ok(run(process.execPath, ['out/src/graphql-app.js'], project)))).toEqual({
      reader: { data: { read: { id: 2, title: 'Two', body: null } } },
      stranger: {
        data: { read: null },
        errors: [
          {
            message: 'read on article is not granted',
            locations: [{ line: 1, column: 3 }],
            path: ['read'],
            extensions: { code: 'FORBIDDEN', reason: 'no-grant' },
          },
        ],
      },
    });
  });
});
