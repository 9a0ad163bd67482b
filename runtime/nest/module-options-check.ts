/**
 * The checks of `PermissionsModule.forRoot()`'s options, and their split into the module's own options and
 * the engine's (one options type for both, so that an application configures everything in one place).
 */
import { describeValue, PERMISSIONS_OPTION_KEYS } from '../integration/index.js';
import { PermissionsUsageError, type PermissionsOptions, type User } from '../permissions/index.js';
import type { PermissionsModuleOptions } from './permissions-module-options.js';

/** The module's own options; every other option is the engine's (`PermissionsOptions`), checked by it. */
const MODULE_OPTION_KEYS: readonly string[] = ['extractUserFromRequest', 'projectResourceId', 'definitions', 'tables', 'source', 'follow'];

/**
 * `options` as `PermissionsModule.forRoot()` was given them, once checked: an unknown key or a module option
 * of the wrong kind stops the start with a message naming it (the engine checks its own options when built).
 *
 * @example
 * ```ts
 * checkModuleOptions({ extractUserFromRequest: (request: Request) => request.user, definitions }); // the same options
 * checkModuleOptions({ extractUserFromRequest, definition: [] }); // throws: option "definition" does not exist; …
 * ```
 */
export function checkModuleOptions<TOptions extends PermissionsModuleOptions<any, any>>(options: TOptions): TOptions {
  if (typeof options !== 'object' || options === null)
    throw new PermissionsUsageError(`PermissionsModule.forRoot(options): options must be an object, got ${describeValue(options, { quoteStrings: false })}.`);
  const known: readonly string[] = [...MODULE_OPTION_KEYS, ...PERMISSIONS_OPTION_KEYS];
  const unknownOption = Object.keys(options).find((key) => !known.includes(key));
  if (unknownOption !== undefined)
    throw new PermissionsUsageError(
      `PermissionsModule.forRoot(): option ${JSON.stringify(unknownOption)} does not exist; the options are ${known.join(', ')}.`,
    );
  const { extractUserFromRequest, projectResourceId, definitions, tables, source, follow } = options as Partial<PermissionsModuleOptions>;
  if (source !== undefined && (typeof source !== 'object' || source === null || typeof source.read !== 'function' || typeof source.watch !== 'function'))
    throw new PermissionsUsageError(
      'PermissionsModule.forRoot(): source must be a policy source (filePolicySource, postgresPolicySource, httpPolicySource of typed-permissions/live).',
    );
  if (follow !== undefined && (typeof follow !== 'object' || follow === null))
    throw new PermissionsUsageError('PermissionsModule.forRoot(): follow must be an object { onChange?, onReject?, onError? }.');
  if (typeof extractUserFromRequest !== 'function')
    throw new PermissionsUsageError('PermissionsModule.forRoot(): extractUserFromRequest must be a function (request) => user | Promise<user>.');
  if (projectResourceId !== undefined && typeof projectResourceId !== 'function')
    throw new PermissionsUsageError('PermissionsModule.forRoot(): projectResourceId must be a function (id, { resource }) => id.');
  if (definitions !== undefined && !Array.isArray(definitions))
    throw new PermissionsUsageError(
      `PermissionsModule.forRoot(): definitions must be an array of PermissionDefinitions, got ${describeValue(definitions, { quoteStrings: false })}.`,
    );
  if (tables !== undefined && (typeof tables !== 'object' || tables === null || (tables as { format?: unknown }).format !== 1)) {
    throw new PermissionsUsageError('PermissionsModule.forRoot(): tables must be the grantTables that typed-permissions compile emits (format 1).');
  }
  return options;
}

/**
 * The engine's part of the module options: every option but the module's own, passed on as it is.
 *
 * @example
 * ```ts
 * engineOptionsOf({ extractUserFromRequest, definitions, strict: true, logger }); // { strict: true, logger }
 * ```
 */
export function engineOptionsOf<TUser extends User<unknown>, TFilter>(options: PermissionsModuleOptions<TUser, TFilter>): PermissionsOptions<TUser, TFilter> {
  // The keys left are PermissionsOptions' own (the module's options extend them), so each value keeps its type.
  return Object.fromEntries<unknown>(Object.entries(options).filter(([key]) => !MODULE_OPTION_KEYS.includes(key)));
}
