/**
 * The example's GraphQL server: Apollo through `@nestjs/graphql` (code first), at `POST /graphql` on the
 * same port as REST, with the library's error codes and the example's cost limits.
 *
 * `@nestjs/apollo` mounts Apollo as express middleware at {@link GRAPHQL_PATH}, so Apollo also answers the paths
 * under it, in any letter case (`/graphql/`, `/graphql/x`, `/GRAPHQL`), for GET with a query string as for POST,
 * and answers other methods 405. Every limit is therefore enforced inside Apollo (graphql-limits.ts), never by
 * the URL.
 */
import type { DynamicModule } from '@nestjs/common';
import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { GraphQLModule } from '@nestjs/graphql';
import { formatGraphQLError } from '../../runtime/nest/index.js';
import { graphqlLimitOptions } from './graphql-limits.js';

/** The path of the GraphQL endpoint (Apollo's mount point: the paths under it reach Apollo too). */
export const GRAPHQL_PATH = '/graphql';

/**
 * The GraphQL module of the example app: a schema generated from the resolvers (kept in memory, sorted),
 * `formatGraphQLError` (FORBIDDEN, UNAUTHENTICATED, BAD_USER_INPUT, NOT_FOUND; nothing internal leaks),
 * the limits of `graphql-limits.ts`, and no browser IDE (the example serves JSON only).
 *
 * @example
 * ```ts
 * @Module({ imports: [exampleGraphQLModule()], providers: [DocumentsResolver] })
 * ```
 */
export function exampleGraphQLModule(): DynamicModule {
  return GraphQLModule.forRoot<ApolloDriverConfig>({
    driver: ApolloDriver,
    path: GRAPHQL_PATH,
    autoSchemaFile: true,
    sortSchema: true,
    playground: false,
    graphiql: false,
    formatError: formatGraphQLError,
    ...graphqlLimitOptions(),
  });
}
