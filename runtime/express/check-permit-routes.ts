/**
 * `checkPermitRoutes(app)`: the boot-time check of the express integration. It walks the application's
 * routers and resolves, for every route that holds a `permit({ action })` middleware, which path parameter
 * is the record's id — by the rules the middleware applies per request — so that an ambiguous route stops
 * the boot instead of failing its first request.
 */
import { PermissionsUsageError } from '../permissions/index.js';
import {
  describePaths,
  isResourceIdParamProblem,
  resolveRoute,
  routePathParams,
  type ResourceIdParamSetting,
  type ResourceIdRoute,
} from '../integration/index.js';
import { permitRouteOf } from './permit-middleware.js';

/** One layer of an express router's stack, as far as the check reads it (express 5, router 2). */
interface Layer {
  readonly route?: { readonly path?: unknown; readonly stack?: readonly Layer[]; readonly methods?: Readonly<Record<string, boolean>> };
  readonly handle?: unknown;
  /** The path the layer was mounted at (router 2.3 and later). */
  readonly rawPath?: unknown;
}

/** A router (or an express application's router): its layers, and whether it merges its parent's parameters. */
interface RouterLike {
  readonly stack?: readonly Layer[];
  readonly mergeParams?: boolean;
}

function isRouter(value: unknown): value is RouterLike {
  return typeof value === 'function' && Array.isArray((value as RouterLike).stack);
}

function paramNames(path: unknown): string[] | undefined {
  if (typeof path === 'string') return routePathParams(path).map((param) => param.name);
  if (Array.isArray(path) && path.every((one) => typeof one === 'string'))
    return path.flatMap((one: string) => routePathParams(one).map((param) => param.name));
  return undefined;
}

function methodsOf(route: NonNullable<Layer['route']>): string {
  const methods = Object.keys(route.methods ?? {}).filter((method) => route.methods?.[method] === true && method !== '_all');
  return methods.length === 0 ? 'ALL' : methods.map((method) => method.toUpperCase()).join(',');
}

/** Parameters of the path a router is mounted under that its routes never receive (a router without mergeParams). */
interface Unseen {
  readonly mountedAt: string;
  readonly names: readonly string[];
}

/**
 * The problem of a permit route that decides without the record id its URL holds: its router (or one above it) is
 * mounted under parameters it does not merge, so a route without its own id would be checked as a collection.
 */
function unseenProblem(unseen: Unseen | undefined, setting: ResourceIdParamSetting, resolved: ResourceIdRoute): string | undefined {
  if (unseen === undefined || unseen.names.length === 0 || setting === null) return undefined;
  const { resourceId } = resolved;
  const collection = 'kind' in resourceId && resourceId.kind === 'none';
  const namesUnseen = typeof setting === 'string' && unseen.names.includes(setting) && isResourceIdParamProblem(resourceId);
  if (!collection && !namesUnseen) return undefined;
  return (
    `is mounted under ${unseen.mountedAt} without mergeParams: its routes never see ${unseen.names.map((name) => JSON.stringify(name)).join(', ')}. ` +
    'Fix: Create the router with Router({ mergeParams: true }), or pass resourceIdParam: null if the route is about the collection.'
  );
}

function walk(stack: readonly Layer[], merged: readonly string[], unseen: Unseen | undefined, mountedAt: string, problems: string[]): void {
  for (const layer of stack) {
    const { route } = layer;
    if (route !== undefined) {
      for (const handler of route.stack ?? []) {
        const permit = permitRouteOf(handler.handle);
        if (permit === undefined) continue;
        const label = `${methodsOf(route)} ${mountedAt}${String(route.path)}`;
        const resolved = resolveRoute({ label, path: route.path, resourceIdParam: permit.resourceIdParam, inheritedParams: merged });
        const where = `${label} (permit({ action: ${JSON.stringify(permit.action)} }) on ${describePaths(resolved.paths)})`;
        const hidden = unseenProblem(unseen, permit.resourceIdParam, resolved);
        if (hidden !== undefined) problems.push(`${where} ${hidden}`);
        else if (isResourceIdParamProblem(resolved.resourceId)) problems.push(`${where} ${resolved.resourceId.problem}. Fix: ${resolved.resourceId.fix}`);
      }
      continue;
    }
    if (!isRouter(layer.handle)) continue;
    const mount = typeof layer.rawPath === 'string' ? layer.rawPath : '';
    const own = paramNames(layer.rawPath);
    if (own === undefined && layer.handle.mergeParams === true) {
      problems.push(
        `a router mounted at a path this version of express does not expose merges its parent's parameters (mergeParams), so its routes cannot be ` +
          'checked. Fix: use express 5.1 or later (router 2.3), or mount the router at a string path.',
      );
      continue;
    }
    const at = `${mountedAt}${mount === '/' ? '' : mount}`;
    // Express hands a router's routes the parameters of the path it is mounted under (and its parent's) only with
    // mergeParams: without it they are unseen, and a route without its own id would be checked as a collection.
    if (layer.handle.mergeParams === true) walk(layer.handle.stack ?? [], [...merged, ...(own ?? [])], unseen, at, problems);
    else {
      const hidden = [...(unseen?.names ?? []), ...merged, ...(own ?? [])];
      walk(layer.handle.stack ?? [], [], hidden.length === 0 ? unseen : { mountedAt: at, names: hidden }, at, problems);
    }
  }
}

/**
 * Checks, at boot, every route of `app` (and of the routers mounted on it) that holds a `permit({ action })`
 * middleware: which path parameter is the record's id, by the rules the middleware applies to each request
 * (`id` only as the route's last parameter; an explicit `resourceIdParam` must be a parameter of the route or
 * of a parent router that merges it in; parameters merged from a parent are never the id by default). Throws a
 * PermissionsUsageError listing every ambiguous route, so the server does not start with one. Call it after
 * the routes are registered, before `listen()`. An application mounted inside another (`app.use(subApp)`) is
 * checked with its own call.
 *
 * @example
 * ```ts
 * app.get('/documents/:id', permit({ action: 'read' }), readDocument);
 * checkPermitRoutes(app); // throws for app.get('/users/:id/documents/:docId', permit({ action: 'read' }), …)
 * app.listen(3000);
 * ```
 */
export function checkPermitRoutes(app: object): void {
  const router: unknown = (app as { router?: unknown }).router ?? app;
  if (!isRouter(router)) throw new PermissionsUsageError('checkPermitRoutes(app): app must be an express application or router.');
  const problems: string[] = [];
  walk(router.stack ?? [], [], undefined, '', problems);
  if (problems.length > 0) {
    throw new PermissionsUsageError(
      'Routes whose record id parameter is ambiguous; the server does not start, because a check without the right record id could grant access to ' +
        `the wrong record:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
}
