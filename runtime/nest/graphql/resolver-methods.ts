/**
 * GraphQL resolvers as `@nestjs/graphql` declares them, read from the metadata its decorators write,
 * so that the NestJS integration finds guarded resolvers at start without importing `@nestjs/graphql`
 * (an optional peer: applications without GraphQL never load it).
 */
import { classMethodsOf, type ClassMethod } from '../class-methods.js';
import type { NestClass, RouteHandler } from '../nest-targets.js';

/**
 * The metadata keys `@Query()`, `@Mutation()`, `@Subscription()` and `@ResolveField()` write (the
 * values of `@nestjs/graphql`'s `RESOLVER_TYPE_METADATA`, `RESOLVER_NAME_METADATA` and
 * `RESOLVER_PROPERTY_METADATA`; a test keeps them equal).
 */
export const GRAPHQL_METADATA_KEYS = {
  resolverType: 'graphql:resolver_type',
  resolverName: 'graphql:resolver_name',
  resolveProperty: 'graphql:resolve_property',
} as const;

/** The root operation types a resolver method may serve. */
export type GraphQLOperation = 'Query' | 'Mutation' | 'Subscription';

const OPERATIONS: readonly string[] = ['Query', 'Mutation', 'Subscription'];

/** The root field a resolver method serves: `Query.document`. */
export interface GraphQLRootField {
  readonly operation: GraphQLOperation;
  readonly name: string;
}

/**
 * The root field `handler` (the method `methodName` of a resolver class) serves, or `undefined` when it
 * is not a `@Query()`, `@Mutation()` or `@Subscription()` method. The field is named by the decorator's
 * `name` option, else by the method.
 *
 * @example
 * ```ts
 * rootFieldOf(DocumentsResolver.prototype.document, 'document'); // { operation: 'Query', name: 'document' }
 * ```
 */
export function rootFieldOf(handler: RouteHandler, methodName: string): GraphQLRootField | undefined {
  const operation: unknown = Reflect.getMetadata(GRAPHQL_METADATA_KEYS.resolverType, handler);
  if (typeof operation !== 'string' || !OPERATIONS.includes(operation) || isFieldResolver(handler)) return undefined;
  const name: unknown = Reflect.getMetadata(GRAPHQL_METADATA_KEYS.resolverName, handler);
  return { operation: operation as GraphQLOperation, name: typeof name === 'string' && name !== '' ? name : methodName };
}

/**
 * Whether `handler` is a `@ResolveField()` method (a field of an object type, resolved per parent).
 *
 * @example
 * ```ts
 * isFieldResolver(DocumentsResolver.prototype.author); // true
 * ```
 */
export function isFieldResolver(handler: RouteHandler): boolean {
  return Reflect.getMetadata(GRAPHQL_METADATA_KEYS.resolveProperty, handler) === true;
}

/** A resolver method that serves a root field. */
export interface ResolverMethod extends ClassMethod {
  readonly field: GraphQLRootField;
}

/**
 * The methods of a class (base classes included, scanned as Nest's GraphQL explorer scans them) that serve
 * a root field, with their names, or `[]` for a class that is no resolver (or a factory provider's function).
 *
 * @example
 * ```ts
 * resolverMethodsOf(DocumentsResolver); // [{ handler: …document, methodName: 'document', field: { operation: 'Query', name: 'document' } }, …]
 * ```
 */
export function resolverMethodsOf(resolver: NestClass): ResolverMethod[] {
  const methods: ResolverMethod[] = [];
  for (const { methodName, handler } of classMethodsOf(resolver)) {
    const field = rootFieldOf(handler, methodName);
    if (field !== undefined) methods.push({ handler, methodName, field });
  }
  return methods;
}
