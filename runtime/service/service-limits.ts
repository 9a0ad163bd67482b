/**
 * The limits of the decision service — request size, batch size, roles per user, rate per token, time per
 * request — with their defaults, and the check that refuses a limit that cannot work when the service is made.
 */
import { PermissionsUsageError } from '../core/common/errors.js';
import { MAX_TIMER_MS } from '../live/duration-option.js';

/** The limits of a decision service; every one has a default (see {@link DEFAULT_SERVICE_LIMITS}). */
export interface DecisionServiceLimits {
  /** The largest request body, in bytes; a larger one is refused with 413. Default 1,048,576 (1 MiB). */
  readonly maxBodyBytes?: number | undefined;
  /** The most checks in one `POST /v1/check`; more is refused with 400. Default 1,000. */
  readonly maxChecks?: number | undefined;
  /** The most roles one user may carry in a request; more is refused with 400. Default 64. */
  readonly maxRoles?: number | undefined;
  /** The most ownership groups one check may name in `ownedBy`; more is refused with 400. Default 256. */
  readonly maxOwnedBy?: number | undefined;
  /** Requests per token (per client address without a token) in one rate window; more is refused with 429. Default 1,000. */
  readonly rateLimitMax?: number | undefined;
  /** The rate window, in ms. Default 1,000. */
  readonly rateLimitWindowMs?: number | undefined;
  /** How long one request may take to arrive and be answered, in ms, before its connection is closed. Default 10,000. */
  readonly requestTimeoutMs?: number | undefined;
}

/** Every limit, resolved. */
export type ResolvedServiceLimits = { readonly [K in keyof DecisionServiceLimits]-?: number };

/**
 * The defaults of the limits: 1 MiB bodies, 1,000 checks per request, 64 roles per user, 256 groups in
 * `ownedBy`, 1,000 requests per token per second, 10 s per request.
 *
 * @example
 * ```ts
 * DEFAULT_SERVICE_LIMITS.maxChecks; // 1000
 * ```
 */
export const DEFAULT_SERVICE_LIMITS: ResolvedServiceLimits = Object.freeze({
  maxBodyBytes: 1_048_576,
  maxChecks: 1_000,
  maxRoles: 64,
  maxOwnedBy: 256,
  rateLimitMax: 1_000,
  rateLimitWindowMs: 1_000,
  requestTimeoutMs: 10_000,
});

/** The lowest and highest value each limit may take. */
const RANGES: { readonly [K in keyof ResolvedServiceLimits]: readonly [min: number, max: number] } = {
  maxBodyBytes: [1_024, 1_073_741_824],
  maxChecks: [1, 100_000],
  maxRoles: [1, 10_000],
  maxOwnedBy: [1, 100_000],
  rateLimitMax: [1, 1_000_000_000],
  rateLimitWindowMs: [1, MAX_TIMER_MS],
  requestTimeoutMs: [1, MAX_TIMER_MS],
};

/**
 * The limits with their defaults filled in; a PermissionsUsageError for an unknown limit or a value outside its
 * range (each a whole number).
 *
 * @example
 * ```ts
 * resolveServiceLimits({ maxChecks: 100 }).maxChecks; // 100
 * resolveServiceLimits({ maxCheks: 100 } as never); // throws: unknown limit "maxCheks"
 * ```
 */
export function resolveServiceLimits(limits: DecisionServiceLimits | undefined): ResolvedServiceLimits {
  if (limits === undefined) return DEFAULT_SERVICE_LIMITS;
  if (typeof limits !== 'object' || limits === null) throw new PermissionsUsageError('createDecisionService(options): limits must be an object.');
  const names = Object.keys(RANGES);
  for (const name of Object.keys(limits))
    if (!names.includes(name))
      throw new PermissionsUsageError(`createDecisionService(options): unknown limit ${JSON.stringify(name)}; the limits are ${names.join(', ')}.`);
  const resolved: Record<string, number> = {};
  for (const [name, [min, max]] of Object.entries(RANGES)) {
    const value = (limits as Record<string, unknown>)[name] ?? DEFAULT_SERVICE_LIMITS[name as keyof ResolvedServiceLimits];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max)
      throw new PermissionsUsageError(
        `createDecisionService(options): limits.${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value) ?? typeof value}.`,
      );
    resolved[name] = value;
  }
  return Object.freeze(resolved as ResolvedServiceLimits);
}
