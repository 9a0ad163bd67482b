/**
 * The value a `PermissionsModule.forFeature()` module provides: its definitions, found at start.
 */
import type { PermissionDefinition } from '../permissions/index.js';

/**
 * @internal The definitions of one `forFeature()` call; the permissions service discovers every instance at start.
 *
 * @example
 * ```ts
 * { provide: Symbol('typed-permissions:feature'), useValue: new PermissionsFeatureDefinitions(invoiceDefinitions, undefined) }
 * ```
 */
export class PermissionsFeatureDefinitions {
  constructor(
    readonly definitions: readonly PermissionDefinition[],
    readonly source: string | undefined,
  ) {}
}
