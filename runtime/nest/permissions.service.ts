/**
 * `PermissionsService`: owns the one `Permissions` engine of the application. At start it gathers the
 * definitions of `forRoot`, every `forFeature` and every permissions guard a controller uses, builds
 * them once, and resolves what each guarded handler checks.
 */
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { GUARDS_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { DiscoveryService, ModuleRef, ModulesContainer, Reflector, type ApplicationConfig } from '@nestjs/core';
import { UnknownElementException } from '@nestjs/core/errors/exceptions/unknown-element.exception.js';
import type { InstanceWrapper } from '@nestjs/core/injector/instance-wrapper.js';
import { PERMISSIONS_OPTION_KEYS } from '../core/engine/permissions-options.js';
import {
  PermissionDefinitionError,
  Permissions,
  PermissionsUsageError,
  type PermissionsOptions,
  type GrantQuery,
  type PermissionDefinition,
  type Permit,
  type User,
} from '../core/index.js';
import { PermissionsFeatureDefinitions } from './permissions-feature.js';
import type { PermissionsModuleOptions } from './permissions-module-options.interface.js';
import { PERMISSIONS_OWNERSHIP_SERVICE_TOKEN } from './permissions.constants.js';
import { PERMISSIONS_MODULE_OPTIONS } from './permissions.module-definition.js';
import { isResourceIdParamProblem } from '../http/resource-id-param.js';
import { describePaths } from '../http/request-resource-id.js';
import { nestRoutePaths, type NestMount } from './nest-route-paths.js';
import type { NestClass, RouteHandler } from './nest-targets.js';
import {
  permissionsGuardConfigOf,
  resolvePermissionsResolverRoute,
  resolvePermissionsRoute,
  type PermissionsGuardConfig,
  type PermissionsRoute,
} from './guarded-routes.js';
import { fieldArguments, loadGraphQLSchema, nonNullReturnedFields, schemaFieldOf, type GraphQLSchemaReader } from './graphql/graphql-schema.js';
import { resolverMethodsOf, rootFieldOf, type GraphQLRootField } from './graphql/resolver-methods.js';
import { injectsPermit } from './get-permit.decorator.js';
import { isPermissionsSkipped } from './permission.decorator.js';

const reflector = new Reflector();

/** Resolved routes by guard, class and handler, each resolved once. */
class RouteCache {
  private readonly byConfig = new Map<PermissionsGuardConfig, WeakMap<NestClass, WeakMap<RouteHandler, PermissionsRoute>>>();

  get(config: PermissionsGuardConfig, owner: NestClass, handler: RouteHandler, resolve: () => PermissionsRoute): PermissionsRoute {
    let byOwner = this.byConfig.get(config);
    if (byOwner === undefined) this.byConfig.set(config, (byOwner = new WeakMap()));
    let byHandler = byOwner.get(owner);
    if (byHandler === undefined) byOwner.set(owner, (byHandler = new WeakMap()));
    let route = byHandler.get(handler);
    if (route === undefined) byHandler.set(handler, (route = resolve()));
    return route;
  }
}

/** One array of definitions and where it came from. */
interface DefinitionSource {
  readonly definitions: readonly PermissionDefinition[];
  readonly source: string;
}

/** A guarded controller handler found at start, with where its controller is mounted. */
interface GuardedHandler {
  readonly config: PermissionsGuardConfig;
  readonly controller: NestClass;
  readonly handler: RouteHandler;
  readonly mount: NestMount;
}

/** A guarded GraphQL resolver method found at start, with the root field it serves. */
interface GuardedResolver {
  readonly config: PermissionsGuardConfig;
  readonly resolver: NestClass;
  readonly handler: RouteHandler;
  readonly field: GraphQLRootField;
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/** The module's own options; every other option is the engine's (`PermissionsOptions`), checked by it. */
const MODULE_OPTION_KEYS = ['extractUserFromRequest', 'projectResourceId', 'definitions', 'tables'] as const;

function checkModuleOptions<TOptions extends PermissionsModuleOptions<any, any>>(options: TOptions): TOptions {
  if (typeof options !== 'object' || options === null)
    throw new PermissionsUsageError(`PermissionsModule.forRoot(options): options must be an object, got ${describe(options)}.`);
  const known: readonly string[] = [...MODULE_OPTION_KEYS, ...PERMISSIONS_OPTION_KEYS];
  const unknownOption = Object.keys(options).find((key) => !known.includes(key));
  if (unknownOption !== undefined)
    throw new PermissionsUsageError(
      `PermissionsModule.forRoot(): option ${JSON.stringify(unknownOption)} does not exist; the options are ${known.join(', ')}.`,
    );
  const { extractUserFromRequest, projectResourceId, definitions, tables } = options as Partial<PermissionsModuleOptions>;
  if (typeof extractUserFromRequest !== 'function')
    throw new PermissionsUsageError('PermissionsModule.forRoot(): extractUserFromRequest must be a function (request) => user | Promise<user>.');
  if (projectResourceId !== undefined && typeof projectResourceId !== 'function')
    throw new PermissionsUsageError('PermissionsModule.forRoot(): projectResourceId must be a function (id, { resource }) => id.');
  if (definitions !== undefined && !Array.isArray(definitions))
    throw new PermissionsUsageError(`PermissionsModule.forRoot(): definitions must be an array of PermissionDefinitions, got ${describe(definitions)}.`);
  if (tables !== undefined && (typeof tables !== 'object' || tables === null || (tables as { format?: unknown }).format !== 1)) {
    throw new PermissionsUsageError('PermissionsModule.forRoot(): tables must be the grantTables that typed-permissions compile emits (format 1).');
  }
  return options;
}

/** How a NestJS application gives the engine its ownership service, for the fix of a missing-method problem. */
const NEST_OWNERSHIP_FIX = (method: string): string =>
  `Provide the ownership service, with a method ${method}, under PERMISSIONS_OWNERSHIP_SERVICE_TOKEN in any module ` +
  `({ provide: PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, useClass: YourOwnershipService }), or pass it as the ownership option of PermissionsModule.forRoot().`;

/**
 * The engine's definition error, with the fix of every "no ownership service" problem said the NestJS way
 * (the core's fix names `new Permissions({ ownership })`, which a NestJS application never calls).
 */
function withNestOwnershipFix(error: unknown): unknown {
  if (!(error instanceof PermissionDefinitionError)) return error;
  const problems = error.problems.map((problem) =>
    problem.code === 'unknown-hook-method' && problem.message.includes('but no ownership service was given')
      ? { ...problem, fix: NEST_OWNERSHIP_FIX(/"([^"]+)"/.exec(problem.message)?.[1] ?? 'the hook names') }
      : problem,
  );
  return new PermissionDefinitionError(problems);
}

/** The handlers (methods carrying route metadata) of a controller class, base classes included, with their names. */
function routeHandlersOf(controller: NestClass): { handler: RouteHandler; methodName: string }[] {
  const seen = new Set<string>();
  const handlers: { handler: RouteHandler; methodName: string }[] = [];
  for (
    let proto: object | null = controller.prototype as object | null;
    proto !== null && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === 'constructor' || seen.has(key)) continue;
      seen.add(key);
      const value: unknown = Object.getOwnPropertyDescriptor(proto, key)?.value;
      // Any function is a RouteHandler (its parameters are never[]); `typeof` only narrows to Function.
      if (typeof value === 'function' && reflector.get(PATH_METADATA, value) !== undefined) handlers.push({ handler: value as RouteHandler, methodName: key });
    }
  }
  return handlers;
}

