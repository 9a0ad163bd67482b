/**
 * What a permissions guard checks for a GraphQL resolver method: its root field as the served schema declares
 * it, so that the record id is looked for among the arguments a call can really carry.
 */
import { PermissionsUsageError } from '../../permissions/index.js';
import { resolvePermissionsResolverRoute, type PermissionsGuardConfig, type PermissionsRoute } from '../guarded-routes.js';
import type { ProjectResourceId } from '../permissions-module-options.js';
import type { NestClass, RouteHandler } from '../nest-targets.js';
import { fieldArguments, schemaFieldOf, type GraphQLSchemaReader } from './graphql-schema.js';
import { resolverMethodsOf, rootFieldOf } from './resolver-methods.js';

/**
 * What `config`'s guard checks for the resolver method `handler` of `resolver`, against `graphql` (the schema
 * the application serves, read at bootstrap). Without a schema, or without a schema field for the method (no
 * GraphQL module, or no `@Query`/`@Mutation`), it throws, and the permissions check refuses the call.
 *
 * @example
 * ```ts
 * resolveResolverRoute(config, DocumentsResolver, DocumentsResolver.prototype.document, reader, Number);
 * // { label: 'DocumentsResolver.document', paths: ['Query.document'], resource: 'document', action: 'document', … }
 * ```
 */
export function resolveResolverRoute(
  config: PermissionsGuardConfig,
  resolver: NestClass,
  handler: RouteHandler,
  graphql: GraphQLSchemaReader | undefined,
  moduleProjection: ProjectResourceId | undefined,
): PermissionsRoute {
  const field = resolverMethodsOf(resolver).find((method) => method.handler === handler)?.field ?? rootFieldOf(handler, handler.name);
  const schemaField = graphql === undefined || field === undefined ? undefined : schemaFieldOf(graphql.schema, field);
  if (graphql === undefined || field === undefined || schemaField === undefined) {
    throw new PermissionsUsageError(
      `${resolver.name}.${handler.name} is guarded as a GraphQL resolver, but the application start found no schema field for it ` +
        `(no GraphQL module, or the method is no @Query/@Mutation); the permissions check refuses the call.`,
    );
  }
  return resolvePermissionsResolverRoute(
    config,
    resolver,
    handler,
    `${field.operation}.${field.name}`,
    fieldArguments(schemaField, graphql.tools),
    moduleProjection,
  );
}
