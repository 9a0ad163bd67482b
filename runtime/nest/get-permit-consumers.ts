/**
 * The start-time check of `@GetPermit()`: a handler that injects a permit no permissions guard makes would fail
 * on every request, so the application does not start.
 */
import { PermissionsUsageError } from '../permissions/index.js';
import { classMethodsOf } from './class-methods.js';
import { injectsPermit } from './get-permit-decorator.js';
import { isFieldResolver } from './graphql/resolver-methods.js';
import type { HandlerRecord } from './handler-hosts.js';
import type { NestClass } from './nest-targets.js';
import { isPermissionsSkipped } from './permission-decorator.js';

/** Why the handler of `record` cannot have the permit it injects with `@GetPermit()`; nothing when it can or injects none. */
function permitConsumerProblems({ host, handler, methodName, guards }: HandlerRecord): string[] {
  if (!injectsPermit(host, methodName)) return [];
  if (guards.size === 0) {
    return [
      `${host.name}.${methodName} injects @GetPermit(), but no permissions guard covers it. Fix: add @UseGuards(createPermissionsGuard(…)) ` +
        'to the class or the method (or register one as APP_GUARD).',
    ];
  }
  if (isPermissionsSkipped(handler)) {
    return [
      `${host.name}.${methodName} injects @GetPermit(), but is marked @SkipPermissions(), so no permit is made for it. Fix: remove ` +
        '@SkipPermissions(), or the @GetPermit() parameter.',
    ];
  }
  return [];
}

/**
 * Why the `@ResolveField()` methods of `classes` that inject `@GetPermit()` cannot have it: a permit is made for a
 * root field's call (`@Query()`, `@Mutation()`), and a field of an object type resolved under it has none of its own.
 */
function fieldResolverProblems(classes: readonly NestClass[]): string[] {
  return [...new Set(classes)].flatMap((host) =>
    classMethodsOf(host)
      .filter(({ handler, methodName }) => isFieldResolver(handler) && injectsPermit(host, methodName))
      .map(
        ({ methodName }) =>
          `${host.name}.${methodName} injects @GetPermit() in a @ResolveField() method, which no permissions guard gives a permit: ` +
          'one is made per root field call. Fix: ask for what the field needs with PermissionsService, or resolve it in the root field.',
      ),
  );
}

/**
 * Stops the start when a route or resolver handler injects `@GetPermit()` that no permissions guard gives a
 * permit to: no guard covers it, or it is marked `@SkipPermissions()`; or when a `@ResolveField()` method of one of
 * `providerClasses` injects it.
 *
 * @example
 * ```ts
 * checkPermitConsumers(hosts.flatMap((host) => host.handlers));
 * // throws: Handlers inject @GetPermit() but no permissions guard gives them a permit, …
 * //   - DocumentsController.read injects @GetPermit(), but no permissions guard covers it. …
 * ```
 */
export function checkPermitConsumers(records: readonly HandlerRecord[], providerClasses: readonly NestClass[] = []): void {
  const problems = [...records.flatMap(permitConsumerProblems), ...fieldResolverProblems(providerClasses)];
  if (problems.length === 0) return;
  throw new PermissionsUsageError(
    `Handlers inject @GetPermit() but no permissions guard gives them a permit, so every request would fail; the application does not start:\n` +
      problems.map((p) => `  - ${p}`).join('\n'),
  );
}
