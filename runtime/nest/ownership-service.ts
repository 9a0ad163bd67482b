/**
 * The ownership service of a NestJS application (the object whose methods the hook strings name): the
 * module's `ownership` option, or a provider under `PERMISSIONS_OWNERSHIP_SERVICE_TOKEN` in any module.
 */
import type { ModuleRef } from '@nestjs/core';
import { UnknownElementException } from '@nestjs/core/errors/exceptions/unknown-element.exception.js';
import { describeValue } from '../integration/index.js';
import { PermissionsUsageError } from '../permissions/index.js';
import { PERMISSIONS_OWNERSHIP_SERVICE_TOKEN } from './permissions-constants.js';

/**
 * The ownership service: the provider under `PERMISSIONS_OWNERSHIP_SERVICE_TOKEN` anywhere in the application,
 * else `fromOptions` (the module's `ownership` option), else none. Both at once, or a provider that is no
 * object, stop the start.
 *
 * @example
 * ```ts
 * // with { provide: PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, useClass: DocumentOwnershipService } in some module:
 * ownershipServiceOf(moduleRef, undefined); // the DocumentOwnershipService instance
 * ownershipServiceOf(moduleRef, new DocumentOwnershipService()); // throws: the ownership service is given twice
 * ```
 */
export function ownershipServiceOf(moduleRef: ModuleRef, fromOptions: object | undefined): object | undefined {
  let provided: unknown;
  try {
    provided = moduleRef.get(PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, { strict: false });
  } catch (error) {
    if (!(error instanceof UnknownElementException)) throw error;
    return fromOptions;
  }
  if (fromOptions !== undefined) {
    throw new PermissionsUsageError(
      'The ownership service is given twice: as the ownership option of PermissionsModule.forRoot() and under ' +
        `${PERMISSIONS_OWNERSHIP_SERVICE_TOKEN}; keep one.`,
    );
  }
  if (typeof provided !== 'object' || provided === null) {
    const got = describeValue(provided, { quoteStrings: false });
    throw new PermissionsUsageError(`The provider ${PERMISSIONS_OWNERSHIP_SERVICE_TOKEN} must be an object whose methods the hook strings name, got ${got}.`);
  }
  return provided;
}
