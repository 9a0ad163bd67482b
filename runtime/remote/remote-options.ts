/**
 * The options of `createRemotePermissions`, checked at once: a wrong URL, an empty token or a duration no timer
 * can hold is an error when the application starts, not on its first request.
 */
import type { LimitOwnReducer, User } from '../core/definition/definition-types.js';
import type { PermissionsLogger } from '../core/decision/engine-settings.js';
import { PermissionsUsageError } from '../core/common/errors.js';
import { durationOption } from '../live/duration-option.js';
import type { RemotePermitSettings } from './role-set-policy.js';
import type { ServiceConnection } from './service-client.js';

/** Options of `createRemotePermissions`. */
export interface RemotePermissionsOptions<TUser = User, TFilter = unknown> {
  /** The decision service's base URL: `http://127.0.0.1:3100`. */
  readonly url: string | URL;
  /** A bearer token the service accepts. */
  readonly token: string;
  /** The ownership service: every method the service's policy names (the generated `PermissionsOwnershipService`). */
  readonly ownership: object;
  /** How limitOwned filters of several groups are combined (as for the embedded engine). */
  readonly limitOwnReduce?: LimitOwnReducer<TUser, TFilter> | undefined;
  /** How an item's id is read (default `item.id`). */
  readonly getResourceId?: ((args: { resource: string; item: object }) => unknown) | undefined;
  /** How long an ownership hook may take, in ms. Default 5,000. */
  readonly hookTimeoutMs?: number | undefined;
  /** How long one request to the service may take, in ms. Default 5,000. */
  readonly timeoutMs?: number | undefined;
  /** How often the service's policy version is asked, in ms; a new version drops every role set's answers. Default 5,000. */
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

const KNOWN = new Set([
  'url',
  'token',
  'ownership',
  'limitOwnReduce',
  'getResourceId',
  'hookTimeoutMs',
  'timeoutMs',
  'refreshIntervalMs',
  'maxCachedRoleSets',
  'maxResponseBytes',
  'fetch',
  'logger',
]);

function positiveCount(where: string, value: number | undefined, fallback: number): number {
  const count = value ?? fallback;
  if (!(Number.isSafeInteger(count) && count > 0)) throw new PermissionsUsageError(`${where} must be a positive whole number, got ${JSON.stringify(value)}.`);
  return count;
}

function serviceUrl(value: unknown): URL {
  let url: URL;
  try {
    url = new URL(value as string);
  } catch {
    throw new PermissionsUsageError(`createRemotePermissions(): url must be the decision service's base URL (http://host:port), got ${JSON.stringify(value)}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new PermissionsUsageError(`createRemotePermissions(): url must be http: or https:, got ${url.protocol}.`);
  if (url.username !== '' || url.password !== '') throw new PermissionsUsageError('createRemotePermissions(): put the credentials in token, not in the url.');
  // The base keeps its path: /v1/… is resolved under it.
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

/**
 * The settings of `options`, or a PermissionsUsageError saying which option is wrong and how.
 *
 * @example
 * ```ts
 * const settings = checkRemoteOptions({ url: 'http://127.0.0.1:3100', token, ownership });
 * ```
 */
export function checkRemoteOptions(options: RemotePermissionsOptions<any, any>): RemoteSettings {
  if (typeof options !== 'object' || options === null) throw new PermissionsUsageError('createRemotePermissions(options) expects { url, token, ownership }.');
  const unknown = Object.keys(options).filter((key) => !KNOWN.has(key));
  if (unknown.length > 0) throw new PermissionsUsageError(`createRemotePermissions(): unknown option ${unknown.map((key) => JSON.stringify(key)).join(', ')}.`);
  const { token, ownership } = options;
  if (typeof token !== 'string' || token.length === 0 || /[\s]/.test(token))
    throw new PermissionsUsageError('createRemotePermissions(): token must be a non-empty string without spaces (a token the decision service accepts).');
  if (typeof ownership !== 'object' || ownership === null)
    throw new PermissionsUsageError('createRemotePermissions(): ownership must be the ownership service (an object with the methods the policy names).');
  const fetchFunction = options.fetch ?? globalThis.fetch;
  if (typeof fetchFunction !== 'function') throw new PermissionsUsageError('createRemotePermissions(): there is no fetch here; pass options.fetch.');
  return {
    connection: {
      url: serviceUrl(options.url),
      token,
      timeoutMs: durationOption('createRemotePermissions(): timeoutMs', options.timeoutMs, 5000, 1),
      maxResponseBytes: positiveCount('createRemotePermissions(): maxResponseBytes', options.maxResponseBytes, 16 * 1024 * 1024),
      fetch: fetchFunction,
    },
    ownership,
    limitOwnReduce: options.limitOwnReduce as RemoteSettings['limitOwnReduce'],
    getResourceId: options.getResourceId,
    hookTimeoutMs: durationOption('createRemotePermissions(): hookTimeoutMs', options.hookTimeoutMs, 5000, 1),
    compileProjections: true,
    refreshIntervalMs: durationOption('createRemotePermissions(): refreshIntervalMs', options.refreshIntervalMs, 5000, 10),
    maxCachedRoleSets: positiveCount('createRemotePermissions(): maxCachedRoleSets', options.maxCachedRoleSets, 1000),
    logger: options.logger ?? console,
  };
}
