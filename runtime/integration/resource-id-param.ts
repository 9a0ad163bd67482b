/**
 * Which parameter of a route (or resolver) holds the id of the record a check is about. Getting
 * this wrong is the worst bug an integration can have: a record check silently becomes a
 * collection check (granted to anyone who may act on their own records), or checks the id of
 * another resource. So the answer is worked out once, when the application starts, by these rules,
 * and anything ambiguous stops the start instead of guessing.
 */

/**
 * Where the resource id comes from, as a guard, a decorator or a middleware is configured:
 * a parameter name; `null` for "this handler acts on no single record" (an explicit opt-out); or
 * `undefined` for the default, the parameter `id` when it is the route's last parameter.
 *
 * @example
 * ```ts
 * const setting: ResourceIdParamSetting = route.resourceIdParam; // 'docId', null or undefined
 * ```
 */
export type ResourceIdParamSetting = string | null | undefined;

/**
 * One parameter a route (or resolver) declares, in order.
 *
 * @example
 * ```ts
 * const params: DeclaredParam[] = [{ name: 'userId', optional: false, wildcard: false }, { name: 'id', optional: true, wildcard: false }];
 * ```
 */
export interface DeclaredParam {
  readonly name: string;
  /** The parameter may be absent (an optional path segment, a nullable argument). */
  readonly optional: boolean;
  /** A wildcard (`*path`), or a GraphQL argument of a list or input-object type: never one record's id. */
  readonly wildcard: boolean;
}

/**
 * The outcome: the record's id comes from parameter `name`, or there is none (a collection check).
 *
 * @example
 * ```ts
 * const byId: ResolvedResourceIdParam = { kind: 'param', name: 'id', optional: false };
 * ```
 */
export type ResolvedResourceIdParam = { readonly kind: 'none' } | { readonly kind: 'param'; readonly name: string; readonly optional: boolean };

/**
 * Why no parameter could be resolved, in words that continue "the handler …", with the fix.
 *
 * @example
 * ```ts
 * const resolved = resolveResourceIdParam(variants, undefined, 'default');
 * if (isResourceIdParamProblem(resolved)) throw new Error(`${label} ${resolved.problem}. ${resolved.fix}`);
 * ```
 */
export interface ResourceIdParamProblem {
  readonly problem: string;
  readonly fix: string;
}

/**
 * Where the default `id` may stand: a route's path parameters are ordered from the outer resource to
 * the inner one (`users/:id/documents/:docId`), so only the **last** one is the record's id; a
 * GraphQL field's arguments are named, not nested, so an argument `id` anywhere is.
 *
 * @example
 * ```ts
 * resolveResourceIdParam([graphqlArguments], undefined, 'default', 'any'); // an argument `id` anywhere
 * ```
 */
export type DefaultIdPosition = 'last' | 'any';

/**
 * The parameter name used when none is configured, if it is the last parameter.
 *
 * @example
 * ```ts
 * resolveResourceIdParam([[{ name: DEFAULT_RESOURCE_ID_PARAM, optional: false, wildcard: false }]], undefined, 'default'); // { kind: 'param', name: 'id', … }
 * ```
 */
export const DEFAULT_RESOURCE_ID_PARAM = 'id';

const NONE: ResolvedResourceIdParam = Object.freeze({ kind: 'none' });

const list = (params: readonly DeclaredParam[]): string => (params.length === 0 ? 'none' : params.map((param) => JSON.stringify(param.name)).join(', '));

/** A name a path parameter can have in every framework's syntax (Fastify's unnamed wildcard is named `*`). */
const NAMED = /^[A-Za-z_$][\w$]*$/;

/** Why the default finds no id among `params` (which are not empty), continuing "declares the parameters …". */
function noDefaultId(params: readonly DeclaredParam[], defaultAt: DefaultIdPosition): string {
  if (defaultAt === 'any') return `but none of them is the resource id: the default is an argument named "${DEFAULT_RESOURCE_ID_PARAM}" holding one id`;
  const last = params[params.length - 1] as DeclaredParam;
  const lastOnly = `but none of them is the resource id: the default "${DEFAULT_RESOURCE_ID_PARAM}" counts only as the last parameter`;
  return last.wildcard ? `${lastOnly}, and the last, ${JSON.stringify(last.name)}, is a wildcard, which matches several path segments` : lastOnly;
}

/** The fix when the default finds no id: name one of the parameters that can hold one id (never a wildcard), or declare one. */
function defaultIdFix(params: readonly DeclaredParam[], defaultAt: DefaultIdPosition, optOut: string): string {
  const usable = params.filter((param) => !param.wildcard);
  const kind = defaultAt === 'last' ? 'parameter' : 'argument';
  if (usable.length > 0) return `Set resourceIdParam to the ${kind} that holds the id of the record checked (one of ${list(usable)}), ${optOut}.`;
  return defaultAt === 'last'
    ? `Declare the id as a single segment parameter (":${DEFAULT_RESOURCE_ID_PARAM}"), ${optOut}.`
    : `Take the id from an argument of a scalar type (Int, ID, String), ${optOut}.`;
}

