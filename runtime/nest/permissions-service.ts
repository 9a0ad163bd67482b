/**
 * `PermissionsService`: owns the one `Permissions` engine of the application. At start it gathers the
 * definitions of `forRoot`, every `forFeature` and every permissions guard a controller or resolver uses,
 * builds them once, and resolves what each guarded handler checks; the jobs themselves live in the modules
 * it imports (discovery, engine, start checks, route cache).
 */
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, ModuleRef, ModulesContainer, type ApplicationConfig } from '@nestjs/core';
import { PermissionsUsageError, type FollowedTenantRoles, type GrantQuery, type Permissions, type Permit, type User } from '../permissions/index.js';
import type { LivePolicy } from '../live/index.js';
import { definitionSources } from './definition-sources.js';
import { checkPermitConsumers } from './get-permit-consumers.js';
import { loadGraphQLSchema, type GraphQLSchemaReader } from './graphql/graphql-schema.js';
import { checkGuardedResolvers } from './graphql/resolver-checks.js';
import { resolveResolverRoute } from './graphql/resolver-routes.js';
import { resolvePermissionsRoute, type PermissionsGuardConfig, type PermissionsRoute } from './guarded-routes.js';
import {
  discoverHandlers,
  mountsByHandler,
  providerClassOf,
  type HandlerRecord,
  type ResolverHandlerRecord,
  type RouteHandlerRecord,
} from './handler-hosts.js';
import { nestRoutePaths, type NestMount } from './nest-route-paths.js';
import type { NestClass, RouteHandler } from './nest-targets.js';
import { ownershipServiceOf } from './ownership-service.js';
import { buildPermissionsEngine } from './permissions-engine-factory.js';
import { checkModuleOptions } from './module-options-check.js';
import type { PermissionsModuleOptions } from './permissions-module-options.js';
import { PERMISSIONS_MODULE_OPTIONS } from './permissions-module-definition.js';
import { RouteCache } from './route-cache.js';
import { checkSinglePermissionsModule } from './single-permissions-module.js';
import { checkGuardedRoutes } from './route-checks.js';

const isRouteRecord = (record: HandlerRecord): record is RouteHandlerRecord => record.kind === 'route';
const isGuardedResolverRecord = (record: HandlerRecord): record is ResolverHandlerRecord => record.kind === 'resolver' && record.guards.size > 0;

/**
 * The permissions engine of a NestJS application, built once at start. Inject it where a permit is
 * needed outside a guarded handler (a scheduled job, a GraphQL resolver, a message consumer).
 *
 * @example
 * ```ts
 * @Injectable()
 * export class ReportService {
 *   constructor(private readonly permissionsService: PermissionsService) {}
 *
 *   async documentsFor(user: AppUser) {
 *     const permit = await this.permissionsService.grantPermit({ user, resource: 'document', action: 'list' });
 *     return permit.granted ? permit.filterPick(await this.documents.findAll()) : [];
 *   }
 * }
 * ```
 */
@Injectable()
export class PermissionsService<TUser extends User<unknown> = User<unknown>, TFilter = any>
  implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown
{
  private engine: Permissions<TUser, TFilter> | undefined;
  /** The followed live policy (the `source` option), closed at shutdown. */
  private live: LivePolicy | undefined;
  /** The followed custom roles of tenants (the `tenantRoles` option), closed at shutdown. */
  private tenantRoles: FollowedTenantRoles | undefined;
  private records: readonly HandlerRecord[] = [];
  private readonly options: PermissionsModuleOptions<TUser, TFilter>;
  /**
   * What each guard checks, per (controller, handler): a handler inherited by several controllers (a base
   * class, a mixin) is one function served under each controller's own paths, so it is resolved per controller.
   */
  private readonly routes = new RouteCache();
  private readonly resolverRoutes = new RouteCache();
  /** The guarded resolver methods found at start, checked at bootstrap against the schema. */
  private guardedResolvers: readonly ResolverHandlerRecord[] = [];
  /** The user of each request in flight (weakly held: forgotten with the request). */
  private readonly users = new WeakMap<object, Promise<TUser>>();
  private readonly tenants = new WeakMap<object, Promise<string | undefined>>();
  /** The GraphQL schema the application serves, read at bootstrap (after the GraphQL module built it). */
  private graphql: GraphQLSchemaReader | undefined;

