/**
 * The start-time check of `@GetPermit()`: a handler that injects a permit no permissions guard makes would fail
 * on every request, so the application does not start.
 */
import { PermissionsUsageError } from '../permissions/index.js';
import { injectsPermit } from './get-permit-decorator.js';
import type { HandlerRecord } from './handler-hosts.js';
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
 * Stops the start when a route or resolver handler injects `@GetPermit()` that no permissions guard gives a
 * permit to: no guard covers it, or it is marked `@SkipPermissions()`.
 *
 * @example
 * ```ts
 * checkPermitConsumers(hosts.flatMap((host) => host.handlers));
 * // throws: Handlers inject @GetPermit() but no permissions guard gives them a permit, …
 * //   - DocumentsController.read injects @GetPermit(), but no permissions guard covers it. …
 * ```
 */
export function checkPermitConsumers(records: readonly HandlerRecord[]): void {
  const problems = records.flatMap(permitConsumerProblems);
  if (problems.length === 0) return;
  throw new PermissionsUsageError(
    `Handlers inject @GetPermit() but no permissions guard gives them a permit, so every request would fail; the application does not start:\n` +
      problems.map((p) => `  - ${p}`).join('\n'),
  );
}
