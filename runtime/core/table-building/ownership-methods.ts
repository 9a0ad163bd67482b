/**
 * The ownership service's methods that hook names and ownedAmong executors name: how a name is found on
 * the service, and the problem reported when it is not there — the same at `build()` and when precompiled
 * tables are loaded.
 */
import { quoteForMessage } from '../common/printable-text.js';
import type { DefinitionLocation, DefinitionProblem } from '../common/errors.js';

/**
 * Finds method `name` on `service` or its class, never on Object.prototype (so `toString` is not a
 * hook), and binds it to the service.
 *
 * @example
 * ```ts
 * resolveMethod(new DocumentOwnership(db), 'isCreator'); // the bound method, or undefined
 * ```
 */
export function resolveMethod(service: object, name: string): ((args: object) => unknown) | undefined {
  for (let target: object | null = service; target !== null && target !== Object.prototype; target = Object.getPrototypeOf(target) as object | null) {
    const descriptor = Object.getOwnPropertyDescriptor(target, name);
    if (descriptor === undefined) continue;
    return typeof descriptor.value === 'function' ? (descriptor.value as (args: object) => unknown).bind(service) : undefined;
  }
  return undefined;
}

/**
 * The problem of a hook (of `kind`) naming method `name`, which `ownership` does not have (or there is no service).
 *
 * @example
 * ```ts
 * missingMethodProblem(undefined, 'isCreator', 'isOwner', { index: 0, source: 'document.permissions.json' });
 * ```
 */
export function missingMethodProblem(ownership: object | undefined, name: string, kind: string, location: DefinitionLocation): DefinitionProblem {
  return {
    code: 'unknown-hook-method',
    ...location,
    path: [kind],
    message:
      ownership === undefined
        ? `${kind} names method "${name}", but no ownership service was given.`
        : `${kind} names method "${name}", which the ownership service (${ownership.constructor?.name ?? 'object'}) does not have.`,
    fix:
      ownership === undefined
        ? `Pass { ownership } to new Permissions() (or provide the ownership service), with a method ${name}.`
        : `Add a method ${name} to the ownership service, or correct the name.`,
  };
}

/**
 * The problem of the ownedAmong executor of `resource` naming method `name`, which `ownership` does not have.
 *
 * @example
 * ```ts
 * missingExecutorProblem(service, 'ownedDocumentsAmong', 'document');
 * ```
 */
export function missingExecutorProblem(ownership: object | undefined, name: string, resource: string): DefinitionProblem {
  return {
    code: 'unknown-hook-method',
    index: -1,
    source: `the ownedAmong executor of ${quoteForMessage(resource)}`,
    path: ['ownedAmong', resource],
    message:
      ownership === undefined
        ? `ownedAmong names method "${name}" for ${quoteForMessage(resource)}, but no ownership service was given.`
        : `ownedAmong names method "${name}" for ${quoteForMessage(resource)}, which the ownership service does not have.`,
    fix: `Add a method ${name}({ user, filter, resourceIds }) to the ownership service, or correct the name.`,
  };
}
