/**
 * The options of a guard made by `createPermissionsGuard()`.
 */
import type { ProjectResourceId } from './permissions-module-options.interface.js';

/**
 * What a permissions guard checks by default for every handler it guards.
 *
 * @example
 * ```ts
 * const DocumentsGuard = createPermissionsGuard({ resource: 'document', resourceIdParam: 'documentId' });
 * ```
 */
export interface PermissionsGuardOptions {
  /** The resource of the controller; a handler may override it with `@Permission({ resource })`. */
  readonly resource: string;
  /** The path parameter that holds the resource id. Default `'id'`. */
  readonly resourceIdParam?: string | undefined;
  /** Converts the id string into the application's id type; overrides the module's `projectResourceId`. */
  readonly projectResourceId?: ProjectResourceId | undefined;
}
