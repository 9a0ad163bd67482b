/**
 * `PermissionsModule`: `forRoot` / `forRootAsync` configure the application's permissions engine
 * (a global module), `forFeature` adds definitions from a feature module.
 */
import { Module, type ConfigurableModuleAsyncOptions, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { PermissionsUsageError, type PermissionDefinition, type User } from '../permissions/index.js';
import type { PermissionsModuleOptions } from './permissions-module-options.js';
import { PermissionsFeatureDefinitions } from './permissions-feature.js';
import { ConfigurablePermissionsModule } from './permissions-module-definition.js';
import { PermissionsService } from './permissions-service.js';

/**
 * @internal The module a `forFeature()` call creates; each call is a module of its own.
 *
 * @example
 * ```ts
 * PermissionsModule.forFeature(invoiceDefinitions); // { module: PermissionsFeatureModule, providers: [{ provide: Symbol(…), useValue: … }] }
 * ```
 */
@Module({})
export class PermissionsFeatureModule {}

/**
 * The permissions module. Import `PermissionsModule.forRoot(options)` (or `forRootAsync`) once, in
 * the root module: it is global, so `PermissionsService` and the guards work in every module. At
 * start it collects the definitions of `forRoot`, every `forFeature` and every guard a controller
 * uses, builds them once, and makes `app.init()` reject when one is invalid.
 *
 * The ownership service (the methods the hook strings name) is provided by the application under
 * `PERMISSIONS_OWNERSHIP_SERVICE_TOKEN`, in any module.
 *
 * @example
 * ```ts
 * @Module({
 *   imports: [
 *     PermissionsModule.forRoot({ extractUserFromRequest: (request: Request) => userOf(request), definitions }),
 *     DocumentsModule,
 *   ],
 *   providers: [{ provide: PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, useClass: DocumentOwnershipService }],
 * })
 * export class AppModule {}
 *
 * // or, with options that depend on other providers:
 * PermissionsModule.forRootAsync({
 *   imports: [UsersModule],
 *   inject: [UsersService],
 *   useFactory: (users: UsersService) => ({ extractUserFromRequest: (request) => users.fromRequest(request), tables: grantTables }),
 * });
 * ```
 */
@Module({
  imports: [DiscoveryModule],
  providers: [PermissionsService],
  exports: [PermissionsService],
})
export class PermissionsModule extends ConfigurablePermissionsModule {
  /**
   * Configures the application's permissions engine (global). Typed by the application's user and
   * filter types, so that `extractUserFromRequest` and `limitOwnReduce` keep them.
   *
   * @example
   * ```ts
   * PermissionsModule.forRoot<AppUser, Expression<SqlBool>>({ extractUserFromRequest: userOf, limitOwnReduce: orFilters, tables: grantTables });
   * ```
   */
  static override forRoot<TUser extends User<unknown> = User<unknown>, TFilter = any>(options: PermissionsModuleOptions<TUser, TFilter>): DynamicModule {
    return super.forRoot(options as unknown as PermissionsModuleOptions);
  }

  /**
   * Like {@link PermissionsModule.forRoot}, with options made by a factory (or a class) that may
   * inject other providers.
   *
   * @example
   * ```ts
   * PermissionsModule.forRootAsync({
   *   imports: [UsersModule],
   *   inject: [UsersService],
   *   useFactory: (users: UsersService) => ({ extractUserFromRequest: (request: Request) => users.fromRequest(request) }),
   * });
   * ```
   */
  static override forRootAsync<TUser extends User<unknown> = User<unknown>, TFilter = any>(
    options: ConfigurableModuleAsyncOptions<PermissionsModuleOptions<TUser, TFilter>>,
  ): DynamicModule {
    return super.forRootAsync(options as unknown as ConfigurableModuleAsyncOptions<PermissionsModuleOptions>);
  }

  /**
   * Adds definitions from a feature module. They are built at start together with every other
   * definition of the application. `source` labels them in error messages (default: the name of
   * the importing module).
   *
   * @example
   * ```ts
   * @Module({ imports: [PermissionsModule.forFeature(invoiceDefinitions)], controllers: [InvoicesController] })
   * export class InvoicesModule {}
   * ```
   */
  static forFeature(definitions: readonly PermissionDefinition[], options: { readonly source?: string } = {}): DynamicModule {
    if (!Array.isArray(definitions))
      throw new PermissionsUsageError('PermissionsModule.forFeature(definitions): definitions must be an array of PermissionDefinitions.');
    return {
      module: PermissionsFeatureModule,
      providers: [{ provide: Symbol('typed-permissions:feature'), useValue: new PermissionsFeatureDefinitions(definitions, options.source) }],
    };
  }
}
