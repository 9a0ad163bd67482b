/**
 * Ownership services that stand in for an application's: where a policy must be loaded against the methods an
 * application has without running any of them — the decision service (ownership is decided by the applications
 * that ask it, next to their data), and `policy publish` checking a version against what each follower
 * registered. And the other way round: the methods a real service has, as a follower registers them.
 */
import { hookNameProblem } from '../core/definition/names.js';
import { PermissionsUsageError } from '../core/common/errors.js';
import type { OwnershipRuleSource } from '../core/ownership-rules/ownership-rule-source.js';

/** Stand-ins that have every method a policy may name: their methods cannot be listed, only said to be "any". */
const HAS_EVERY_METHOD = new WeakSet<object>();

/**
 * An ownership service with exactly the methods `methods` names — a policy naming another method is rejected,
 * as the application would reject it (messages name the service `serviceName`, the class of the application's
 * service) — or, without a list, with every method a policy may name. Calling one throws a
 * PermissionsUsageError with `refusal(name)`.
 *
 * @example
 * ```ts
 * const ownership = ownershipStandIn(['isCreator', 'listCreated'], (name) => `${name} runs in the application.`);
 * const permissions = permissionsFromTables(tables, { ownership }); // a policy naming approvedBy is rejected
 * ```
 */
export function ownershipStandIn(methods: readonly string[] | undefined, refusal: (name: string) => string, serviceName = 'Object'): object {
  const refuse = (name: string) => () => {
    throw new PermissionsUsageError(refusal(name));
  };
  if (methods !== undefined) {
    const service: Record<string, () => never> = {};
    for (const name of methods) {
      const problem = typeof name === 'string' ? hookNameProblem(name) : 'is not a string';
      if (problem !== undefined) throw new PermissionsUsageError(`The ownership method name ${JSON.stringify(name)} ${problem}.`);
      Object.defineProperty(service, name, { value: refuse(name), enumerable: true });
    }
    // What messages about a missing method read the service's name from ('constructor' is never a hook name).
    Object.defineProperty(service, 'constructor', { value: { name: serviceName } });
    return service;
  }
  // Every name a hook may have is a method (the engine finds methods by their property descriptors); none can be called.
  const service = new Proxy(
    {},
    {
      getOwnPropertyDescriptor: (_target, name) =>
        typeof name === 'string' && hookNameProblem(name) === undefined
          ? { value: refuse(name), writable: false, enumerable: true, configurable: true }
          : undefined,
    },
  );
  HAS_EVERY_METHOD.add(service);
  return service;
}

/**
 * A source of the records behind ownership rules that binds a policy's rules and refuses, with `refusal`, every
 * question asked of it: where rules are evaluated on a record given with the question, or not at all.
 *
 * @example
 * ```ts
 * const permissions = permissionsFromTables(tables, { ownershipRules: ownershipRulesStandIn('The service has no records.') });
 * ```
 */
export function ownershipRulesStandIn(refusal: string): OwnershipRuleSource {
  const refuse = (): never => {
    throw new PermissionsUsageError(refusal);
  };
  return { filter: refuse, ownedAmong: refuse, listOwned: refuse };
}

/**
 * The name of `ownership`'s class, as messages about its methods give it (`Object` for a plain object).
 *
 * @example
 * ```ts
 * ownershipServiceName(new DocumentOwnership(db)); // 'DocumentOwnership'
 * ```
 */
export function ownershipServiceName(ownership: object | undefined): string | undefined {
  if (ownership === undefined) return undefined;
  const name = (ownership.constructor as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : 'object';
}

/**
 * The methods `ownership` has that a policy may name (its own and its class's, never Object's), sorted; `'any'`
 * for a stand-in with every method; none without a service.
 *
 * @example
 * ```ts
 * ownershipMethodsOf(new DocumentOwnership(db)); // ['isCreator', 'listCreated', 'ownedDocumentsAmong']
 * ```
 */
export function ownershipMethodsOf(ownership: object | undefined): readonly string[] | 'any' {
  if (ownership === undefined) return [];
  if (HAS_EVERY_METHOD.has(ownership)) return 'any';
  const seen = new Set<string>();
  const methods: string[] = [];
  for (let target: object | null = ownership; target !== null && target !== Object.prototype; target = Object.getPrototypeOf(target) as object | null) {
    for (const name of Object.getOwnPropertyNames(target)) {
      // The first property of a name along the chain is the one the engine finds: a value that is not a function hides a method.
      if (seen.has(name)) continue;
      seen.add(name);
      const value: unknown = Object.getOwnPropertyDescriptor(target, name)?.value;
      if (typeof value === 'function' && name !== 'constructor' && hookNameProblem(name) === undefined) methods.push(name);
    }
  }
  return methods.sort();
}
