/**
 * The options of the engine, shared by `new Permissions()`, the function forms, the NestJS module and the
 * express integration (one options type), and their checks: an option of the wrong type, or one that does
 * not exist, is refused when the engine is made, never at the first request.
 */
import { describeValue } from '../core/common/describe-value.js';
import type { LimitOwnReducer, OwnedAmongHook } from '../core/definition/definition-types.js';
import { hookNameProblem } from '../core/definition/names.js';
import { quoteForMessage } from '../core/common/printable-text.js';
import { PermissionsUsageError } from '../core/common/errors.js';
import type { HookValue } from '../core/table-building/table-builder.js';
import type { ResourceIdType } from '../core/decision/resource-id.js';
import { DecisionLog, MAX_PENDING_DECISIONS_LIMIT, type DecisionLogOptions, type DecisionSink } from '../core/decision-log/decision-log.js';
import { type DecisionEvent } from '../core/decision-log/decision-event.js';
import { DEFAULT_HOOK_TIMEOUT_MS, defaultResourceId, engineSettings, type EngineSettings, type PermissionsLogger } from '../core/decision/engine-settings.js';

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
  /**
   * The decision log: called with one event per decision (`grantPermit`, and every decision of the integrations),
   * after the decision and never in its way — a sink that throws, rejects or is slow changes and delays nothing.
   */
  readonly onDecision?: ((event: DecisionEvent) => void | PromiseLike<void>) | undefined;
  /** How the decision log samples, filters and bounds its queue (with `onDecision`). */
  readonly decisionLog?: DecisionLogOptions | undefined;
  /**
   * OpenTelemetry of guarded decisions (NestJS, GraphQL, express, the decision service), where `@opentelemetry/api`
   * is installed: a span `typed_permissions.decide` per decision and a counter `typed_permissions.decisions`.
   * `false` turns it off; `{ userId: true }` adds the user's id to spans (off by default: ids can be personal data).
   */
  readonly telemetry?: false | { readonly userId?: boolean | undefined } | undefined;
}

/**
 * The names of the {@link PermissionsOptions}: an option spelt otherwise is refused, not ignored.
 *
 * @example
 * ```ts
 * const { permissions: _, ...engineOptions } = pluginOptions;
 * const unknown = Object.keys(engineOptions).filter((key) => !(PERMISSIONS_OPTION_KEYS as readonly string[]).includes(key));
 * ```
 */
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
  'onDecision',
  'decisionLog',
  'telemetry',
] as const satisfies readonly (keyof PermissionsOptions)[];

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

const DECISION_LOG_OPTION_KEYS = ['sampleRate', 'logGranted', 'maxPending', 'sinkTimeoutMs'] as const satisfies readonly (keyof DecisionLogOptions)[];

/** A value as a message shows it: numbers as they are (1.5, NaN), anything else described. */
function shownValue(value: unknown): string {
  return typeof value === 'number' ? String(value) : describeValue(value);
}

function isWholeNumber(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

function checkDecisionLog(onDecision: unknown, options: unknown, logger: PermissionsLogger): DecisionLog | undefined {
  if (onDecision !== undefined && typeof onDecision !== 'function') fail('Permissions option onDecision must be a function (event) => void.');
  if (options === undefined) return onDecision === undefined ? undefined : new DecisionLog(onDecision as DecisionSink, {}, logger);
  if (onDecision === undefined)
    fail('Permissions option decisionLog configures onDecision, which is not given: add onDecision: (event) => …, or remove decisionLog.');
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    fail('Permissions option decisionLog must be an object { sampleRate, logGranted, maxPending, sinkTimeoutMs }.');
  const unknown = Object.keys(options).find((key) => !(DECISION_LOG_OPTION_KEYS as readonly string[]).includes(key));
  if (unknown !== undefined)
    fail(`Permissions option decisionLog.${quoteForMessage(unknown)} does not exist; its options are ${DECISION_LOG_OPTION_KEYS.join(', ')}.`);
  const { sampleRate, logGranted, maxPending, sinkTimeoutMs } = options as DecisionLogOptions;
  if (sampleRate !== undefined && !(typeof sampleRate === 'number' && sampleRate >= 0 && sampleRate <= 1))
    fail(`Permissions option decisionLog.sampleRate must be a number from 0 to 1, got ${shownValue(sampleRate)}.`);
  if (logGranted !== undefined && typeof logGranted !== 'boolean') fail('Permissions option decisionLog.logGranted must be true or false.');
  if (maxPending !== undefined && !isWholeNumber(maxPending, 1, MAX_PENDING_DECISIONS_LIMIT))
    fail(`Permissions option decisionLog.maxPending must be a whole number from 1 to ${MAX_PENDING_DECISIONS_LIMIT}, got ${shownValue(maxPending)}.`);
  if (sinkTimeoutMs !== undefined && !isWholeNumber(sinkTimeoutMs, 1, 2_147_483_647))
    fail(`Permissions option decisionLog.sinkTimeoutMs must be a whole number of milliseconds from 1 to 2147483647, got ${shownValue(sinkTimeoutMs)}.`);
  return new DecisionLog(onDecision as DecisionSink, options, logger);
}

function checkTelemetry(telemetry: unknown): EngineSettings['telemetry'] {
  if (telemetry === undefined) return { userId: false };
  if (telemetry === false) return false;
  if (typeof telemetry !== 'object' || telemetry === null) fail('Permissions option telemetry must be false or { userId?: boolean }.');
  const unknown = Object.keys(telemetry).find((key) => key !== 'userId');
  if (unknown !== undefined) fail(`Permissions option telemetry.${quoteForMessage(unknown)} does not exist; its only option is userId.`);
  const { userId } = telemetry as { userId?: unknown };
  if (userId !== undefined && typeof userId !== 'boolean') fail('Permissions option telemetry.userId must be true or false.');
  return { userId: userId === true };
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
  const {
    ownership,
    limitOwnReduce,
    strict,
    logger,
    getResourceId,
    hookTimeoutMs,
    ownedAmong,
    resourceIdTypes,
    compileProjections,
    onDecision,
    decisionLog,
    telemetry,
  } = options as PermissionsOptions;
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
  const checkedLogger = logger ?? console;
  return engineSettings({
    ownership,
    limitOwnReduce,
    strict: strict === true,
    logger: checkedLogger,
    getResourceId: getResourceId ?? defaultResourceId,
    hookTimeoutMs: hookTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS,
    ownedAmong: checkOwnedAmong(ownedAmong),
    idTypes: checkIdTypes(resourceIdTypes),
    compileProjections: compileProjections !== false,
    decisionLog: checkDecisionLog(onDecision, decisionLog, checkedLogger),
    telemetry: checkTelemetry(telemetry),
  });
}
