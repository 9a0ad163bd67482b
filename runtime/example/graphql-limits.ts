/**
 * The cost limits of the example's GraphQL endpoint. A permission check costs an ownership query, so an
 * operation that asks the same field a thousand times, or an HTTP request carrying hundreds of operations,
 * would multiply them: every such size has a limit, refused before anything runs with a clear error.
 */
import type { ApolloDriverConfig } from '@nestjs/apollo';
import { ApolloArmor } from '@escape.tech/graphql-armor';

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
 * The Apollo options that enforce {@link GRAPHQL_LIMITS} per operation, with field suggestions ("Did you
 * mean …?") and stack traces removed from error answers, and HTTP batching on (bounded by
 * {@link refuseLargeBatches}).
 *
 * @example
 * ```ts
 * GraphQLModule.forRoot<ApolloDriverConfig>({ driver: ApolloDriver, autoSchemaFile: true, ...graphqlLimitOptions() });
 * ```
 */
export function graphqlLimitOptions(): Pick<
  ApolloDriverConfig,
  'plugins' | 'validationRules' | 'parseOptions' | 'allowBatchedHttpRequests' | 'includeStacktraceInErrorResponses'
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
    includeStacktraceInErrorResponses: false,
  };
}

/** The parts of an express request and response the batch limit reads and writes. */
interface BatchRequest {
  readonly body?: unknown;
}
interface BatchResponse {
  status(code: number): { json(body: unknown): void };
}

/**
 * Express middleware for `POST /graphql` that answers 400, before Apollo runs anything, when a batch
 * holds more than {@link GRAPHQL_LIMITS}.maxBatchOperations operations. The answer is a GraphQL error
 * body with `extensions.code: "BATCH_LIMIT_EXCEEDED"`.
 *
 * @example
 * ```ts
 * consumer.apply(refuseLargeBatches).forRoutes({ path: 'graphql', method: RequestMethod.POST });
 * ```
 */
export function refuseLargeBatches(request: BatchRequest, response: BatchResponse, next: () => void): void {
  const { body } = request;
  if (!Array.isArray(body) || body.length <= GRAPHQL_LIMITS.maxBatchOperations) return next();
  response.status(400).json({
    errors: [
      {
        message: `A batch may hold at most ${GRAPHQL_LIMITS.maxBatchOperations} operations; this one holds ${body.length}. Send fewer operations per request.`,
        extensions: { code: 'BATCH_LIMIT_EXCEEDED' },
      },
    ],
  });
}
