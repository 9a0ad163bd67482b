/**
 * Everything built from one scenario that the benchmarks measure: this library (built and loaded
 * from tables), the peers' models and the nested-object baseline, sharing one ownership service.
 */
import type { Permissions, TypedPermissions } from '../runtime/permissions/index.js';
import { createAccessControl2, createAccessControl3 } from './peers/accesscontrol.js';
import { CountingOwnership } from './peers/counting-ownership.js';
import { nestedTable, type NestedTable } from './peers/nested-object.js';
import type { BenchUser } from './peers/peer.js';
import { flattenRules, universeOf, type PeerRule, type Universe } from './peers/rules.js';
import { buildPermissions, loadTypedPermissions, type BenchSchema } from './peers/typed-permissions.js';
import type { Scenario } from './scenario.js';

/** The implementations of one scenario. */
export interface BenchSubjects {
  readonly scenario: Scenario;
  readonly universe: Universe;
  readonly ownership: CountingOwnership;
  readonly permissions: Permissions<BenchUser>;
  readonly typed: TypedPermissions<BenchSchema, BenchUser, unknown>;
  /** Rules with `'*'` expanded (accesscontrol, the baseline) and as written (CASL, casbin). */
  readonly expandedRules: readonly PeerRule[];
  readonly rules: readonly PeerRule[];
  readonly table: NestedTable;
  readonly accessControl3: ReturnType<typeof createAccessControl3>;
  readonly accessControl2: ReturnType<typeof createAccessControl2>;
}

/**
 * Builds every implementation of `scenario` (CASL abilities and casbin role links are per user and
 * are built by the deciders' `prepare`).
 *
 * @example
 * ```ts
 * const subjects = createSubjects(createScenario(1));
 * subjects.permissions.grantPermitSync({ user, resource: 'document', action: 'read' }).granted;
 * ```
 */
export function createSubjects(scenario: Scenario): BenchSubjects {
  const ownership = new CountingOwnership();
  const permissions = buildPermissions(scenario, ownership);
  const expandedRules = flattenRules(scenario.definitions, { expand: true });
  return {
    scenario,
    universe: universeOf(scenario.definitions),
    ownership,
    permissions,
    typed: loadTypedPermissions(permissions.tables, ownership),
    expandedRules,
    rules: flattenRules(scenario.definitions, { expand: false }),
    table: nestedTable(expandedRules),
    accessControl3: createAccessControl3(expandedRules),
    accessControl2: createAccessControl2(expandedRules),
  };
}
