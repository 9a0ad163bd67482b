/**
 * The start-time check of every guarded controller handler: each is resolved once, before the first request.
 */
import type { Permissions, PermissionsOptions } from '../permissions/index.js';
import { describePaths, isResourceIdParamProblem } from '../integration/index.js';
import type { PermissionsGuardConfig, PermissionsRoute } from './guarded-routes.js';
import type { RouteHandlerRecord } from './handler-hosts.js';
import { grantWarnings, reportStartProblems } from './start-problems.js';

/**
 * Resolves, with `routeOf`, what each permissions guard covering each of `records` checks. A handler whose
 * resource id parameter cannot be told unambiguously stops the start (always: guessing would turn a record
 * check into a collection check); one that can never be granted (an action or resource no definition names)
 * is a warning, an error with `strict: true`.
 *
 * @example
 * ```ts
 * checkGuardedRoutes(engine, routeRecords, (config, { host, handler, mount }) => permissionsService.routeFor(config, host, handler, [mount]), options);
 * // throws: Guarded handlers whose resource id parameter is ambiguous; the application does not start, …
 * ```
 */
export function checkGuardedRoutes(
  engine: Permissions<any, any>,
  records: readonly RouteHandlerRecord[],
  routeOf: (config: PermissionsGuardConfig, record: RouteHandlerRecord) => PermissionsRoute,
  options: Pick<PermissionsOptions<any, any>, 'strict' | 'logger'>,
): void {
  const idProblems: string[] = [];
  const warnings: string[] = [];
  for (const record of records) {
    for (const config of record.guards) {
      const route = routeOf(config, record);
      if (route.skip) continue;
      if (isResourceIdParamProblem(route.resourceId)) {
        idProblems.push(`${route.label} (${describePaths(route.paths)}) ${route.resourceId.problem}. Fix: ${route.resourceId.fix}`);
      }
      warnings.push(...grantWarnings(engine, route));
    }
  }
  reportStartProblems(idProblems, warnings, 'Guarded handlers whose resource id parameter is ambiguous', options);
}
