/**
 * The options of a guard made by `createPermissionsGuard()`.
 */
import type { ProjectResourceId } from './permissions-module-options.js';

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
  /**
   * The path parameter that holds the resource id, for every handler of the guard that declares
   * path parameters (handlers without any are collection routes). Default: `'id'`, when it is the
   * route's last parameter. `null`: no handler of this guard acts on a single record. Checked at
   * start: a route that declares parameters but resolves no id parameter stops the application.
   */
  readonly resourceIdParam?: string | null | undefined;
  /** Converts the id string into the application's id type; overrides the module's `projectResourceId`. */
  readonly projectResourceId?: ProjectResourceId | undefined;
}
