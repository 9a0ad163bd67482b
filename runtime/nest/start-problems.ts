/**
 * What the start says about guarded handlers: handlers that can never be granted (warnings, errors in strict
 * mode), and the one way problems found at start are reported for routes and resolvers alike.
 */
import { PermissionsUsageError, type Permissions, type PermissionsOptions } from '../permissions/index.js';
import type { PermissionsRoute } from './guarded-routes.js';

/** The `resource\u0000action` pairs some role is granted, per engine (computed once: the tables may hold many cells). */
const grantedPairs = new WeakMap<object, ReadonlySet<string>>();

/**
 * Warnings for a handler that can never be granted: its resource, or its action on it, is granted to no role, or
 * its action is not one its resource declares (every request then fails).
 *
 * @example
 * ```ts
 * grantWarnings(engine, route);
 * // ['DocumentsController.archive checks action "archive" on "document", which no role is granted, so every request is refused (403). …']
 * ```
 */
export function grantWarnings(engine: Permissions<any, any>, route: PermissionsRoute): string[] {
  const { resources, actions, cells } = engine.tables;
  let granted = grantedPairs.get(engine);
  if (granted === undefined) grantedPairs.set(engine, (granted = new Set(cells.map(([resource, action]) => `${resources[resource]}\u0000${actions[action]}`))));
  const resource = resources.indexOf(route.resource);
  if (resource === -1)
    return [`${route.label} checks resource ${JSON.stringify(route.resource)}, which no definition names, so every request is refused (403).`];
  const declared = engine.tables.declaredActions?.[resource];
  if (declared !== null && declared !== undefined && !declared.some((action) => actions[action] === route.action))
    return [
      `${route.label} checks action ${JSON.stringify(route.action)} on ${JSON.stringify(route.resource)}, which declares only ` +
        `${declared.map((action) => JSON.stringify(actions[action])).join(', ')}, so every request fails (500, a PermissionsUsageError). ` +
        'Rename the method, set @Permission({ action }), or declare the action in the resource file.',
    ];
  if (granted.has(`${route.resource}\u0000${route.action}`)) return [];
  return [
    `${route.label} checks action ${JSON.stringify(route.action)} on ${JSON.stringify(route.resource)}, which no ` +
      `role is granted, so every request is refused (403). Rename the method, set @Permission({ action }), or ` +
      `grant the action.`,
  ];
}

/**
 * Stops the start for any record-id problem (a check without the right record id could grant access to the
 * wrong record); logs each warning once through `options.logger` (else the console), or throws them all with
 * `strict: true`.
 *
 * @example
 * ```ts
 * reportStartProblems([], ['DocumentsController.archive checks action "archive" …'], 'Guarded handlers whose …', { strict: false });
 * // logs: typed-permissions: DocumentsController.archive checks action "archive" …
 * ```
 */
export function reportStartProblems(
  idProblems: readonly string[],
  warnings: readonly string[],
  title: string,
  options: Pick<PermissionsOptions<any, any>, 'strict' | 'logger'>,
): void {
  if (idProblems.length > 0) {
    throw new PermissionsUsageError(
      `${title}; the application does not start, because a check without the right record id could grant access to the ` +
        `wrong record:\n` +
        [...new Set(idProblems)].map((p) => `  - ${p}`).join('\n'),
    );
  }
  if (warnings.length === 0) return;
  if (options.strict === true)
    throw new PermissionsUsageError(`Guarded handlers that are misconfigured (strict mode):\n${warnings.map((p) => `  - ${p}`).join('\n')}`);
  const logger = options.logger ?? console;
  for (const warning of new Set(warnings)) logger.warn(`typed-permissions: ${warning}`);
}
