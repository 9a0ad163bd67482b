/**
 * The handlers a permissions guard may protect, found at start: the route methods of every controller and
 * the root-field methods of every GraphQL resolver provider, each with the permissions guards that cover it.
 * Both kinds of host are read by one loop, so that routes and resolvers follow the same guard rules.
 */
import { GUARDS_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { APP_GUARD, Reflector, type DiscoveryService } from '@nestjs/core';

/** A provider or controller as Nest's discovery lists it (its wrapper type is not exported by @nestjs/core). */
type InstanceWrapper = ReturnType<DiscoveryService['getProviders']>[number];
import { classMethodsOf, type ClassMethod } from './class-methods.js';
import { resolverMethodsOf, type GraphQLRootField } from './graphql/resolver-methods.js';
import { permissionsGuardConfigOf, type PermissionsGuardConfig } from './guarded-routes.js';
import type { NestMount } from './nest-route-paths.js';
import type { NestClass, RouteHandler } from './nest-targets.js';

const reflector = new Reflector();

/** What kind of handler a host serves: HTTP routes (a controller) or GraphQL root fields (a resolver). */
export type HandlerKind = 'route' | 'resolver';

/** A method of a host and where Nest serves it: under its controller's mount, or as a root field. */
type HostMethod =
  (ClassMethod & { readonly kind: 'route'; readonly mount: NestMount }) | (ClassMethod & { readonly kind: 'resolver'; readonly field: GraphQLRootField });

/** One handler found at start: a controller's route method (`kind: 'route'`) or a resolver's root-field method. */
export type HandlerRecord = HostMethod & {
  /** The controller or resolver class that serves the handler (which, for an inherited handler, is not where it is declared). */
  readonly host: NestClass;
  /** The permissions guards of the method itself, for messages that say who uses a guard. */
  readonly methodGuards: readonly PermissionsGuardConfig[];
  /** Every permissions guard that covers the handler, each once: the global ones, its class's and its own. */
  readonly guards: ReadonlySet<PermissionsGuardConfig>;
};

/** A controller's route method found at start. */
export type RouteHandlerRecord = Extract<HandlerRecord, { readonly kind: 'route' }>;

/** A resolver's root-field method found at start. */
export type ResolverHandlerRecord = Extract<HandlerRecord, { readonly kind: 'resolver' }>;

/** A controller, or a provider that serves at least one root field, with its handlers. */
export interface HandlerHost {
  readonly kind: HandlerKind;
  readonly host: NestClass;
  /** The permissions guards of the class (`@UseGuards()` on it). */
  readonly guards: readonly PermissionsGuardConfig[];
  readonly handlers: readonly HandlerRecord[];
}

/** What the start found: the global permissions guards and every handler host, controllers first. */
export interface DiscoveredHandlers {
  readonly globalGuards: readonly PermissionsGuardConfig[];
  readonly hosts: readonly HandlerHost[];
}

/** The permissions guards among the guards `@UseGuards()` set on a class or a method. */
function permissionsGuardsOf(target: NestClass | RouteHandler): PermissionsGuardConfig[] {
  const guards: unknown = reflector.get(GUARDS_METADATA, target);
  return (Array.isArray(guards) ? guards : []).map(permissionsGuardConfigOf).filter((config) => config !== undefined);
}

/**
 * The permissions guards that cover every handler: those the application applies globally (`APP_GUARD` as a class,
 * a factory or a value, and `app.useGlobalGuards()`), as Nest's application configuration lists them once the
 * providers are made. Without that configuration, the providers registered under `APP_GUARD`. A guard that is
 * merely a provider of a module is no global guard.
 */
function globalGuardsOf(providers: readonly InstanceWrapper[], applied: readonly unknown[] | undefined): PermissionsGuardConfig[] {
  const guards = applied ?? providers.filter((wrapper) => typeof wrapper.token === 'string' && wrapper.token.startsWith(`${APP_GUARD} `)).map(providerClassOf);
  const configs: PermissionsGuardConfig[] = [];
  for (const guard of guards) {
    const config = permissionsGuardConfigOf(guard);
    if (config !== undefined && !configs.includes(config)) configs.push(config);
  }
  return configs;
}

/**
 * The class of the provider `wrapper` holds: its metatype when Nest makes it from a class, else the class of the
 * instance a factory or a value gave (Nest's GraphQL explorer serves a resolver from its instance, however made).
 *
 * @example
 * ```ts
 * providerClassOf(wrapperOf({ provide: DocumentsResolver, useFactory: () => new DocumentsResolver() })); // DocumentsResolver
 * ```
 */
export function providerClassOf(wrapper: InstanceWrapper): NestClass | undefined {
  if (typeof wrapper.metatype === 'function' && wrapper.inject == null) return wrapper.metatype as NestClass;
  const instance: unknown = wrapper.instance;
  if (typeof instance !== 'object' || instance === null) return undefined;
  const type: unknown = instance.constructor;
  return typeof type === 'function' && type !== Object ? (type as NestClass) : undefined;
}

/** The handlers of `host`: its methods with route metadata (a controller), or those serving a root field (a resolver). */
function hostMethodsOf(kind: HandlerKind, host: NestClass, mount: () => NestMount): HostMethod[] {
  if (kind === 'resolver') return resolverMethodsOf(host).map((method) => ({ ...method, kind }));
  const routeMethods = classMethodsOf(host).filter(({ handler }) => reflector.get(PATH_METADATA, handler) !== undefined);
  const at = mount();
  return routeMethods.map((method) => ({ ...method, kind, mount: at }));
}

/**
 * Every controller and every GraphQL resolver provider among `controllers` and `providers` (as Nest's
 * `DiscoveryService` lists them), with their handlers and the permissions guards that cover each. A
 * controller registered in two modules is a host twice (two mounts); a resolver class provided twice is one
 * host; a provider serving no root field (a factory, a service) is none. `mountOf` tells where the
 * controllers of a module are mounted; `appliedGuards` are the guards the application applies globally
 * (`applicationConfig.getGlobalGuards()`), when it can be reached.
 *
 * @example
 * ```ts
 * const mountOf = (module?: NestClass) => ({ module, applicationId, config });
 * const { globalGuards, hosts } = discoverHandlers(discovery.getControllers(), discovery.getProviders(), mountOf);
 * for (const { host, handlers } of hosts) for (const { methodName, guards } of handlers) console.log(`${host.name}.${methodName}`, guards.size);
 * ```
 */
export function discoverHandlers(
  controllers: readonly InstanceWrapper[],
  providers: readonly InstanceWrapper[],
  mountOf: (module: NestClass | undefined) => NestMount,
  appliedGuards?: readonly unknown[],
): DiscoveredHandlers {
  const globalGuards = globalGuardsOf(providers, appliedGuards);
  const candidates = [
    ...controllers.map((wrapper) => ({ kind: 'route' as const, wrapper })),
    ...providers.map((wrapper) => ({ kind: 'resolver' as const, wrapper })),
  ];
  const hosts: HandlerHost[] = [];
  const seenResolvers = new Set<NestClass>();
  for (const { kind, wrapper } of candidates) {
    const host = kind === 'route' ? (typeof wrapper.metatype === 'function' ? (wrapper.metatype as NestClass) : undefined) : providerClassOf(wrapper);
    if (host === undefined) continue;
    if (kind === 'resolver') {
      if (seenResolvers.has(host)) continue;
      seenResolvers.add(host);
    }
    const methods = hostMethodsOf(kind, host, () => mountOf(wrapper.host?.metatype));
    if (kind === 'resolver' && methods.length === 0) continue;
    const guards = permissionsGuardsOf(host);
    const handlers = methods.map((method): HandlerRecord => {
      const methodGuards = permissionsGuardsOf(method.handler);
      return { ...method, host, methodGuards, guards: new Set([...globalGuards, ...guards, ...methodGuards]) };
    });
    hosts.push({ kind, host, guards, handlers });
  }
  return { globalGuards, hosts };
}

/**
 * Every mount of each controller handler among `records`, by controller and handler: a controller registered in
 * two modules is served at both modules' paths, and what its guard checks must hold at each of them.
 *
 * @example
 * ```ts
 * const mounts = mountsByHandler(routeRecords);
 * mounts.get(DocumentsController)?.get(DocumentsController.prototype.read); // [{ module: PlainModule, … }, { module: TenantModule, … }]
 * ```
 */
export function mountsByHandler(records: readonly RouteHandlerRecord[]): Map<NestClass, Map<RouteHandler, NestMount[]>> {
  const byHost = new Map<NestClass, Map<RouteHandler, NestMount[]>>();
  for (const { host, handler, mount } of records) {
    const byHandler = byHost.get(host) ?? new Map<RouteHandler, NestMount[]>();
    byHost.set(host, byHandler);
    byHandler.set(handler, [...(byHandler.get(handler) ?? []), mount]);
  }
  return byHost;
}
