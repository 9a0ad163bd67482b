/**
 * The cost limits of the example's GraphQL endpoint. A permission check costs an ownership query, so an
 * operation that asks the same field a thousand times, or an HTTP request carrying hundreds of operations,
 * would multiply them: every such size has a limit, refused before anything runs with a clear error.
 */
import type { ApolloDriverConfig } from '@nestjs/apollo';
import { ApolloArmor } from '@escape.tech/graphql-armor';
import { GraphQLError } from 'graphql';

/**
 * The limits, per operation (validated before execution by graphql-armor) and per HTTP request.
 * Introspection is allowed: graphql-js bounds its depth itself, and armor's depth and cost rules skip it.
 */
export const GRAPHQL_LIMITS = {
  /** Aliased fields per operation (`a: document(id: 1) b: document(id: 2) …`); `__typename` is free. */
  maxAliases: 15,
  /** Nesting depth of selections (introspection excluded). */
  maxDepth: 6,
  /** Directives (`@include`, `@skip`, …) per operation. */
  maxDirectives: 50,
  /** Lexical tokens per document: bounds the parse itself (graphql-js's own `maxTokens`). */
  maxTokens: 1000,
  /** graphql-armor's cost estimate (objects 2, scalars 1, ×1.5 per level). */
  maxCost: 5000,
  /** Operations in one HTTP batch (a JSON array body). */
  maxBatchOperations: 10,
} as const;

/**
 * The Apollo options that enforce {@link GRAPHQL_LIMITS}: per operation (validation rules, parser options),
 * and per HTTP request (HTTP batching on, bounded by {@link refuseLargeBatches} as Apollo's `context`), with
 * field suggestions ("Did you mean …?") and stack traces removed from error answers. Every limit is Apollo's
 * own, so it holds on every path and method Apollo answers.
 *
 * @example
 * ```ts
 * GraphQLModule.forRoot<ApolloDriverConfig>({ driver: ApolloDriver, autoSchemaFile: true, ...graphqlLimitOptions() });
 * ```
 */
export function graphqlLimitOptions(): Pick<
  ApolloDriverConfig,
  'plugins' | 'validationRules' | 'parseOptions' | 'allowBatchedHttpRequests' | 'includeStacktraceInErrorResponses' | 'context'
> {
  const armor = new ApolloArmor({
    maxAliases: { n: GRAPHQL_LIMITS.maxAliases },
    maxDepth: { n: GRAPHQL_LIMITS.maxDepth },
    maxDirectives: { n: GRAPHQL_LIMITS.maxDirectives },
    // armor's token plugin throws from a request hook, which Apollo answers with 500; graphql-js's parser
    // bounds tokens itself and fails as a syntax error (400, GRAPHQL_PARSE_FAILED).
    maxTokens: { enabled: false },
    costLimit: { maxCost: GRAPHQL_LIMITS.maxCost },
  }).protect();
  return {
    parseOptions: { maxTokens: GRAPHQL_LIMITS.maxTokens },
    // graphql-armor's declarations reach @apollo/server's CommonJS types, Nest's its ESM ones: the same plugin objects, two declarations.
    plugins: armor.plugins as unknown as NonNullable<ApolloDriverConfig['plugins']>,
    validationRules: armor.validationRules,
    allowBatchedHttpRequests: true,
    context: refuseLargeBatches,
    includeStacktraceInErrorResponses: false,
  };
}

/** What Apollo's `context` function is given: `{ req, res }` from the express integration, the request itself from fastify's. */
type ContextArgument = { readonly req?: unknown } | null | undefined;

/** The context every resolver sees: the request, as `@nestjs/graphql`'s default context has it (the guard reads the user from it). */
export interface GraphQLRequestContext {
  readonly req: unknown;
}

/**
 * The refusal of an HTTP batch of `size` operations: a GraphQLError with `extensions.code: "BATCH_LIMIT_EXCEEDED"`
 * and the HTTP status 400 for Apollo (Apollo moves `extensions.http` to the response and leaves it out of the body).
 *
 * @example
 * ```ts
 * batchLimitError(11).message; // 'A batch may hold at most 10 operations; this one holds 11. Send fewer operations per request.'
 * ```
 */
export function batchLimitError(size: number): GraphQLError {
  return new GraphQLError(
    `A batch may hold at most ${GRAPHQL_LIMITS.maxBatchOperations} operations; this one holds ${size}. Send fewer operations per request.`,
    { extensions: { code: 'BATCH_LIMIT_EXCEEDED', http: { status: 400 } } },
  );
}

/**
 * Apollo's `context` function for the example: it bounds the HTTP batch, and otherwise gives resolvers the
 * request as `@nestjs/graphql`'s default context does. Apollo calls it once per HTTP request, after reading the
 * request and before running any of its operations; what it throws is the whole answer (here 400 with one
 * `BATCH_LIMIT_EXCEEDED` error), and nothing of the batch runs.
 *
 * The limit lives here, inside Apollo, rather than in HTTP middleware: `@nestjs/apollo` mounts Apollo with
 * `app.use('/graphql', …)`, so Apollo also answers `/graphql/`, `/graphql/x/y`, `/GRAPHQL`, `/graphql//` and
 * `/graphql/..`, while Nest middleware bound to the route `/graphql` misses `/graphql/x` and `/graphql//` (a
 * batch posted there ran unbounded). This function sees exactly the body Apollo is about to split into
 * operations (`req.body` of the same request, whatever its path or method), so no spelling of the URL can reach
 * Apollo's batching without passing it.
 *
 * @example
 * ```ts
 * GraphQLModule.forRoot<ApolloDriverConfig>({ driver: ApolloDriver, autoSchemaFile: true, context: refuseLargeBatches });
 * refuseLargeBatches({ req: { body: Array.from({ length: 11 }, () => ({ query: '{ __typename }' })) } }); // throws BATCH_LIMIT_EXCEEDED
 * ```
 */
export function refuseLargeBatches(argument: ContextArgument): GraphQLRequestContext {
  // The express integration passes `{ req, res }`, the fastify one the request itself (as @nestjs/apollo's default context reads it).
  const req: unknown = typeof argument === 'object' && argument !== null && 'req' in argument ? argument.req : argument;
  const body: unknown = typeof req === 'object' && req !== null ? (req as { readonly body?: unknown }).body : undefined;
  // Apollo batches only a JSON array body; any array is measured, whatever the method, so nothing depends on how Apollo reads it.
  if (Array.isArray(body) && body.length > GRAPHQL_LIMITS.maxBatchOperations) throw batchLimitError(body.length);
  return { req };
}
