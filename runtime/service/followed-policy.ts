/**
 * The decision service's policy: an engine made from the compiled tables (or empty until its source has a version)
 * whose ownership service and rule source are placeholders, following the source — each version activated or rejected told
 * through the logger and counted — and the vocabulary checks are validated against: the first policy's, which
 * every later version keeps.
 */
import { PrecompiledPermissions, permissionsFromTables } from '../permissions/precompiled-permissions.js';
import type { PermissionsOptions } from '../permissions/permissions-options.js';
import type { User } from '../core/definition/definition-types.js';
import { type Vocabulary, vocabularyOf } from '../core/tables/vocabulary.js';
import type { LivePolicy } from '../live/policy-follower.js';
import type { PolicySource } from '../live/policy-source.js';
import type { TenantRolesSource } from '../live/tenant-roles-source.js';
import { ownershipRulesStandIn, ownershipStandIn } from '../live/ownership-stand-in.js';
import type { GrantTables } from '../core/tables/grant-tables.js';
import type { PolicyBundle } from '../live/policy-bundle.js';
import type { ServedPolicy } from './server-context.js';
import type { ServiceLogger } from './service-logger.js';
import type { ServiceMetrics } from './service-metrics.js';

/**
 * The service's rule source: it binds a policy's ownership rules and is never asked (rules are evaluated on the record
 * a check carries, or by the application that asked).
 */
const ruleSourceStandIn = ownershipRulesStandIn('The decision service has no records: it evaluates ownership rules only on the record a check carries.');

/** Where the policy comes from. */
export interface PolicyOrigin {
  readonly source?: PolicySource | undefined;
  readonly tenantRoles?: TenantRolesSource | undefined;
  readonly tables?: GrantTables | PolicyBundle | undefined;
  readonly ownershipMethods?: readonly string[] | undefined;
  readonly readTimeoutMs?: number | undefined;
  readonly onDecision?: PermissionsOptions['onDecision'];
  readonly decisionLog?: PermissionsOptions['decisionLog'];
}

/** The policy a service answers from, followed. */
export interface FollowedPolicy {
  readonly engine: PrecompiledPermissions;
  /** The engine and vocabulary, or undefined while no version is loaded. */
  served(): ServedPolicy | undefined;
  /** Stops following (the active version stays). */
  close(): Promise<void>;
}

/**
 * Loads the policy of `origin` and follows its source; resolves once the source's first version is loaded, or
 * could not be within the read timeout (the service then starts without a policy, not ready).
 *
 * @example
 * ```ts
 * const policy = await followPolicy({ source: filePolicySource('generated/policy.json') }, metrics, console);
 * policy.served()?.engine.policyVersion; // '7056…'
 * ```
 */
export async function followPolicy(origin: PolicyOrigin, metrics: ServiceMetrics, logger: ServiceLogger): Promise<FollowedPolicy> {
  const engineOptions: PermissionsOptions<User<unknown>, unknown> = {
    ownership: ownershipStandIn(
      origin.ownershipMethods,
      (name) => `The decision service does not run ownership methods (${name} was called); the application that asked runs them.`,
    ),
    ownershipRules: ruleSourceStandIn,
    logger: { warn: (message: string) => logger.warn(message) },
    ...(origin.onDecision === undefined ? {} : { onDecision: origin.onDecision }),
    ...(origin.decisionLog === undefined ? {} : { decisionLog: origin.decisionLog }),
  };
  const engine: PrecompiledPermissions =
    origin.tables === undefined
      ? new PrecompiledPermissions<User<unknown>, unknown>(engineOptions)
      : permissionsFromTables<User<unknown>, unknown>(origin.tables, engineOptions);
  let vocabulary: Vocabulary | undefined = engine.built ? vocabularyOf(engine.tables) : undefined;
  if (engine.built) metrics.activePolicy(engine.policyVersion);
  let live: LivePolicy | undefined;
  if (origin.source !== undefined) {
    live = await engine.follow(origin.source, {
      onChange: ({ version, previousVersion, source }) => {
        vocabulary ??= vocabularyOf(engine.tables);
        metrics.activePolicy(version);
        metrics.reloads.inc();
        logger.info(`typed-permissions service: policy ${version} active (was ${previousVersion ?? 'none'}), from ${source}.`);
      },
      onReject: ({ version, source, reasons }) => {
        metrics.rejections.inc();
        logger.error(`typed-permissions service: policy ${version ?? '(unreadable)'} from ${source} is rejected: ${reasons.join('; ')}`);
      },
      onError: (error) => {
        metrics.sourceErrors.inc();
        logger.warn(`typed-permissions service: policy source: ${error instanceof Error ? error.message : String(error)}`);
      },
      ...(origin.readTimeoutMs === undefined ? {} : { readTimeoutMs: origin.readTimeoutMs }),
    });
  }
  // Custom roles of tenants: each tenant read when a check first names it, again when the source says it changed.
  const tenantRoles =
    origin.tenantRoles === undefined
      ? undefined
      : await engine
          .followTenantRoles(origin.tenantRoles, {
            onError: (error) => logger.warn(`typed-permissions service: tenant roles source: ${error instanceof Error ? error.message : String(error)}`),
          })
          .catch(async (error: unknown) => {
            await live?.close();
            throw error;
          });
  return {
    engine,
    served: () => (engine.built && vocabulary !== undefined ? { engine, vocabulary } : undefined),
    close: async () => {
      await tenantRoles?.close();
      await live?.close();
    },
  };
}
