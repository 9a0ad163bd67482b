/**
 * The checks of `PermissionsModule.forRoot()`'s options, and their split into the module's own options and
 * the engine's (one options type for both, so that an application configures everything in one place).
 */
import { describeValue, object, optional, PERMISSIONS_OPTION_KEYS, usageChecked, valid } from '../integration/index.js';
import type { PolicySource } from '../live/index.js';
import type { PermissionsOptions, User } from '../permissions/index.js';
import type { PermissionsModuleOptions } from './permissions-module-options.js';

/** The module's own options; every other option is the engine's (`PermissionsOptions`), checked by it. */
const MODULE_OPTION_KEYS: readonly string[] = [
  'extractUserFromRequest',
  'extractTenantFromRequest',
  'projectResourceId',
  'definitions',
  'tables',
  'source',
  'follow',
  'tenantRoles',
  'followTenantRoles',
];

const KNOWN_OPTION_KEYS: readonly string[] = [...MODULE_OPTION_KEYS, ...PERMISSIONS_OPTION_KEYS];

const is = (test: (value: unknown) => boolean, message: string) => optional(valid(test, `PermissionsModule.forRoot(): ${message}`));
const isObjectLike = (value: unknown): boolean => typeof value === 'object' && value !== null;

/**
 * The shape of the module's own options (the engine checks the rest when built); the fields in the order their
 * problems are told.
 */
const moduleOptionsShape = object(
  {
    source: is(
      (source) => isObjectLike(source) && typeof (source as PolicySource).read === 'function' && typeof (source as PolicySource).watch === 'function',
      'source must be a policy source (filePolicySource, postgresPolicySource, httpPolicySource of typed-permissions/live).',
    ),
    follow: is(isObjectLike, 'follow must be an object { onChange?, onReject?, onError? }.'),
    tenantRoles: is(
      (source) => isObjectLike(source) && typeof (source as { read?: unknown }).read === 'function',
      'tenantRoles must be a source of tenant roles (postgresTenantRoles, fileTenantRoles of typed-permissions/live, or an object with read(tenant)).',
    ),
    // Checked by followTenantRoles itself when the application starts, with its own messages.
    followTenantRoles: is(isObjectLike, 'followTenantRoles must be an object { maxTenants?, maxBytes?, onError? }.'),
    extractUserFromRequest: valid(
      (extract) => typeof extract === 'function',
      'PermissionsModule.forRoot(): extractUserFromRequest must be a function (request) => user | Promise<user>.',
    ),
    extractTenantFromRequest: is((extract) => typeof extract === 'function', 'extractTenantFromRequest must be a function (request) => tenant id | undefined.'),
    projectResourceId: is((project) => typeof project === 'function', 'projectResourceId must be a function (id, { resource }) => id.'),
    definitions: optional(
      valid(
        Array.isArray,
        (definitions) =>
          `PermissionsModule.forRoot(): definitions must be an array of PermissionDefinitions, got ${describeValue(definitions, { quoteStrings: false })}.`,
      ),
    ),
    tables: is(
      (tables) => isObjectLike(tables) && (tables as { format?: unknown }).format === 1,
      'tables must be the grantTables that typed-permissions compile emits (format 1).',
    ),
    ...Object.fromEntries(PERMISSIONS_OPTION_KEYS.map((key) => [key, () => true])),
  },
  {
    notObject: (options) => `PermissionsModule.forRoot(options): options must be an object, got ${describeValue(options, { quoteStrings: false })}.`,
    unknownKey: (key) => `PermissionsModule.forRoot(): option ${JSON.stringify(key)} does not exist; the options are ${KNOWN_OPTION_KEYS.join(', ')}.`,
    firstUnknownOnly: true,
  },
);

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
  usageChecked(moduleOptionsShape, options);
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
