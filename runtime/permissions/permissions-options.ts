/**
 * The options of the engine, shared by `new Permissions()`, the function forms, the NestJS module and the
 * express integration (one options type), and their checks: an option of the wrong type, or one that does
 * not exist, is refused when the engine is made, never at the first request.
 */
import { describeValue } from '../core/common/describe-value.js';
import type { LimitOwnReducer, OwnedAmongHook } from '../core/definition/definition-types.js';
import { hookNameProblem } from '../core/definition/names.js';
import { quoteForMessage } from '../core/common/printable-text.js';
import { both, integer, object, oneOf, optional, record, report, usageChecked, valid, type Shape } from '../core/shape/shape-check.js';
import { flagOption, functionOption, MAX_TIMER_MS } from '../core/shape/option-shapes.js';
import type { HookValue } from '../core/table-building/table-builder.js';
import type { ResourceIdType } from '../core/decision/resource-id.js';
import { DecisionLog, MAX_PENDING_DECISIONS_LIMIT, type DecisionLogOptions } from '../core/decision-log/decision-log.js';
import type { DecisionEvent } from '../core/decision-log/decision-event.js';
import type { OwnershipRuleSource } from '../core/ownership-rules/ownership-rule-source.js';
import { DEFAULT_HOOK_TIMEOUT_MS, defaultResourceId, engineSettings, type EngineSettings, type PermissionsLogger } from '../core/decision/engine-settings.js';

/** Options of {@link Permissions}. */
export interface PermissionsOptions<TUser = any, TFilter = any> {
  /** The ownership service: hook strings in definitions name its methods. */
  readonly ownership?: object | undefined;
  /**
   * The records behind the ownership rules definitions name (`"owner": "creator"`): an adapter such as
   * `kyselyOwnership(db, { tables })` from typed-permissions/kysely, or `memoryOwnership(records)`.
   */
  readonly ownershipRules?: OwnershipRuleSource<TFilter> | undefined;
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
   * The actions of each resource that declares them, as `"actions"` in its `*.resource.json` declares them for the
   * compiler (`{ document: ['read', 'approve'] }`): a grant naming another action on it is a build error, `'*'` on
   * it expands to these only, and asking it another action is a PermissionsUsageError. A resource not listed
   * accepts any action (one no definition grants is simply not granted). Used by `build()`; precompiled tables
   * carry it.
   */
  readonly resourceActions?: { readonly [resource: string]: readonly string[] } | undefined;
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
  'ownershipRules',
  'limitOwnReduce',
  'strict',
  'logger',
  'getResourceId',
  'hookTimeoutMs',
  'ownedAmong',
  'resourceIdTypes',
  'resourceActions',
  'compileProjections',
  'onDecision',
  'decisionLog',
  'telemetry',
] as const satisfies readonly (keyof PermissionsOptions)[];

/** A value as a message shows it: numbers as they are (1.5, NaN), anything else described. */
function shownValue(value: unknown): string {
  return typeof value === 'number' ? String(value) : describeValue(value);
}

const ownedAmongShape = record((executor, path, issues) => {
  const problem =
    typeof executor === 'string' ? hookNameProblem(executor) : typeof executor === 'function' ? undefined : 'is neither a method name nor a function';
  return problem === undefined || report(issues, path, executor, `Permissions option ownedAmong.${String(path[1])}: the executor ${problem}.`);
}, 'Permissions option ownedAmong must be an object: resource name → executor (a method name or a function).');

const idTypesShape = record(
  oneOf(
    ['number', 'string'],
    (idType, path) => `Permissions option resourceIdTypes.${String(path[1])} must be "number" or "string", got ${describeValue(idType)}.`,
  ),
  'Permissions option resourceIdTypes must be an object: resource name → "number" or "string".',
);

// Only that each value is a list: the names in it are checked by the engine that builds definitions (declared-actions-option.ts),
// with the same rule as the compiler, so that an engine of compiled tables, which refuses the option, does not carry that rule.
const resourceActionsShape = record(
  valid(Array.isArray, (_, path) => `Permissions option resourceActions.${String(path[1])} must be an array of action names, such as ["read", "approve"].`),
  'Permissions option resourceActions must be an object: resource name → the array of its action names.',
);

const decisionLogShape = object(
  {
    sampleRate: optional(
      valid(
        (rate) => typeof rate === 'number' && rate >= 0 && rate <= 1,
        (rate) => `Permissions option decisionLog.sampleRate must be a number from 0 to 1, got ${shownValue(rate)}.`,
      ),
    ),
    logGranted: flagOption('Permissions option decisionLog.logGranted must be true or false.'),
    maxPending: optional(
      integer(
        1,
        MAX_PENDING_DECISIONS_LIMIT,
        (pending) => `Permissions option decisionLog.maxPending must be a whole number from 1 to ${MAX_PENDING_DECISIONS_LIMIT}, got ${shownValue(pending)}.`,
      ),
    ),
    sinkTimeoutMs: optional(
      integer(
        1,
        MAX_TIMER_MS,
        (ms) => `Permissions option decisionLog.sinkTimeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}, got ${shownValue(ms)}.`,
      ),
    ),
  } satisfies Record<keyof DecisionLogOptions, Shape<unknown>>,
  {
    notObject: 'Permissions option decisionLog must be an object { sampleRate, logGranted, maxPending, sinkTimeoutMs }.',
    unknownKey: (key, known) => `Permissions option decisionLog.${quoteForMessage(key)} does not exist; its options are ${known.join(', ')}.`,
    firstUnknownOnly: true,
  },
);

