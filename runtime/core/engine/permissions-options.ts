/**
 * The options of the engine, shared by `new Permissions()`, the function forms, the NestJS module and the
 * express integration (one options type), and their checks: an option of the wrong type, or one that does
 * not exist, is refused when the engine is made, never at the first request.
 */
import { describeValue } from '../describe-value.js';
import type { LimitOwnReducer, OwnedAmongHook } from '../definition/definition-types.js';
import { hookNameProblem, quoteForMessage } from '../definition/names.js';
import { PermissionsUsageError } from '../errors.js';
import type { HookValue } from '../build/table-builder.js';
import type { ResourceIdType } from './resource-id.js';

/** Where warnings go (unknown roles, duplicate grants). `console` fits. */
export interface PermissionsLogger {
  warn(message: string): void;
}

/** Options of {@link Permissions}. */
export interface PermissionsOptions<TUser = any, TFilter = any> {
  /** The ownership service: hook strings in definitions name its methods. */
  readonly ownership?: object | undefined;
  /** Combines the filters of several limitOwned hooks for `permit.limitOwn()`, typically with OR. */
  readonly limitOwnReduce?: LimitOwnReducer<TUser, TFilter> | undefined;
  /** Throw instead of warning on unknown roles, resources and actions. Default false. */
  readonly strict?: boolean | undefined;
  /** Receives warnings. Default `console`. */
  readonly logger?: PermissionsLogger | undefined;
  /** How to read the id of an item given to pick/filterPick. Default `item.id`. */
  readonly getResourceId?: ((args: { resource: string; item: object }) => unknown) | undefined;
  /** How long a hook may take before the check fails closed. Default 5000 ms. */
  readonly hookTimeoutMs?: number | undefined;
  /**
   * The ownedAmong executor of each resource that has one: a method name of `ownership`, or a
   * function `({ user, filter, resourceIds }) => ids` that runs one limitOwned filter restricted to
   * `resourceIds` and returns those that match. With it, definitions on that resource need no
   * isOwner with limitOwned, and ownership of many records is one call. Used by `build()`; the
   * compiler reads it from `*.resource.json` instead.
   */
  readonly ownedAmong?: { readonly [resource: string]: OwnedAmongHook<TUser, TFilter> | string } | undefined;
  /**
   * The id type of each resource that declares one, as `*.resource.json` declares it for the compiler
   * (`{ document: 'number' }`): a resource id entering a check (a grant query, a path parameter, a GraphQL
   * argument) is projected to it — `'10'` becomes `10` — and anything else is refused with a
   * PermissionsInvalidIdError (400 in the integrations). Used by `build()`; precompiled tables carry it.
   */
  readonly resourceIdTypes?: { readonly [resource: string]: ResourceIdType } | undefined;
  /**
   * Whether `pick` may compile a hot attribute plan into a projection function (`new Function`), which is
   * faster. Default true (where the environment allows it: a Content-Security-Policy without 'unsafe-eval' is
   * detected the first time a plan is hot). `false` never compiles, nor probes — for environments where even
   * a refused attempt must not happen (a CSP that reports violations). Answers are the same either way.
   */
  readonly compileProjections?: boolean | undefined;
}

/** The names of the {@link PermissionsOptions}: an option spelt otherwise is refused, not ignored. */
export const PERMISSIONS_OPTION_KEYS = [
  'ownership',
  'limitOwnReduce',
  'strict',
  'logger',
  'getResourceId',
  'hookTimeoutMs',
  'ownedAmong',
  'resourceIdTypes',
  'compileProjections',
] as const satisfies readonly (keyof PermissionsOptions)[];

/** The checked options, with their defaults: what every snapshot of one engine shares. */
export interface EngineSettings {
  readonly ownership: object | undefined;
  readonly limitOwnReduce: LimitOwnReducer | undefined;
  readonly strict: boolean;
  readonly logger: PermissionsLogger;
  readonly getResourceId: (args: { resource: string; item: object }) => unknown;
  readonly hookTimeoutMs: number;
  readonly ownedAmong: ReadonlyMap<string, HookValue>;
  readonly idTypes: ReadonlyMap<string, ResourceIdType>;
  readonly compileProjections: boolean;
}