/** Why `methodName` of `owner` cannot have the permit it injects with `@GetPermit()`; nothing when it can or injects none. */
function permitConsumerProblems(owner: NestClass, handler: RouteHandler, methodName: string, guarded: boolean): string[] {
  if (!injectsPermit(owner, methodName)) return [];
  if (!guarded) {
    return [
      `${owner.name}.${methodName} injects @GetPermit(), but no permissions guard covers it. Fix: add @UseGuards(createPermissionsGuard(…)) ` +
        'to the class or the method (or register one as APP_GUARD).',
    ];
  }
  if (isPermissionsSkipped(handler)) {
    return [
      `${owner.name}.${methodName} injects @GetPermit(), but is marked @SkipPermissions(), so no permit is made for it. Fix: remove ` +
        '@SkipPermissions(), or the @GetPermit() parameter.',
    ];
  }
  return [];
}

function guardsOf(target: NestClass | RouteHandler): readonly unknown[] {
  const guards: unknown = reflector.get(GUARDS_METADATA, target);
  return Array.isArray(guards) ? guards : [];
}

/** The `resource\u0000action` pairs some role is granted, per engine (computed once: the tables may hold many cells). */
const grantedPairs = new WeakMap<object, ReadonlySet<string>>();

/** Warnings for a handler that can never be granted: its resource, or its action on it, is granted to no role. */
function grantWarnings(engine: Permissions<any, any>, route: PermissionsRoute): string[] {
  const { resources, actions, cells } = engine.tables;
  let granted = grantedPairs.get(engine);
  if (granted === undefined) grantedPairs.set(engine, (granted = new Set(cells.map(([resource, action]) => `${resources[resource]}\u0000${actions[action]}`))));
  if (!resources.includes(route.resource))
    return [`${route.label} checks resource ${JSON.stringify(route.resource)}, which no definition names, so every request is refused (403).`];
  if (granted.has(`${route.resource}\u0000${route.action}`)) return [];
  return [
    `${route.label} checks action ${JSON.stringify(route.action)} on ${JSON.stringify(route.resource)}, which no ` +
      `role is granted, so every request is refused (403). Rename the method, set @Permission({ action }), or ` +
      `grant the action.`,
  ];
}

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
export class PermissionsService<TUser extends User<unknown> = User<unknown>, TFilter = any> implements OnModuleInit, OnApplicationBootstrap {
  private engine: Permissions<TUser, TFilter> | undefined;
  private readonly options: PermissionsModuleOptions<TUser, TFilter>;
  /**
   * What each guard checks, per (controller, handler): a handler inherited by several controllers (a base
   * class, a mixin) is one function served under each controller's own paths, so it is resolved per controller.
   */
  private readonly routes = new RouteCache();
  private readonly resolverRoutes = new RouteCache();
  private guardedResolvers: readonly GuardedResolver[] = [];
  /** The user of each request in flight (weakly held: forgotten with the request). */
  private readonly users = new WeakMap<object, Promise<TUser>>();
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

