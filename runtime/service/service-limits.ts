/**
 * The limits of the decision service — request size, batch size, roles per user, rate per token, time per
 * request — with their defaults, and the check that refuses a limit that cannot work when the service is made.
 */
import { MAX_TIMER_MS } from '../core/shape/option-shapes.js';
import { integer, object, usageChecked, type Shape } from '../core/shape/shape-check.js';

/** The limits of a decision service; every one has a default (see {@link DEFAULT_SERVICE_LIMITS}). */
export interface DecisionServiceLimits {
  /** The largest request body, in bytes; a larger one is refused with 413. Default 1,048,576 (1 MiB). */
  readonly maxBodyBytes?: number | undefined;
  /** The most checks in one `POST /v1/check`; more is refused with 400. Default 1,000. */
  readonly maxChecks?: number | undefined;
  /**
   * The most tenants one request may name (over its checks); more is refused with 400. Each is one read of the
   * tenant roles source when the service does not keep it yet. Default 16; at most 1,000, the tenants the engine keeps.
   */
  readonly maxTenants?: number | undefined;
  /** The most roles one user may carry in a request; more is refused with 400. Default 64. */
  readonly maxRoles?: number | undefined;
  /** The most ownership groups one check may name in `ownedBy`; more is refused with 400. Default 256. */
  readonly maxOwnedBy?: number | undefined;
  /** The most attributes of a check's `record`, or of one of its `related` records; more is refused with 400. Default 256. */
  readonly maxRecordAttributes?: number | undefined;
  /** The most `related` records one check may carry, over every resource; more is refused with 400. Default 256. */
  readonly maxRelatedRecords?: number | undefined;
  /** The most attributes in a user's `attributes`; more is refused with 400. Default 64. */
  readonly maxUserAttributes?: number | undefined;
  /** The longest string value of a record's or a user's attribute, in characters; longer is refused with 400. Default 1,024. */
  readonly maxAttributeLength?: number | undefined;
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
 * The defaults of the limits: 1 MiB bodies, 1,000 checks and 16 tenants per request, 64 roles per user, 256 groups in
 * `ownedBy`, 256 attributes per record and 256 related records per check, 64 user attributes, 1,024 characters
 * per attribute value, 1,000 requests per token per second, 10 s per request.
 *
 * @example
 * ```ts
 * DEFAULT_SERVICE_LIMITS.maxChecks; // 1000
 * ```
 */
export const DEFAULT_SERVICE_LIMITS: ResolvedServiceLimits = Object.freeze({
  maxBodyBytes: 1_048_576,
  maxChecks: 1_000,
  maxTenants: 16,
  maxRoles: 64,
  maxOwnedBy: 256,
  maxRecordAttributes: 256,
  maxRelatedRecords: 256,
  maxUserAttributes: 64,
  maxAttributeLength: 1_024,
  rateLimitMax: 1_000,
  rateLimitWindowMs: 1_000,
  requestTimeoutMs: 10_000,
});

/** The lowest and highest value each limit may take. */
const RANGES: { readonly [K in keyof ResolvedServiceLimits]: readonly [min: number, max: number] } = {
  maxBodyBytes: [1_024, 1_073_741_824],
  maxChecks: [1, 100_000],
  maxTenants: [1, 1_000],
  maxRoles: [1, 10_000],
  maxOwnedBy: [1, 100_000],
  maxRecordAttributes: [1, 10_000],
  maxRelatedRecords: [0, 100_000],
  maxUserAttributes: [1, 10_000],
  maxAttributeLength: [1, 1_048_576],
  rateLimitMax: [1, 1_000_000_000],
  rateLimitWindowMs: [1, MAX_TIMER_MS],
  requestTimeoutMs: [1, MAX_TIMER_MS],
};

/** The shape of {@link DecisionServiceLimits}: each a whole number within its range. */
export const serviceLimitsShape = object(
  Object.fromEntries(
    Object.entries(RANGES).map(([name, [min, max]]) => {
      const within = integer(
        min,
        max,
        (value) => `createDecisionService(options): limits.${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value) ?? typeof value}.`,
      );
      // A limit given as null takes its default, as an undefined one does.
      const limit: Shape<number | null | undefined> = (value, path, issues) => value === null || value === undefined || within(value, path, issues);
      return [name, limit];
    }),
  ),
  {
    notObject: 'createDecisionService(options): limits must be an object.',
    unknownKey: (key, known) => `createDecisionService(options): unknown limit ${JSON.stringify(key)}; the limits are ${known.join(', ')}.`,
    firstUnknownOnly: true,
  },
);

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
  usageChecked(serviceLimitsShape, limits);
  return Object.freeze({
    ...DEFAULT_SERVICE_LIMITS,
    ...Object.fromEntries(Object.entries(limits).filter(([, value]) => value !== undefined && value !== null)),
  });
}
