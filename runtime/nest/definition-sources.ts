/**
 * Where the definitions of a NestJS application come from: `forRoot`, every `forFeature` and every permissions
 * guard some handler uses, each labelled for messages. All are built together once, wherever they were written.
 */
import type { DiscoveryService, ModulesContainer } from '@nestjs/core';

/** A provider or controller as Nest's discovery lists it (its wrapper type is not exported by @nestjs/core). */
type InstanceWrapper = ReturnType<DiscoveryService['getProviders']>[number];
import type { PermissionDefinition } from '../permissions/index.js';
import type { PermissionsGuardConfig } from './guarded-routes.js';
import type { DiscoveredHandlers } from './handler-hosts.js';
import { PermissionsFeatureDefinitions } from './permissions-feature.js';

/** One array of definitions and where it came from. */
export interface DefinitionSource {
  readonly definitions: readonly PermissionDefinition[];
  readonly source: string;
}

/** The name of the module that imported a `forFeature()` module, for messages. */
function importerName(wrapper: InstanceWrapper, modules: ModulesContainer): string {
  const host = wrapper.host;
  if (host === undefined) return 'a feature module';
  for (const module of modules.values()) {
    if (module.imports.has(host)) return module.name;
  }
  return host.name;
}

/** Who uses each permissions guard (`Controller`, `Controller.method`, a global guard), in the order they were found. */
function guardUsersOf({ globalGuards, hosts }: DiscoveredHandlers): Map<PermissionsGuardConfig, Set<string>> {
  const users = new Map<PermissionsGuardConfig, Set<string>>();
  const use = (config: PermissionsGuardConfig, user: string): void => {
    let names = users.get(config);
    if (names === undefined) users.set(config, (names = new Set()));
    names.add(user);
  };
  for (const config of globalGuards) use(config, 'a global guard (APP_GUARD)');
  for (const { host, guards, handlers } of hosts) {
    for (const config of guards) use(config, host.name);
    for (const { methodName, methodGuards } of handlers) for (const config of methodGuards) use(config, `${host.name}.${methodName}`);
  }
  return users;
}

/**
 * Every array of definitions the application gives, each once (an array shared by two guards is built once):
 * `forRoot`'s, then each `forFeature()` provider's, then each used permissions guard's. A guard no handler
 * uses gives none.
 *
 * @example
 * ```ts
 * const providers = discovery.getProviders();
 * definitionSources(options.definitions, providers, modulesContainer, discoverHandlers(discovery.getControllers(), providers, mountOf));
 * // [{ definitions, source: 'PermissionsModule.forRoot({ definitions })' },
 * //  { definitions: invoiceDefinitions, source: 'PermissionsModule.forFeature() in InvoicesModule' },
 * //  { definitions: documentDefinitions, source: 'createPermissionsGuard({ resource: "document" }) used by DocumentsController' }]
 * ```
 */
export function definitionSources(
  rootDefinitions: readonly PermissionDefinition[] | undefined,
  providers: readonly InstanceWrapper[],
  modules: ModulesContainer,
  handlers: DiscoveredHandlers,
): DefinitionSource[] {
  const sources: DefinitionSource[] = [];
  const seenArrays = new Set<readonly PermissionDefinition[]>();
  const add = (definitions: readonly PermissionDefinition[], source: string): void => {
    if (seenArrays.has(definitions)) return;
    seenArrays.add(definitions);
    sources.push({ definitions, source });
  };
  if (rootDefinitions !== undefined) add(rootDefinitions, 'PermissionsModule.forRoot({ definitions })');
  for (const wrapper of providers) {
    const instance: unknown = wrapper.instance;
    if (instance instanceof PermissionsFeatureDefinitions)
      add(instance.definitions, instance.source ?? `PermissionsModule.forFeature() in ${importerName(wrapper, modules)}`);
  }
  for (const [config, users] of guardUsersOf(handlers)) {
    add(config.definitions, `createPermissionsGuard({ resource: ${JSON.stringify(config.options.resource)} }) used by ${[...users].join(', ')}`);
  }
  return sources;
}
