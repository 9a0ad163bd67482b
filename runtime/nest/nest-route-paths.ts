/**
 * The full paths a Nest handler is served at — global prefix, RouterModule path, controller path,
 * method path and URI version — computed with Nest's own RoutePathFactory, so the permissions
 * guard resolves the resource id against the very paths the router registers.
 */
import { METHOD_METADATA, MODULE_PATH, PATH_METADATA, VERSION_METADATA } from '@nestjs/common/constants.js';
import type { ApplicationConfig } from '@nestjs/core';
import { LegacyRouteConverter } from '@nestjs/core/internal.js';
import { RoutePathFactory } from '@nestjs/core/router/route-path-factory.js';
import type { NestClass, RouteHandler } from './nest-targets.js';

/** Where a controller is mounted: its module's RouterModule path and the application's configuration, when known. */
export interface NestMount {
  /** The module class that declares the controller. */
  readonly module?: NestClass | undefined;
  /** `ModulesContainer.applicationId`, which keys RouterModule paths. */
  readonly applicationId?: string | undefined;
  /** The application's configuration (global prefix, versioning), when it can be reached. */
  readonly config?: ApplicationConfig | undefined;
}

const withSlash = (path: string): string => (path.startsWith('/') ? path : `/${path}`);

function asPaths(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((path) => withSlash(String(path)));
  return [withSlash(typeof value === 'string' ? value : '')];
}

/**
 * The full paths of `handler` of `controller`, as Nest registers them.
 *
 * @example
 * ```ts
 * nestRoutePaths(DocumentsController, DocumentsController.prototype.read, { config }); // ['/api/documents/:id']
 * ```
 */
export function nestRoutePaths(controller: NestClass, handler: RouteHandler, mount: NestMount): string[] {
  const { module, applicationId, config } = mount;
  const modulePath: unknown =
    module === undefined ? undefined : (Reflect.getMetadata(MODULE_PATH + (applicationId ?? ''), module) ?? Reflect.getMetadata(MODULE_PATH, module));
  const factory = new RoutePathFactory(
    config ?? ({ getGlobalPrefix: () => '', getGlobalPrefixOptions: () => ({}), getVersioning: () => undefined } as unknown as ApplicationConfig),
  );
  const versioningOptions = config?.getVersioning();
  const controllerVersion: unknown =
    Reflect.getMetadata(VERSION_METADATA, controller) ?? (versioningOptions as { defaultVersion?: unknown } | undefined)?.defaultVersion;
  const requestMethod: unknown = Reflect.getMetadata(METHOD_METADATA, handler);
  const paths: string[] = [];
  for (const ctrlPath of asPaths(Reflect.getMetadata(PATH_METADATA, controller))) {
    for (const methodPath of asPaths(Reflect.getMetadata(PATH_METADATA, handler))) {
      const metadata = {
        ctrlPath,
        methodPath,
        modulePath: typeof modulePath === 'string' ? modulePath : undefined,
        globalPrefix: config?.getGlobalPrefix() ?? '',
        controllerVersion,
        methodVersion: Reflect.getMetadata(VERSION_METADATA, handler) as unknown,
        versioningOptions,
      };
      const created = factory.create(metadata as Parameters<RoutePathFactory['create']>[0], requestMethod as Parameters<RoutePathFactory['create']>[1]);
      // Nest's adapters register a path of the old syntax (`files/*`, `(.*)`) as its converter rewrites it (`files/{*path}`):
      // the parameters a request carries are the rewritten path's.
      paths.push(...created.map((path) => LegacyRouteConverter.tryConvert(path, { logs: false })));
    }
  }
  return [...new Set(paths)];
}