/** How an item's id is read when the application says nothing: `item.id`. */
export function defaultResourceId({ item }: { item: object }): unknown {
  return (item as { id?: unknown }).id;
}

function fail(message: string): never {
  throw new PermissionsUsageError(message);
}

function checkOwnedAmong(ownedAmong: unknown): ReadonlyMap<string, HookValue> {
  if (ownedAmong === undefined) return new Map();
  if (typeof ownedAmong !== 'object' || ownedAmong === null)
    fail('Permissions option ownedAmong must be an object: resource name → executor (a method name or a function).');
  for (const [resource, executor] of Object.entries(ownedAmong)) {
    const problem =
      typeof executor === 'string' ? hookNameProblem(executor) : typeof executor === 'function' ? undefined : 'is neither a method name nor a function';
    if (problem !== undefined) fail(`Permissions option ownedAmong.${resource}: the executor ${problem}.`);
  }
  return new Map(Object.entries(ownedAmong) as [string, HookValue][]);
}

function checkIdTypes(idTypes: unknown): ReadonlyMap<string, ResourceIdType> {
  if (idTypes === undefined) return new Map();
  if (typeof idTypes !== 'object' || idTypes === null) fail('Permissions option resourceIdTypes must be an object: resource name → "number" or "string".');
  for (const [resource, idType] of Object.entries(idTypes)) {
    if (idType !== 'number' && idType !== 'string')
      fail(`Permissions option resourceIdTypes.${resource} must be "number" or "string", got ${describeValue(idType)}.`);
  }
  return new Map(Object.entries(idTypes) as [string, ResourceIdType][]);
}

/**
 * Checks the options of an engine and fills in the defaults. Throws a PermissionsUsageError naming the
 * option and what it must be.
 *
 * @example
 * ```ts
 * const settings = checkPermissionsOptions({ ownership: new DocumentOwnership(db), hookTimeoutMs: 2000 });
 * ```
 */
export function checkPermissionsOptions(options: unknown): EngineSettings {
  if (typeof options !== 'object' || options === null) fail('new Permissions(options): options must be an object.');
  const unknownOption = Object.keys(options).find((key) => !(PERMISSIONS_OPTION_KEYS as readonly string[]).includes(key));
  if (unknownOption !== undefined)
    fail(`Permissions option ${quoteForMessage(unknownOption)} does not exist; the options are ${PERMISSIONS_OPTION_KEYS.join(', ')}.`);
  const { ownership, limitOwnReduce, strict, logger, getResourceId, hookTimeoutMs, ownedAmong, resourceIdTypes, compileProjections } =
    options as PermissionsOptions;
  if (ownership !== undefined && (typeof ownership !== 'object' || ownership === null))
    fail('Permissions option ownership must be an object whose methods the hook strings name.');
  if (limitOwnReduce !== undefined && typeof limitOwnReduce !== 'function')
    fail('Permissions option limitOwnReduce must be a function ({ user, limitOwneds }) => filter.');
  if (getResourceId !== undefined && typeof getResourceId !== 'function')
    fail('Permissions option getResourceId must be a function ({ resource, item }) => id.');
  if (hookTimeoutMs !== undefined && !(typeof hookTimeoutMs === 'number' && hookTimeoutMs > 0 && hookTimeoutMs <= 2_147_483_647))
    fail('Permissions option hookTimeoutMs must be a positive number of milliseconds.');
  if (logger !== undefined && typeof (logger as Partial<PermissionsLogger> | null)?.warn !== 'function')
    fail('Permissions option logger must have a warn(message) method.');
  if (compileProjections !== undefined && typeof compileProjections !== 'boolean') fail('Permissions option compileProjections must be true or false.');
  return {
    ownership,
    limitOwnReduce,
    strict: strict === true,
    logger: logger ?? console,
    getResourceId: getResourceId ?? defaultResourceId,
    hookTimeoutMs: hookTimeoutMs ?? 5000,
    ownedAmong: checkOwnedAmong(ownedAmong),
    idTypes: checkIdTypes(resourceIdTypes),
    compileProjections: compileProjections !== false,
  };
}