  /** Builds the engine at start; an invalid definition makes `app.init()` reject. */
  onModuleInit(): void {
    this.ensureBuilt();
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
    if (this.graphql !== undefined) this.checkResolvers(engine, this.graphql, this.guardedResolvers);
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

  /** @internal The module options, for the guards. */
  get moduleOptions(): PermissionsModuleOptions<TUser, TFilter> {
    return this.options;
  }

  /**
   * @internal What `config`'s guard checks for `handler`, resolved once and cached. Every handler a
   * permissions guard protects is resolved at start; one met only now (a guard applied in a way the
   * start could not see) is resolved from its controller's metadata, and its request is refused if
   * it carries a parameter that resolution did not see.
   */
  routeFor(config: PermissionsGuardConfig, controller: NestClass, handler: RouteHandler, mount: NestMount = this.mount()): PermissionsRoute {
    return this.routes.get(config, controller, handler, () =>
      resolvePermissionsRoute(config, controller, handler, nestRoutePaths(controller, handler, mount), this.options.projectResourceId),
    );
  }

  /**
   * @internal What `config`'s guard checks for the GraphQL resolver `handler` of `resolver`, resolved
   * against the schema at bootstrap and cached. A resolver met only now is resolved from the schema read
   * at bootstrap; without one the call is refused.
   */
  resolverRouteFor(config: PermissionsGuardConfig, resolver: NestClass, handler: RouteHandler): PermissionsRoute {
    return this.resolverRoutes.get(config, resolver, handler, () => {
      const methods = resolverMethodsOf(resolver).filter((method) => method.handler === handler);
      const field = methods[0]?.field ?? rootFieldOf(handler, handler.name);
      const schemaField = this.graphql === undefined || field === undefined ? undefined : schemaFieldOf(this.graphql.schema, field);
      if (this.graphql === undefined || field === undefined || schemaField === undefined) {
        throw new PermissionsUsageError(
          `${resolver.name}.${handler.name} is guarded as a GraphQL resolver, but the application start found no schema field for it ` +
            `(no GraphQL module, or the method is no @Query/@Mutation); the permissions check refuses the call.`,
        );
      }
      return resolvePermissionsResolverRoute(
        config,
        resolver,
        handler,
        `${field.operation}.${field.name}`,
        fieldArguments(schemaField, this.graphql.tools),
        this.options.projectResourceId,
      );
    });
  }

  /** Where controllers are mounted: the application's configuration (global prefix, versioning), reached through Nest's container when it is there. */
  private mount(module?: NestClass): NestMount {
    const container = (this.moduleRef as unknown as { container?: { applicationConfig?: ApplicationConfig } }).container;
    return { module, applicationId: this.modules.applicationId, config: container?.applicationConfig };
  }

  private ensureBuilt(): Permissions<TUser, TFilter> {
    if (this.engine !== undefined) return this.engine;
    const { definitionSources, guardedHandlers, guardedResolvers, permitConsumers } = this.discover();
    this.guardedResolvers = guardedResolvers;
    // Everything but the module's own options is the engine's, passed as it is (one options type).
    const engineOptions = Object.fromEntries(
      Object.entries(this.options).filter(([key]) => !(MODULE_OPTION_KEYS as readonly string[]).includes(key)),
    ) as PermissionsOptions<TUser, TFilter>;
    const { tables } = this.options;
    const ownership = this.ownershipService(engineOptions.ownership);
    let engine: Permissions<TUser, TFilter>;
    try {
      if (tables !== undefined) {
        const extra = definitionSources.filter((source) => source.definitions.length > 0);
        if (extra.length > 0) {
          throw new PermissionsUsageError(
            `PermissionsModule.forRoot({ tables }) loads precompiled grant tables, which cannot be extended at run time, ` +
              `but more definitions were given by: ${extra.map((s) => `${s.source} (${s.definitions.length})`).join('; ')}. ` +
              'Move these definitions into a file in definitions/ and compile again (typed-permissions compile), then ' +
              'remove them from the guards, forFeature() and forRoot(); or drop `tables` to build every definition at ' +
              'start.',
          );
        }
        engine = Permissions.fromTables<TUser, TFilter>(tables, { ...engineOptions, ownership });
      } else {
        engine = new Permissions<TUser, TFilter>({ ...engineOptions, ownership });
        for (const { definitions, source } of definitionSources) engine.addPermissions(definitions, { source });
        engine.build();
      }
    } catch (error) {
      throw ownership === undefined ? withNestOwnershipFix(error) : error;
    }
    this.checkHandlers(engine, guardedHandlers);
    this.checkPermitConsumers(permitConsumers);
    this.engine = engine;
    return engine;
  }

  /** Gathers the definitions of forRoot, forFeature and the guards controllers use, and the guarded handlers. */
  private discover(): {
    definitionSources: DefinitionSource[];
    guardedHandlers: GuardedHandler[];
    guardedResolvers: GuardedResolver[];
    permitConsumers: string[];
  } {
    const definitionSources: DefinitionSource[] = [];
    const seenArrays = new Set<readonly PermissionDefinition[]>();
    const add = (definitions: readonly PermissionDefinition[], source: string): void => {
      if (seenArrays.has(definitions)) return;
      seenArrays.add(definitions);
      definitionSources.push({ definitions, source });
    };
    if (this.options.definitions !== undefined) add(this.options.definitions, 'PermissionsModule.forRoot({ definitions })');

    const providers = this.discovery.getProviders();
    for (const wrapper of providers) {
      const instance: unknown = wrapper.instance;
      if (instance instanceof PermissionsFeatureDefinitions)
        add(instance.definitions, instance.source ?? `PermissionsModule.forFeature() in ${this.hostName(wrapper)}`);
    }

    const guardUsers = new Map<PermissionsGuardConfig, Set<string>>();
    const guardedHandlers: GuardedHandler[] = [];
    const permitConsumers: string[] = [];
    const useGuard = (config: PermissionsGuardConfig, user: string): void => {
      let users = guardUsers.get(config);
      if (users === undefined) guardUsers.set(config, (users = new Set()));
      users.add(user);
    };
    // A permissions guard registered as a global guard (APP_GUARD) is a provider, and guards every handler.
    const globalConfigs: PermissionsGuardConfig[] = [];
    for (const wrapper of providers) {
      const config = typeof wrapper.metatype === 'function' ? permissionsGuardConfigOf(wrapper.metatype) : undefined;
      if (config !== undefined && !globalConfigs.includes(config)) {
        globalConfigs.push(config);
        useGuard(config, 'a global guard (APP_GUARD)');
      }
    }
    for (const wrapper of this.discovery.getControllers()) {
      if (typeof wrapper.metatype !== 'function') continue;
      // A controller's metatype is its class; Nest types it as Type | Function.
      const controller = wrapper.metatype as NestClass;
      const mount = this.mount(wrapper.host?.metatype);
      const classConfigs = guardsOf(controller)
        .map(permissionsGuardConfigOf)
        .filter((config) => config !== undefined);
      for (const config of classConfigs) useGuard(config, controller.name);
      for (const { handler, methodName } of routeHandlersOf(controller)) {
        const methodConfigs = guardsOf(handler)
          .map(permissionsGuardConfigOf)
          .filter((config) => config !== undefined);
        for (const config of methodConfigs) useGuard(config, `${controller.name}.${methodName}`);
        const configs = new Set([...globalConfigs, ...classConfigs, ...methodConfigs]);
        for (const config of configs) guardedHandlers.push({ config, controller, handler, mount });
        permitConsumers.push(...permitConsumerProblems(controller, handler, methodName, configs.size > 0));
      }
    }
    // GraphQL resolvers are providers whose methods carry @Query/@Mutation/@Subscription metadata.
    const guardedResolvers: GuardedResolver[] = [];
    const seenResolvers = new Set<NestClass>();
    for (const wrapper of providers) {
      if (typeof wrapper.metatype !== 'function') continue;
      const resolver = wrapper.metatype as NestClass;
      if (seenResolvers.has(resolver)) continue;
      seenResolvers.add(resolver);
      const methods = resolverMethodsOf(resolver);
      if (methods.length === 0) continue;
      const classConfigs = guardsOf(resolver)
        .map(permissionsGuardConfigOf)
        .filter((config) => config !== undefined);
      for (const config of classConfigs) useGuard(config, resolver.name);
      for (const { handler, methodName, field } of methods) {
        const methodConfigs = guardsOf(handler)
          .map(permissionsGuardConfigOf)
          .filter((config) => config !== undefined);
        for (const config of methodConfigs) useGuard(config, `${resolver.name}.${methodName}`);
        const configs = new Set([...globalConfigs, ...classConfigs, ...methodConfigs]);
        for (const config of configs) guardedResolvers.push({ config, resolver, handler, field });
        permitConsumers.push(...permitConsumerProblems(resolver, handler, methodName, configs.size > 0));
      }
    }
    for (const [config, users] of guardUsers) {
      add(config.definitions, `createPermissionsGuard({ resource: ${JSON.stringify(config.options.resource)} }) used by ${[...users].join(', ')}`);
    }
    return { definitionSources, guardedHandlers, guardedResolvers, permitConsumers };
  }

  private hostName(wrapper: InstanceWrapper): string {
    const host = wrapper.host;
    if (host === undefined) return 'a feature module';
    for (const module of this.modules.values()) {
      if (module.imports.has(host)) return module.name;
    }
    return host.name;
  }

  /** The ownership service: the module's `ownership` option, or the provider under the token anywhere in the application, if any. */
  private ownershipService(fromOptions: object | undefined): object | undefined {
    let provided: unknown;
    try {
      provided = this.moduleRef.get(PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, { strict: false });
    } catch (error) {
      if (!(error instanceof UnknownElementException)) throw error;
      return fromOptions;
    }
    if (fromOptions !== undefined) {
      throw new PermissionsUsageError(
        'The ownership service is given twice: as the ownership option of PermissionsModule.forRoot() and under ' +
          `${PERMISSIONS_OWNERSHIP_SERVICE_TOKEN}; keep one.`,
      );
    }
    if (typeof provided !== 'object' || provided === null) {
      throw new PermissionsUsageError(
        `The provider ${PERMISSIONS_OWNERSHIP_SERVICE_TOKEN} must be an object whose methods the hook strings name, got ${describe(provided)}.`,
      );
    }
    return provided;
  }

  /** Stops the start when a handler injects `@GetPermit()` that no permissions guard gives a permit to. */
  private checkPermitConsumers(problems: readonly string[]): void {
    if (problems.length === 0) return;
    throw new PermissionsUsageError(
      `Handlers inject @GetPermit() but no permissions guard gives them a permit, so every request would fail; the application does not start:\n` +
        problems.map((p) => `  - ${p}`).join('\n'),
    );
  }

  /**
   * Resolves every guarded handler now. A handler whose resource id parameter cannot be told
   * unambiguously stops the start (always: guessing would turn a record check into a collection
   * check). Handlers that can never be granted (an action or resource no definition names) are
   * warnings, errors with `strict: true`.
   */
  private checkHandlers(engine: Permissions<TUser, TFilter>, handlers: readonly GuardedHandler[]): void {
    const idProblems: string[] = [];
    const warnings: string[] = [];
    for (const { config, controller, handler, mount } of handlers) {
      const route = this.routeFor(config, controller, handler, mount);
      if (route.skip) continue;
      if (isResourceIdParamProblem(route.resourceId)) {
        idProblems.push(`${route.label} (${describePaths(route.paths)}) ${route.resourceId.problem}. Fix: ${route.resourceId.fix}`);
      }
      warnings.push(...grantWarnings(engine, route));
    }
    this.report(idProblems, warnings, 'Guarded handlers whose resource id parameter is ambiguous');
  }

  /**
   * Resolves every guarded resolver against the schema: the same rules as routes for the record id
   * (over the field's arguments), a refusal for subscriptions (they have no request per event to check),
   * and a warning (an error with `strict: true`) for a returned object type with non-null fields, which
   * could not resolve a hidden attribute to `null`.
   */
  private checkResolvers(engine: Permissions<TUser, TFilter>, reader: GraphQLSchemaReader, resolvers: readonly GuardedResolver[]): void {
    const idProblems: string[] = [];
    const warnings: string[] = [];
    for (const { config, resolver, handler, field } of resolvers) {
      const schemaField = schemaFieldOf(reader.schema, field);
      // A resolver the schema does not serve (left out by the GraphQL module's `include`) is never called.
      if (schemaField === undefined) continue;
      const route = this.resolverRouteFor(config, resolver, handler);
      if (route.skip) continue;
      if (field.operation === 'Subscription') {
        idProblems.push(
          `${route.label} (${route.paths.join(', ')}) is a subscription, which the permissions guard cannot check per event. Fix: ` +
            'mark it @SkipPermissions() and check each event with PermissionsService.grantPermit() in its filter or resolve function.',
        );
        continue;
      }
      if (isResourceIdParamProblem(route.resourceId)) {
        idProblems.push(`${route.label} (${route.paths.join(', ')}) ${route.resourceId.problem}. Fix: ${route.resourceId.fix}`);
      }
      const nonNull = nonNullReturnedFields(schemaField, reader.tools);
      if (nonNull.length > 0) {
        warnings.push(
          `${route.label} (${route.paths.join(', ')}) returns non-null fields (${nonNull.join(', ')}): an attribute a permit hides resolves ` +
            'to null, which a non-null field turns into an error for its whole parent. Make them nullable (@Field({ nullable: true })).',
        );
      }
      warnings.push(...grantWarnings(engine, route));
    }
    this.report(idProblems, warnings, 'Guarded resolvers whose resource id argument is ambiguous or that cannot be checked');
  }

  /** Throws for id problems; logs warnings (throws them with `strict: true`). */
  private report(idProblems: readonly string[], warnings: readonly string[], title: string): void {
    if (idProblems.length > 0) {
      throw new PermissionsUsageError(
        `${title}; the application does not start, because a check without the right record id could grant access to the ` +
          `wrong record:\n` +
          [...new Set(idProblems)].map((p) => `  - ${p}`).join('\n'),
      );
    }
    if (warnings.length === 0) return;
    if (this.options.strict === true)
      throw new PermissionsUsageError(`Guarded handlers that are misconfigured (strict mode):\n${warnings.map((p) => `  - ${p}`).join('\n')}`);
    const logger = this.options.logger ?? console;
    for (const warning of new Set(warnings)) logger.warn(`typed-permissions: ${warning}`);
  }
}
