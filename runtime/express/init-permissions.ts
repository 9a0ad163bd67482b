/**
 * `initPermissions()`: the boot step of the express integration.
 */
import { Permissions, type PermissionDefinition, type PermissionsOptions, type User } from '../core/index.js';

/**
 * Creates a `Permissions` engine, adds `definitions` and builds it, at boot. Throws a
 * PermissionDefinitionError listing every problem when a definition is invalid, so a bad
 * definition stops the server from starting instead of failing requests later.
 *
 * @example
 * ```ts
 * const permissions = initPermissions(documentDefinitions, { ownership: new DocumentOwnership(db), source: 'document.permissions.json' });
 * app.use('/documents', createPermissionsMiddleware({ permissions }));
 * ```
 */
export function initPermissions<TUser extends User<unknown> = User<unknown>, TFilter = any>(
  definitions: readonly PermissionDefinition[],
  options: PermissionsOptions<TUser, TFilter> & { readonly source?: string | undefined } = {},
): Permissions<TUser, TFilter> {
  const { source, ...engineOptions } = options;
  const permissions = new Permissions<TUser, TFilter>(engineOptions);
  permissions.addPermissions(definitions, source === undefined ? {} : { source });
  return permissions.build();
}
