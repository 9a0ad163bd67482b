/**
 * The bootstrap check of every guarded GraphQL resolver method, against the schema the application serves
 * (built by the GraphQL module during module initialisation, so it is read only at bootstrap).
 */
import type { Permissions, PermissionsOptions } from '../../permissions/index.js';
import { isResourceIdParamProblem } from '../../integration/index.js';
import type { PermissionsGuardConfig, PermissionsRoute } from '../guarded-routes.js';
import type { ResolverHandlerRecord } from '../handler-hosts.js';
import { grantWarnings, reportStartProblems } from '../start-problems.js';
import { nonNullReturnedFields, schemaFieldOf, type GraphQLSchemaReader } from './graphql-schema.js';

/**
 * Resolves, with `routeOf`, what each permissions guard covering each of `records` checks, by the same rules
 * as routes for the record id (over the field's arguments). A subscription stops the start (it has no request
 * per event to check); a returned object type with non-null fields, which could not resolve a hidden attribute
 * to `null`, is a warning (an error with `strict: true`). A method the schema does not serve (left out by the
 * GraphQL module's `include`) is never called, so it is not checked.
 *
 * @example
 * ```ts
 * checkGuardedResolvers(engine, reader, resolverRecords, (config, { host, handler }) => permissionsService.resolverRouteFor(config, host, handler), options);
 * // throws: Guarded resolvers whose resource id argument is ambiguous or that cannot be checked; …
 * ```
 */
export function checkGuardedResolvers(
  engine: Permissions<any, any>,
  reader: GraphQLSchemaReader,
  records: readonly ResolverHandlerRecord[],
  routeOf: (config: PermissionsGuardConfig, record: ResolverHandlerRecord) => PermissionsRoute,
  options: Pick<PermissionsOptions<any, any>, 'strict' | 'logger'>,
): void {
  const idProblems: string[] = [];
  const warnings: string[] = [];
  for (const record of records) {
    const schemaField = schemaFieldOf(reader.schema, record.field);
    if (schemaField === undefined) continue;
    for (const config of record.guards) {
      const route = routeOf(config, record);
      if (route.skip) continue;
      const at = `${route.label} (${route.paths.join(', ')})`;
      if (record.field.operation === 'Subscription') {
        idProblems.push(
          `${at} is a subscription, which the permissions guard cannot check per event. Fix: ` +
            'mark it @SkipPermissions() and check each event with PermissionsService.grantPermit() in its filter or resolve function.',
        );
        continue;
      }
      if (isResourceIdParamProblem(route.resourceId)) idProblems.push(`${at} ${route.resourceId.problem}. Fix: ${route.resourceId.fix}`);
      const nonNull = nonNullReturnedFields(schemaField, reader.tools);
      if (nonNull.length > 0) {
        warnings.push(
          `${at} returns non-null fields (${nonNull.join(', ')}): an attribute a permit hides resolves ` +
            'to null, which a non-null field turns into an error for its whole parent. Make them nullable (@Field({ nullable: true })).',
        );
      }
      warnings.push(...grantWarnings(engine, route));
    }
  }
  reportStartProblems(idProblems, warnings, 'Guarded resolvers whose resource id argument is ambiguous or that cannot be checked', options);
}
