/**
 * One permissions engine per application: `PermissionsModule` is global, so a second `forRoot()` (or
 * `forRootAsync()`) imported by a feature module makes a second engine, with its own policy, that the guards of the
 * modules nearest to it would ask instead of the root's — a looser policy there would grant what the root refuses.
 * It stops the start instead, naming the modules that import it.
 */
import { MODULE_METADATA } from '@nestjs/common/constants.js';
import type { ModulesContainer } from '@nestjs/core';
import { PermissionsUsageError } from '../permissions/index.js';

/** What this check reads of a Nest module: its class and its providers' tokens. */
interface ModuleView {
  readonly metatype?: { readonly name?: string } | undefined;
  readonly providers: ReadonlyMap<unknown, unknown>;
}

/**
 * Whether `module`'s `@Module({ imports })` names `engineModule`, as a class or as a dynamic module of it. (Nest binds
 * a global module into every module's imports, so the container's own lists cannot tell who asked for it.)
 */
function declaresImportOf(module: ModuleView, engineModule: unknown): boolean {
  if (module.metatype === undefined) return false;
  const imports: unknown = Reflect.getMetadata(MODULE_METADATA.IMPORTS, module.metatype);
  return Array.isArray(imports) && imports.some((entry) => entry === engineModule || (entry as { module?: unknown } | null)?.module === engineModule);
}

/**
 * Throws a PermissionsUsageError when more than one module of `modules` provides `service` (the permissions
 * service), naming the modules that import each.
 *
 * @example
 * ```ts
 * checkSinglePermissionsModule(modulesContainer, PermissionsService);
 * // throws: PermissionsModule.forRoot() (or forRootAsync()) is imported 2 times, by AppModule and FeatureModule; …
 * ```
 */
export function checkSinglePermissionsModule(modules: ModulesContainer, service: object): void {
  const all = [...modules.values()] as unknown as ModuleView[];
  const engines = all.filter((module) => module.providers.has(service));
  if (engines.length <= 1) return;
  const importers = all
    .filter((module) => declaresImportOf(module, engines[0]?.metatype))
    .map((module) => module.metatype?.name ?? '(a module without a name)');
  throw new PermissionsUsageError(
    `PermissionsModule.forRoot() (or forRootAsync()) is imported ${engines.length} times` +
      `${importers.length === 0 ? '' : `, by ${[...new Set(importers)].sort().join(' and ')}`}: each import makes an engine of its own, ` +
      'with its own policy, and the guards of a module would ask the one nearest to it. Import it once, in the root module ' +
      '(it is global: every module sees it); give the definitions of feature modules with PermissionsModule.forFeature().',
  );
}