  constructor(
    @Inject(PERMISSIONS_MODULE_OPTIONS) options: PermissionsModuleOptions<TUser, TFilter>,
    @Inject(ModuleRef) private readonly moduleRef: ModuleRef,
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(ModulesContainer) private readonly modules: ModulesContainer,
  ) {
    this.options = checkModuleOptions(options);
  }

  /**
   * Builds the engine at start (an invalid definition makes `app.init()` reject), follows the `source` option when
   * given (its first version loaded before the start goes on) and the `tenantRoles` option, and checks every
   * guarded handler.
   */
  async onModuleInit(): Promise<void> {
    checkSinglePermissionsModule(this.modules, PermissionsService);
    await this.followPolicy();
    const { tenantRoles, followTenantRoles } = this.options;
    if (tenantRoles === undefined || this.tenantRoles !== undefined) return;
    try {
      this.tenantRoles = await this.ensureBuilt().followTenantRoles(tenantRoles, followTenantRoles);
    } catch (error) {
      // The start fails (bad options, say): the live policy followed above is not left running without a shutdown.
      await this.live?.close();
      this.live = undefined;
      throw error;
    }
  }

  /** Follows the `source` option when given (its first version loaded before the start goes on); else builds the engine. */
  private async followPolicy(): Promise<void> {
    const { source, follow } = this.options;
    if (source === undefined) {
      this.ensureBuilt();
      return;
    }
    if (this.live !== undefined) return;
    const engine = this.engine ?? this.createEngine();
    this.live = await engine.follow(source, follow);
    if (!engine.built) {
      await this.live.close();
      this.live = undefined;
      throw new PermissionsUsageError(
        `PermissionsModule.forRoot({ source }): no policy could be loaded from ${source.description}, and no tables or definitions were given; ` +
          'the application does not start without a policy. Publish one (npx typed-permissions policy publish), or give tables to start with.',
      );
    }
    if (this.engine === undefined) {
      this.checkStart(engine);
      this.engine = engine;
    }
  }

  /** Stops following the live policy and the tenants' custom roles. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.live?.close(), this.tenantRoles?.close()]);
  }

  /**
   * Resolves every guarded GraphQL resolver against the schema, which the GraphQL module builds during
   * module initialisation; a resolver whose record id cannot be told makes `app.init()` reject.
   */
  async onApplicationBootstrap(): Promise<void> {
    const engine = this.ensureBuilt();
    if (this.guardedResolvers.length === 0) return;
    this.graphql = await loadGraphQLSchema((token) => this.moduleRef.get(token as string, { strict: false }));
    // Without a served schema no resolver can be called: nothing to check.
    if (this.graphql === undefined) return;
    const resolverRouteOf = (config: PermissionsGuardConfig, { host, handler }: ResolverHandlerRecord) => this.resolverRouteFor(config, host, handler);
    checkGuardedResolvers(engine, this.graphql, this.guardedResolvers, resolverRouteOf, this.options);
  }

  /**
   * The built core engine (`Permissions`), for what the service does not wrap: `tables`, `built`.
   *
   * @example
   * ```ts
   * const { roles, resources } = permissionsService.permissions.tables;
   * ```
   */
  get permissions(): Permissions<TUser, TFilter> {
    return this.ensureBuilt();
  }

  /**
   * Answers a grant query with the application's engine. See `Permissions.grantPermit`.
   *
   * @example
   * ```ts
   * const permit = await permissionsService.grantPermit({ user, resource: 'document', action: 'read', resourceId: 3 });
   * if (!permit.granted) throw new ForbiddenException();
   * ```
   */
  grantPermit<TId = unknown>(query: GrantQuery<TUser, TId>): Promise<Permit<TUser, TId, TFilter>> {
    return this.ensureBuilt().grantPermit(query);
  }

  /**
   * @internal The user of a request, from the module's `extractUserFromRequest`, asked once per request:
   * a GraphQL operation runs the guard once per guarded field, and every field must see the same user (and
   * the same refusal) without repeating the lookup.
   */
  userOf(request: object): Promise<TUser> {
    let user = this.users.get(request);
    if (user === undefined) {
      user = Promise.resolve().then(() => this.options.extractUserFromRequest(request));
      this.users.set(request, user);
    }
    return user;
  }