const telemetryShape = object(
  { userId: flagOption('Permissions option telemetry.userId must be true or false.') },
  {
    notObject: 'Permissions option telemetry must be false or { userId?: boolean }.',
    unknownKey: (key) => `Permissions option telemetry.${quoteForMessage(key)} does not exist; its only option is userId.`,
    firstUnknownOnly: true,
  },
);

/** The shape of {@link PermissionsOptions}; the fields in the order their problems are told. */
const optionsShape = object(
  {
    ownership: optional(valid(isObjectLike, 'Permissions option ownership must be an object whose methods the hook strings name.')),
    ownershipRules: optional(
      valid(
        isRuleSource,
        "Permissions option ownershipRules must be a source of the rules' records: an object with filter, ownedAmong and listOwned methods " +
          '(kyselyOwnership(db, { tables }), memoryOwnership(records)).',
      ),
    ),
    limitOwnReduce: functionOption('Permissions option limitOwnReduce must be a function ({ user, limitOwneds }) => filter.'),
    getResourceId: functionOption('Permissions option getResourceId must be a function ({ resource, item }) => id.'),
    hookTimeoutMs: optional(
      valid((ms) => typeof ms === 'number' && ms > 0 && ms <= MAX_TIMER_MS, 'Permissions option hookTimeoutMs must be a positive number of milliseconds.'),
    ),
    logger: optional(
      valid(
        (logger) => typeof (logger as Partial<PermissionsLogger> | null)?.warn === 'function',
        'Permissions option logger must have a warn(message) method.',
      ),
    ),
    compileProjections: flagOption('Permissions option compileProjections must be true or false.'),
    ownedAmong: optional(ownedAmongShape),
    resourceIdTypes: optional(idTypesShape),
    resourceActions: optional(resourceActionsShape),
    onDecision: functionOption('Permissions option onDecision must be a function (event) => void.'),
    decisionLog: optional(
      both(
        (log, path, issues, options) =>
          options?.['onDecision'] !== undefined ||
          report(
            issues,
            path,
            log,
            'Permissions option decisionLog configures onDecision, which is not given: add onDecision: (event) => …, or remove decisionLog.',
          ),
        decisionLogShape,
      ),
    ),
    telemetry: (value, path, issues) => value === undefined || value === false || telemetryShape(value, path, issues),
    strict: () => true,
  } satisfies Record<(typeof PERMISSIONS_OPTION_KEYS)[number], Shape<unknown>>,
  {
    notObject: 'new Permissions(options): options must be an object.',
    unknownKey: (key) => `Permissions option ${quoteForMessage(key)} does not exist; the options are ${PERMISSIONS_OPTION_KEYS.join(', ')}.`,
    firstUnknownOnly: true,
  },
);

function isObjectLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}

function isRuleSource(value: unknown): boolean {
  if (!isObjectLike(value)) return false;
  const source = value as Partial<Record<keyof OwnershipRuleSource, unknown>>;
  return typeof source.filter === 'function' && typeof source.ownedAmong === 'function' && typeof source.listOwned === 'function';
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
  usageChecked(optionsShape, options);
  const {
    ownership,
    ownershipRules,
    limitOwnReduce,
    strict,
    logger,
    getResourceId,
    hookTimeoutMs,
    ownedAmong,
    resourceIdTypes,
    resourceActions,
    compileProjections,
    onDecision,
    decisionLog,
    telemetry,
  } = options as PermissionsOptions;
  const checkedLogger = logger ?? console;
  return engineSettings({
    ownership,
    ownershipRules,
    limitOwnReduce,
    strict: strict === true,
    logger: checkedLogger,
    getResourceId: getResourceId ?? defaultResourceId,
    hookTimeoutMs: hookTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS,
    ownedAmong: new Map(Object.entries(ownedAmong ?? {}) as [string, HookValue][]),
    idTypes: new Map(Object.entries(resourceIdTypes ?? {})),
    // Copied: a list changed after the engine was made must not change what build() checks.
    declaredActions: new Map(Object.entries(resourceActions ?? {}).map(([resource, actions]) => [resource, [...actions]])),
    compileProjections: compileProjections !== false,
    decisionLog: onDecision === undefined ? undefined : new DecisionLog(onDecision, decisionLog ?? {}, checkedLogger),
    telemetry: telemetry === false ? false : { userId: telemetry?.userId === true },
  });
}
