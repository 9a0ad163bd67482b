/**
 * The decision service never decides ownership — that is the applications' job, next to their data — yet the
 * engine binds every hook name of a policy to an ownership service's method when it loads the policy. The
 * placeholder stands in for the applications' service: it has the methods they implement (or any method, when
 * they are not listed), and each one refuses to be called.
 */
import { hookNameProblem } from '../core/definition/names.js';
import { PermissionsUsageError } from '../core/errors.js';

function refuse(name: string): () => never {
  return () => {
    throw new PermissionsUsageError(`The decision service does not run ownership methods (${name} was called); the application that asked runs them.`);
  };
}

/**
 * An ownership service with the methods `methods` names — a policy naming another method is rejected, as the
 * applications would reject it — or, without a list, with every method a policy may name.
 *
 * @example
 * ```ts
 * const ownership = ownershipPlaceholder(['isCreator', 'listCreated']);
 * const permissions = permissionsFromTables(tables, { ownership }); // a policy naming approvedBy is rejected
 * ```
 */
export function ownershipPlaceholder(methods: readonly string[] | undefined): object {
  if (methods !== undefined) {
    const service: Record<string, () => never> = {};
    for (const name of methods) {
      const problem = typeof name === 'string' ? hookNameProblem(name) : 'is not a string';
      if (problem !== undefined) throw new PermissionsUsageError(`createDecisionService(options): ownershipMethods: ${JSON.stringify(name)} ${problem}.`);
      Object.defineProperty(service, name, { value: refuse(name), enumerable: true });
    }
    return service;
  }
  // Every name a hook may have is a method (the engine finds methods by their property descriptors); none can be called.
  return new Proxy(
    {},
    {
      getOwnPropertyDescriptor: (_target, name) =>
        typeof name === 'string' && hookNameProblem(name) === undefined
          ? { value: refuse(name), writable: false, enumerable: true, configurable: true }
          : undefined,
    },
  );
}
