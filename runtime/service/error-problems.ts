/**
 * Which problem answers an error thrown while serving a request: the service's own refusals as they are, the
 * validator's first error in words naming the field, Fastify's refusals of a body (too large, another media type,
 * empty) by their kind, any other client error as unreadable — and anything else as an internal error that
 * tells nothing of itself.
 */
import type { FastifyError } from 'fastify';
import { ServiceProblem, type ProblemKind } from './problem-details.js';
import type { ResolvedServiceLimits } from './service-limits.js';
import type { RefusalReason } from './service-metrics.js';
import { validationDetail, type ValidationIssue } from './validation-detail.js';

/** The reason a refusal is counted under, by its kind. */
export const REFUSAL_REASONS: Readonly<Record<ProblemKind, RefusalReason>> = {
  'invalid-request': 'invalid_request',
  unauthorized: 'unauthorized',
  'not-found': 'not_found',
  'policy-version-changed': 'policy_version_changed',
  'request-timeout': 'request_timeout',
  'payload-too-large': 'payload_too_large',
  'unsupported-media-type': 'unsupported_media_type',
  'rate-limited': 'rate_limited',
  'headers-too-large': 'headers_too_large',
  internal: 'internal',
  'not-ready': 'not_ready',
  'tenant-roles-unavailable': 'tenant_roles_unavailable',
};

/**
 * The problem `error` is answered with.
 *
 * @example
 * ```ts
 * problemForError(Object.assign(new Error('too large'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE' }), limits).statusCode; // 413
 * ```
 */
export function problemForError(error: Error, limits: ResolvedServiceLimits): ServiceProblem {
  if (error instanceof ServiceProblem) return error;
  const fastifyError = error as FastifyError & { validation?: readonly ValidationIssue[] };
  if (fastifyError.validation !== undefined && fastifyError.validation.length > 0)
    return new ServiceProblem('invalid-request', validationDetail(fastifyError.validation[0] as ValidationIssue));
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ServiceProblem('payload-too-large', `The body is larger than the limit of ${limits.maxBodyBytes} bytes.`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ServiceProblem('unsupported-media-type', 'Send the body as application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ServiceProblem('invalid-request', 'The body is empty; send a JSON object.');
    default:
  }
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) return new ServiceProblem('invalid-request', 'The request cannot be read.');
  return new ServiceProblem('internal', 'The service could not answer; the error is logged.');
}
