/**
 * The error of remote permissions when the decision service cannot answer: unreachable, too slow, refusing the
 * token, answering something that is not a decision service's answer. Remote permissions never grant on one.
 */
import { PermissionsError } from '../core/common/errors.js';

/**
 * Thrown (as a rejection of `grantPermit`, or of `createRemotePermissions`) when the decision service did not
 * give a usable answer. `status` is the HTTP status when there was one.
 *
 * @example
 * ```ts
 * try { await permissions.grantPermit(query); } catch (error) {
 *   if (error instanceof PermissionsServiceError) return reply.code(503).send({ message: 'permissions unavailable' });
 *   throw error;
 * }
 * ```
 */
export class PermissionsServiceError extends PermissionsError {
  constructor(
    message: string,
    /** The HTTP status the service answered with, when it answered. */
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super('PERMISSIONS_SERVICE_UNAVAILABLE', message, options);
  }
}