  /**
   * @internal The tenant of a request, from the module's `extractTenantFromRequest` (undefined without it),
   * asked once per request for the same reason as the user.
   */
  tenantOf(request: object): Promise<string | undefined> {
    let tenant = this.tenants.get(request);
    if (tenant === undefined) {
      const extract = this.options.extractTenantFromRequest;
      tenant = Promise.resolve().then(() => extract?.(request));
      this.tenants.set(request, tenant);
    }
    return tenant;
  }

  /** @internal The module options, for the guards. */
  get moduleOptions(): PermissionsModuleOptions<TUser, TFilter> {
    return this.options;
  }

  /**
   * @internal What `config`'s guard checks for `handler`, resolved once and cached. Every handler a
   * permissions guard protects is resolved at start, at every mount of its controller (a controller
   * registered in two modules is served at both modules' paths, and a request does not say which one it
   * came through); one met only now (a guard applied in a way the start could not see) is resolved from
   * its controller's metadata, and its request is refused if it carries a parameter that resolution did
   * not see.
   */
  routeFor(config: PermissionsGuardConfig, controller: NestClass, handler: RouteHandler, mounts: readonly NestMount[] = [this.mount()]): PermissionsRoute {
    return this.routes.get(config, controller, handler, () => {
      const paths = [...new Set(mounts.flatMap((mount) => nestRoutePaths(controller, handler, mount)))];
      return resolvePermissionsRoute(config, controller, handler, paths, this.options.projectResourceId);
    });
  }

  /**
   * @internal What `config`'s guard checks for the GraphQL resolver `handler` of `resolver`, resolved
   * against the schema at bootstrap and cached. A resolver met only now is resolved from the schema read
   * at bootstrap; without one the call is refused.
   */
  resolverRouteFor(config: PermissionsGuardConfig, resolver: NestClass, handler: RouteHandler): PermissionsRoute {
    return this.resolverRoutes.get(config, resolver, handler, () =>
      resolveResolverRoute(config, resolver, handler, this.graphql, this.options.projectResourceId),
    );
  }

  /**
   * The guards the application applies to every handler (`APP_GUARD` providers, made by now, and
   * `app.useGlobalGuards()`), request-scoped ones by their class; undefined when the configuration cannot be reached.
   */
  private appliedGlobalGuards(): unknown[] | undefined {
    const config = this.mount().config;
    if (config === undefined) return undefined;
    return [...config.getGlobalGuards(), ...config.getGlobalRequestGuards().map((wrapper) => wrapper.metatype)];
  }

  /** Where controllers are mounted: the application's configuration (global prefix, versioning), reached through Nest's container when it is there. */
  private mount(module?: NestClass): NestMount {
    const container = (this.moduleRef as unknown as { container?: { applicationConfig?: ApplicationConfig } }).container;
    return { module, applicationId: this.modules.applicationId, config: container?.applicationConfig };
  }

  /**
   * The engine, built the first time it is needed (at start, by `onModuleInit`, which also follows a live policy).
   */
  private ensureBuilt(): Permissions<TUser, TFilter> {
    if (this.engine !== undefined) return this.engine;
    const engine = this.createEngine();
    this.checkStart(engine);
    this.engine = engine;
    return engine;
  }

  /** Every handler host discovered, and the engine of the definitions they and the modules give (or of the tables). */
  private createEngine(): Permissions<TUser, TFilter> {
    const providers = this.discovery.getProviders();
    const handlers = discoverHandlers(this.discovery.getControllers(), providers, (module) => this.mount(module), this.appliedGlobalGuards());
    this.records = handlers.hosts.flatMap((host) => host.handlers);
    this.guardedResolvers = this.records.filter(isGuardedResolverRecord);
    const sources = definitionSources(this.options.definitions, providers, this.modules, handlers);
    return buildPermissionsEngine(this.options, sources, ownershipServiceOf(this.moduleRef, this.options.ownership));
  }

  /** Every guarded handler and `@GetPermit()` consumer checked against the engine's policy. */
  private checkStart(engine: Permissions<TUser, TFilter>): void {
    const routeRecords = this.records.filter(isRouteRecord);
    const mountsOf = mountsByHandler(routeRecords);
    const routeOf = (config: PermissionsGuardConfig, { host, handler }: RouteHandlerRecord) =>
      this.routeFor(config, host, handler, mountsOf.get(host)?.get(handler) ?? []);
    checkGuardedRoutes(engine, routeRecords, routeOf, this.options);
    checkPermitConsumers(
      this.records,
      this.discovery.getProviders().flatMap((wrapper) => providerClassOf(wrapper) ?? []),
    );
  }
}
