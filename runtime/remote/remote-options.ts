/**
 * The options of `createRemotePermissions`, checked at once: a wrong URL, an empty token or a duration no timer
 * can hold is an error when the application starts, not on its first request.
 */
import type { LimitOwnReducer, User } from '../core/definition/definition-types.js';
import type { PermissionsLogger } from '../core/decision/engine-settings.js';
import { durationShape, positiveCountShape } from '../core/shape/option-shapes.js';
import { object, optional, report, usageChecked, valid, type Shape } from '../core/shape/shape-check.js';
import type { RemotePermitSettings } from './role-set-policy.js';
import type { OwnershipRuleSource } from '../core/ownership-rules/ownership-rule-source.js';
import type { ServiceConnection } from './service-client.js';

/** Options of `createRemotePermissions`. */
export interface RemotePermissionsOptions<TUser = User, TFilter = unknown> {
  /** The decision service's base URL: `http://127.0.0.1:3100`. */
  readonly url: string | URL;
  /** A bearer token the service accepts. */
  readonly token: string;
  /**
   * The ownership service: every method the service's policy names (the generated `PermissionsOwnershipService`).
   * Needed when the policy names ownership methods; a policy that names only rules needs `ownershipRules` alone.
   */
  readonly ownership?: object | undefined;
  /**
   * The records behind the ownership rules the service's policy names (`kyselyOwnership(db, { tables })`,
   * `memoryOwnership(records)`): rule groups are decided here, on the application's records. Needed when the policy
   * names a rule.
   */
  readonly ownershipRules?: OwnershipRuleSource<TFilter> | undefined;
  /** How limitOwned filters of several groups are combined (as for the embedded engine). */
  readonly limitOwnReduce?: LimitOwnReducer<TUser, TFilter> | undefined;
  /** How an item's id is read (default `item.id`). */
  readonly getResourceId?: ((args: { resource: string; item: object }) => unknown) | undefined;
  /** How long an ownership hook may take, in ms. Default 5,000. */
  readonly hookTimeoutMs?: number | undefined;
  /** How long one request to the service may take, in ms. Default 5,000. */
  readonly timeoutMs?: number | undefined;
  /**
   * How often the service's policy version is asked, in ms; a new version drops every role set's answers, and every
   * answer asked in a tenant is dropped at each ask (a tenant's custom roles change without a new version, so a
   * change is seen within this interval). Default 5,000.
   */
  readonly refreshIntervalMs?: number | undefined;
  /** How many sets of roles are kept (the oldest is asked again first). Default 1,000. */
  readonly maxCachedRoleSets?: number | undefined;
  /** The largest answer read from the service, in bytes. Default 16 MiB. */
  readonly maxResponseBytes?: number | undefined;
  /** The fetch to use (a proxy's, or a test's). Default: the global fetch. */
  readonly fetch?: typeof fetch | undefined;
  /** Where warnings go. Default: console. */
  readonly logger?: PermissionsLogger | undefined;
}

/** The options, checked and completed. */
export interface RemoteSettings extends RemotePermitSettings {
  readonly connection: ServiceConnection;
  readonly refreshIntervalMs: number;
  readonly maxCachedRoleSets: number;
  readonly logger: PermissionsLogger;
}

/** What is wrong with `value` as the decision service's base URL, or undefined. */
function urlProblem(value: unknown): string | undefined {
  let url: URL;
  try {
    url = new URL(value as string);
  } catch {
    return `createRemotePermissions(): url must be the decision service's base URL (http://host:port), got ${JSON.stringify(value)}.`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `createRemotePermissions(): url must be http: or https:, got ${url.protocol}.`;
  if (url.username !== '' || url.password !== '') return 'createRemotePermissions(): put the credentials in token, not in the url.';
  return undefined;
}

const duration = (name: string, min: number) => optional(durationShape(`createRemotePermissions(): ${name}`, min));
const count = (name: string) => optional(positiveCountShape(`createRemotePermissions(): ${name}`));

/** The shape of {@link RemotePermissionsOptions}; the fields in the order their problems are told. */
const optionsShape = object(
  {
    token: valid(
      (token) => typeof token === 'string' && token.length > 0 && !/[\s]/.test(token),
      'createRemotePermissions(): token must be a non-empty string without spaces (a token the decision service accepts).',
    ),
    ownership: optional(
      valid(
        (ownership) => typeof ownership === 'object' && ownership !== null,
        'createRemotePermissions(): ownership must be the ownership service (an object with the methods the policy names).',
      ),
    ),
    ownershipRules: optional(
      valid(
        (source) =>
          typeof source === 'object' &&
          source !== null &&
          ['filter', 'ownedAmong', 'listOwned'].every((method) => typeof (source as Record<string, unknown>)[method] === 'function'),
        "createRemotePermissions(): ownershipRules must be a source of the rules' records: an object with filter, ownedAmong and listOwned " +
          'methods (kyselyOwnership(db, { tables }), memoryOwnership(records)).',
      ),
    ),
    fetch: valid((given) => typeof (given ?? globalThis.fetch) === 'function', 'createRemotePermissions(): there is no fetch here; pass options.fetch.'),
    url: (value, path, issues) => {
      const problem = urlProblem(value);
      return problem === undefined || report(issues, path, value, problem);
    },
    timeoutMs: duration('timeoutMs', 1),
    maxResponseBytes: count('maxResponseBytes'),
    hookTimeoutMs: duration('hookTimeoutMs', 1),
    refreshIntervalMs: duration('refreshIntervalMs', 10),
    maxCachedRoleSets: count('maxCachedRoleSets'),
    limitOwnReduce: () => true,
    getResourceId: () => true,
    logger: () => true,
  } satisfies Record<keyof RemotePermissionsOptions, Shape<unknown>>,
  {
    notObject: 'createRemotePermissions(options) expects { url, token, ownership }.',
    unknownKey: [(keys) => `createRemotePermissions(): unknown option ${keys.map((key) => JSON.stringify(key)).join(', ')}.`],
  },
);

/** The base URL of a checked `url`: it keeps its path, under which /v1/… is resolved. */
function serviceUrl(value: string | URL): URL {
  const url = new URL(value);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/**
 * The settings of `options`, or a PermissionsUsageError saying which option is wrong and how.
 *
 * @example
 * ```ts
 * const settings = checkRemoteOptions({ url: 'http://127.0.0.1:3100', token, ownershipRules });
 * ```
 */
export function checkRemoteOptions(options: RemotePermissionsOptions<any, any>): RemoteSettings {
  usageChecked(optionsShape, options);
  const { token, ownership } = options;
  return {
    connection: {
      url: serviceUrl(options.url),
      token,
      timeoutMs: options.timeoutMs ?? 5000,
      maxResponseBytes: options.maxResponseBytes ?? 16 * 1024 * 1024,
      fetch: options.fetch ?? globalThis.fetch,
    },
    // No service is a service without methods: a policy that names one is refused at start, naming it.
    ownership: ownership ?? {},
    ownershipRules: options.ownershipRules,
    limitOwnReduce: options.limitOwnReduce as RemoteSettings['limitOwnReduce'],
    getResourceId: options.getResourceId,
    hookTimeoutMs: options.hookTimeoutMs ?? 5000,
    compileProjections: true,
    refreshIntervalMs: options.refreshIntervalMs ?? 5000,
    maxCachedRoleSets: options.maxCachedRoleSets ?? 1000,
    logger: options.logger ?? console,
  };
}
