/**
 * The decision service's Prometheus metrics (prom-client), in a registry of its own so that several services in
 * one process — or the application's own metrics — never collide: decisions by result, request latency, the
 * active policy version, policy reloads and rejections, source errors, and refused requests by reason.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The results a decision is counted under. */
export type DecisionResult = 'granted' | 'denied' | 'needs_ownership';

/** Why a request was refused, as counted. */
export type RefusalReason =
  | 'unauthorized'
  | 'invalid_request'
  | 'not_found'
  | 'policy_version_changed'
  | 'request_timeout'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'headers_too_large'
  | 'not_ready'
  | 'tenant_roles_unavailable'
  | 'internal';

/**
 * The metrics of one decision service.
 *
 * @example
 * ```ts
 * const metrics = new ServiceMetrics();
 * metrics.decisions.inc({ result: 'granted' });
 * reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
 * ```
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  readonly decisions = new Counter({
    name: 'typed_permissions_decisions_total',
    help: 'Checks answered by POST /v1/check, by result (needs_ownership: the record is granted only if one of the ownership groups owns it).',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly requestDuration = new Histogram({
    name: 'typed_permissions_request_duration_seconds',
    help: 'Time from receiving a request to answering it, by route and status.',
    labelNames: ['route', 'status'] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly policy = new Gauge({
    name: 'typed_permissions_policy_info',
    help: 'The active policy version (label version); 1 while it is active.',
    labelNames: ['version'] as const,
    registers: [this.registry],
  });
  readonly reloads = new Counter({
    name: 'typed_permissions_policy_reloads_total',
    help: 'Policy versions activated from the source (the first one included).',
    registers: [this.registry],
  });
  readonly rejections = new Counter({
    name: 'typed_permissions_policy_rejections_total',
    help: 'Policy versions the source held that were rejected (the last good version stayed).',
    registers: [this.registry],
  });
  readonly sourceErrors = new Counter({
    name: 'typed_permissions_policy_source_errors_total',
    help: 'Failures to read or watch the policy source (the active version stayed).',
    registers: [this.registry],
  });
  readonly refusals = new Counter({
    name: 'typed_permissions_requests_refused_total',
    help: 'Requests refused, by reason.',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  /** Marks `version` as the active policy. */
  activePolicy(version: string): void {
    this.policy.reset();
    this.policy.set({ version }, 1);
  }
}
