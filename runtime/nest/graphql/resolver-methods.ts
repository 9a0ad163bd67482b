/**
 * GraphQL resolvers as `@nestjs/graphql` declares them, read from the metadata its decorators write,
 * so that the NestJS integration finds guarded resolvers at start without importing `@nestjs/graphql`
 * (an optional peer: applications without GraphQL never load it).
 */
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

/**
 * The methods of a class (base classes included) that serve a root field, with their names, or `[]` for a
 * class that is no resolver.
 *
 * @example
 * ```ts
 * resolverMethodsOf(DocumentsResolver); // [{ handler: …document, methodName: 'document', field: { operation: 'Query', name: 'document' } }, …]
 * ```
 */
export function resolverMethodsOf(resolver: NestClass): { handler: RouteHandler; methodName: string; field: GraphQLRootField }[] {
  const seen = new Set<string>();
  const methods: { handler: RouteHandler; methodName: string; field: GraphQLRootField }[] = [];
  // A provider's metatype may be a factory (an arrow function has no prototype): not a resolver.
  for (
    let proto: unknown = resolver.prototype;
    typeof proto === 'object' && proto !== null && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === 'constructor' || seen.has(key)) continue;
      seen.add(key);
      const value: unknown = Object.getOwnPropertyDescriptor(proto, key)?.value;
      if (typeof value !== 'function') continue;
      // Any function is a RouteHandler (its parameters are never[]); `typeof` only narrows to Function.
      const field = rootFieldOf(value as RouteHandler, key);
      if (field !== undefined) methods.push({ handler: value as RouteHandler, methodName: key, field });
    }
  }
  return methods;
}
