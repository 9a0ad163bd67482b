/**
 * `Permissions`: the documented facade — `new Permissions(options)`, `addPermissions`, `build()`, `grantPermit` —
 * the engine of compiled tables plus the definitions builder (validated with zod, an optional peer loaded by
 * `build()`). `permissionsFromDefinitions` is its function form.
 */
import { buildDefinitions } from '../core/table-building/build-definitions.js';
import type { PermissionDefinition, User } from '../core/definition/definition-types.js';
import { PermissionsUsageError } from '../core/common/errors.js';
import { loadBuiltTables } from '../core/decision/bind-hooks.js';
import { PrecompiledPermissions } from './precompiled-permissions.js';
import type { PermissionsOptions } from './permissions-options.js';
import { checkResourceActionsOption } from './declared-actions-option.js';

/**
 * The permissions engine, built from definitions at run time (or loaded from compiled tables).
 *
 * @example
 * ```ts
 * const permissions = new Permissions({ ownership: new DocumentOwnership(db) });
 * permissions.addPermissions(definitions, { source: 'document.permissions.json' });
 * permissions.build();
 * const permit = await permissions.grantPermit({ user, resource: 'document', action: 'read', resourceId: 3 });
 * ```
 */
export class Permissions<TUser extends User<unknown> = User<unknown>, TFilter = any> extends PrecompiledPermissions<TUser, TFilter> {
  /**
   * Checks the options as every engine does, and the declared actions of `resourceActions` by the rule of the
   * compiler's resource files. Throws a PermissionsUsageError naming the option.
   *
   * @example
   * ```ts
   * const permissions = new Permissions({ ownership, resourceActions: { document: ['read', 'approve'] } });
   * ```
   */
  constructor(options: PermissionsOptions<TUser, TFilter> = {}) {
    super(options);
    checkResourceActionsOption(options.resourceActions);
  }

  /**
   * Validates every definition and builds the grant tables, once, at application start. Throws a
   * single PermissionDefinitionError listing every problem. Validating needs zod (an optional peer
   * dependency); where it is not installed, build() says what to install.
   *
   * @example
   * ```ts
   * permissions.build(); // throws PermissionDefinitionError: definitions[2].grant[0]: ... 'read:mine' ...
   * ```
   */
  override build(): this {
    if (this.built) throw new PermissionsUsageError('build() was already called; a Permissions instance is built once.');
    const built = buildDefinitions(this.added, this.settings);
    for (const warning of built.warnings) this.settings.logger.warn(`typed-permissions: ${warning}`);
    return this.install(loadBuiltTables(built, this.settings));
  }
}

/**
 * An engine built from definitions at run time: `new Permissions(options)`, `addPermissions(definitions)` and
 * `build()` in one call. Throws a PermissionDefinitionError listing every problem, so a bad definition stops
 * the start. Needs zod (an optional peer dependency).
 *
 * @example
 * ```ts
 * const permissions = permissionsFromDefinitions(documentDefinitions, { ownership: new DocumentOwnership(db), source: 'document.permissions.json' });
 * ```
 */
export function permissionsFromDefinitions<TUser extends User<unknown> = User<unknown>, TFilter = any>(
  definitions: readonly PermissionDefinition[],
  options: PermissionsOptions<TUser, TFilter> & { readonly source?: string | undefined } = {},
): Permissions<TUser, TFilter> {
  const { source, ...engineOptions } = options;
  return new Permissions<TUser, TFilter>(engineOptions).addPermissions(definitions, source === undefined ? {} : { source }).build();
}