function resolveOne(
  params: readonly DeclaredParam[],
  setting: string | undefined,
  fromGuard: boolean,
  defaultAt: DefaultIdPosition,
): ResolvedResourceIdParam | ResourceIdParamProblem {
  const optOut = 'or opt out with resourceIdParam: null if this handler does not act on one record';
  if (setting === undefined) {
    if (params.length === 0) return NONE;
    const candidate = defaultAt === 'last' ? params[params.length - 1] : params.find((param) => param.name === DEFAULT_RESOURCE_ID_PARAM);
    if (candidate !== undefined && candidate.name === DEFAULT_RESOURCE_ID_PARAM && !candidate.wildcard)
      return { kind: 'param', name: candidate.name, optional: candidate.optional };
    return {
      problem: `declares the ${defaultAt === 'last' ? 'parameters' : 'arguments'} ${list(params)} ${noDefaultId(params, defaultAt)}`,
      fix: defaultIdFix(params, defaultAt, optOut),
    };
  }
  // A guard-wide parameter names the id of the routes that act on one record; its routes without
  // any parameter are the controller's collection routes.
  if (fromGuard && params.length === 0) return NONE;
  const param = params.find((candidate) => candidate.name === setting);
  if (param === undefined) {
    return {
      problem:
        `takes the resource id from ${defaultAt === 'last' ? 'parameter' : 'argument'} ${JSON.stringify(setting)}${fromGuard ? ' (set on the guard)' : ''}, ` +
        `which it does not declare (it declares ${list(params)})`,
      fix: `Set resourceIdParam to one of ${list(params)}, ${optOut}.`,
    };
  }
  if (param.wildcard) {
    return defaultAt === 'last'
      ? {
          problem: `takes the resource id from the wildcard ${JSON.stringify(setting)}, which matches several path segments`,
          fix: `Declare the id as a single segment parameter (":${NAMED.test(setting) ? setting : DEFAULT_RESOURCE_ID_PARAM}") ${optOut}.`,
        }
      : {
          problem: `takes the resource id from the argument ${JSON.stringify(setting)}, which is a list or an input object, not one id`,
          fix: `Take the id from an argument of a scalar type (Int, ID, String) ${optOut}.`,
        };
  }
  return { kind: 'param', name: param.name, optional: param.optional };
}

/**
 * Resolves where a handler's resource id comes from, for every variant of its route (a handler may
 * be mounted under several paths); the variants must agree. Rules:
 * - `setting === null`: no id, explicitly (a collection check).
 * - an explicit name: the route must declare it (a name set on the guard is not required of the
 *   guard's routes that declare no parameter at all: those are collection routes);
 * - the default: a route without parameters has no id; otherwise its **last** parameter must be
 *   `id` (with `defaultAt: 'any'`, for GraphQL arguments: an argument `id` anywhere). A route with
 *   parameters and no id resolved is a problem, never a collection check.
 *
 * @example
 * ```ts
 * resolveResourceIdParam([[{ name: 'id', optional: false, wildcard: false }]], undefined, 'default');
 * // { kind: 'param', name: 'id', optional: false }
 * resolveResourceIdParam([[{ name: 'documentId', optional: false, wildcard: false }]], undefined, 'default');
 * // { problem: 'declares the parameters "documentId" but none of them is the resource id: …', fix: … }
 * ```
 */
export function resolveResourceIdParam(
  variants: readonly (readonly DeclaredParam[])[],
  setting: ResourceIdParamSetting,
  settingFrom: 'handler' | 'guard' | 'default',
  defaultAt: DefaultIdPosition = 'last',
): ResolvedResourceIdParam | ResourceIdParamProblem {
  if (setting === null) return NONE;
  let resolved: ResolvedResourceIdParam | undefined;
  for (const params of variants.length === 0 ? [[]] : variants) {
    const one = resolveOne(params, setting, settingFrom === 'guard', defaultAt);
    if ('problem' in one) return one;
    if (resolved === undefined) resolved = one;
    else if (resolved.kind !== one.kind || (resolved.kind === 'param' && one.kind === 'param' && resolved.name !== one.name)) {
      return {
        problem: 'is mounted under several paths that resolve the resource id differently',
        fix: 'Give the handler one path, or set resourceIdParam to a parameter every path declares.',
      };
    } else if (one.kind === 'param' && one.optional && resolved.kind === 'param' && !resolved.optional) resolved = one;
  }
  return resolved ?? NONE;
}

/**
 * Whether a resolution is a problem.
 *
 * @example
 * ```ts
 * const resolved = resolveResourceIdParam(variants, setting, 'handler');
 * if (isResourceIdParamProblem(resolved)) throw new Error(resolved.problem);
 * ```
 */
export function isResourceIdParamProblem(value: ResolvedResourceIdParam | ResourceIdParamProblem): value is ResourceIdParamProblem {
  return 'problem' in value;
}
