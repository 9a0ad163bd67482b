/**
 * What each permissions guard checks for each handler, resolved once: a request only looks its route up.
 */
import type { PermissionsGuardConfig, PermissionsRoute } from './guarded-routes.js';
import type { NestClass, RouteHandler } from './nest-targets.js';

/**
 * Resolved routes by guard, host class and handler. Keyed by the host as well as the handler: a handler
 * inherited by several controllers (a base class, a mixin) is one function served under each controller's
 * own paths, so it is resolved per controller. Classes and handlers are held weakly.
 *
 * @example
 * ```ts
 * const routes = new RouteCache();
 * const route = routes.get(config, DocumentsController, DocumentsController.prototype.read, () => resolvePermissionsRoute(…));
 * routes.get(config, DocumentsController, DocumentsController.prototype.read, resolveAgain) === route; // true, resolveAgain not called
 * ```
 */
export class RouteCache {
  private readonly byConfig = new Map<PermissionsGuardConfig, WeakMap<NestClass, WeakMap<RouteHandler, PermissionsRoute>>>();

  /** The route of (`config`, `owner`, `handler`), from `resolve` the first time it is asked for. */
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
