/**
 * The runner of policy tests: each test's grant query decided against compiled tables by the engine itself — a
 * policy snapshot loaded from the tables, its ownership hooks answered from the test file (test-ownership.ts) —
 * with no hook code, no database and no compiler (and no zod, unless a file declares tenants: their custom roles are
 * definitions, checked with zod). What a test checks is what an application gets:
 * `permit.granted` of the query (with a resourceId, the decision on that record: granted as any, or granted as
 * own and owned; without one, the decision on the resource: granted as any or as own), and the keys `pick` keeps
 * of the record. The runner also records which grants the tests exercised.
 */
import { PermissionsUsageError } from '../common/errors.js';
import { loadCompiledTables } from '../decision/bind-hooks.js';
import { OnceWarnings } from '../decision/once-warnings.js';
import { engineSettings } from '../decision/engine-settings.js';
import { PolicySnapshot, snapshotBudgets } from '../decision/policy-snapshot.js';
import { CacheBudget } from '../common/bounded-cache.js';
import { MAX_COMBINATION_CACHE_BYTES } from '../tables/table-loader.js';
import { overlayTenantRoles } from '../tables/tenant-overlay.js';
import type { GrantCell, GrantTables } from '../tables/grant-tables.js';
import { policyTestReferenceProblems, tenantBuilds, type BuiltTenant, type BuiltTenants } from './policy-test-references.js';
import { policyTestsShapeProblems } from './policy-test-shape.js';
import type { GrantCellName, PolicyTestCase, PolicyTestFile, PolicyTestOutcome, PolicyTestProblem, PolicyTestRun, PolicyTests } from './policy-test-types.js';
import { TestOwnership } from './test-ownership.js';

/** Tests decided between two yields to the event loop: a follower checking a bundle's tests never holds up requests for long. */
export const POLICY_TESTS_PER_TURN = 1_000;

const SILENT = { warn: (): void => undefined };

const yieldTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** Policy tests checked against tables: their problems, and the custom roles of the tenants they name, built. */
export interface CheckedPolicyTests {
  readonly problems: readonly PolicyTestProblem[];
  readonly tenants: BuiltTenants;
}

/**
 * Every problem of `value` as the tests of a policy with `tables`: its shape and limits, then what it names. Empty
 * when the tests can run. Synchronous, for a caller that has no event loop to keep (see
 * {@link checkPolicyTestsInTurns}).
 *
 * @example
 * ```ts
 * const problems = checkPolicyTests(bundle.tests, bundle.tables);
 * if (problems.length > 0) reject(problems.map((p) => p.message));
 * ```
 */
export function checkPolicyTests(value: unknown, tables: GrantTables): PolicyTestProblem[] {
  const shape = policyTestsShapeProblems(value);
  return shape.length > 0 ? shape : policyTestReferenceProblems(value as PolicyTests, tables);
}

/**
 * {@link checkPolicyTests}, yielding to the event loop after each tenant whose custom roles it builds (a build may
 * take a tenth of a second): a follower checking a version keeps answering meanwhile. What it returns lets
 * {@link runPolicyTests} run the tests without building any tenant again.
 *
 * @example
 * ```ts
 * const checked = await checkPolicyTestsInTurns(bundle.tests, bundle.tables);
 * if (checked.problems.length === 0) await runPolicyTests(bundle.tables, bundle.tests, checked);
 * ```
 */
export async function checkPolicyTestsInTurns(value: unknown, tables: GrantTables): Promise<CheckedPolicyTests> {
  const shape = policyTestsShapeProblems(value);
  if (shape.length > 0) return { problems: shape, tenants: new Map() };
  const builds = tenantBuilds(value as PolicyTests, tables);
  let step = builds.next();
  while (step.done !== true) {
    await yieldTurn();
    step = builds.next();
  }
  return { problems: policyTestReferenceProblems(value as PolicyTests, tables, step.value), tenants: step.value };
}

/** Whether two sorted lists of names are equal. */
function sameNames(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name, i) => name === b[i]);
}

const cellKey = (resource: number, action: number, role: number): string => `${resource}/${action}/${role}`;

/**
 * Which grants the tests exercise: an `any` grant of a role, by a test of its resource and action whose user has the
 * role; an `own` grant, by such a test with a resourceId that the grant's ownership owns.
 */
class Exercised {
  private readonly cells = new Map<string, GrantCell>();
  private readonly seen = new Set<string>();
  private readonly resources: ReadonlyMap<string, number>;
  private readonly actions: ReadonlyMap<string, number>;
  private readonly roles: ReadonlyMap<string, number>;

  constructor(private readonly tables: GrantTables) {
    for (const cell of tables.cells) this.cells.set(cellKey(cell[0], cell[1], cell[2]), cell);
    this.resources = new Map(tables.resources.map((name, i) => [name, i]));
    this.actions = new Map(tables.actions.map((name, i) => [name, i]));
    this.roles = new Map(tables.roles.map((name, i) => [name, i]));
  }

  mark(test: PolicyTestCase, roles: readonly string[], ownership: TestOwnership): void {
    const resource = this.resources.get(test.resource);
    const action = this.actions.get(test.action);
    if (resource === undefined || action === undefined) return;
    for (const role of new Set(roles)) {
      const roleIndex = this.roles.get(role);
      const cell = roleIndex === undefined ? undefined : this.cells.get(cellKey(resource, action, roleIndex));
      if (cell === undefined) continue;
      const key = cellKey(resource, action, cell[2]);
      if (cell[3] !== -1) this.seen.add(`${key}/any`);
      const { resourceId } = test;
      if (resourceId === undefined) continue;
      const own = cell[4];
      for (let i = 0; i < own.length; i += 2)
        if (ownership.groupOwns(this.tables, own[i] as number, resource, test.user, resourceId, test.tenant)) {
          this.seen.add(`${key}/own`);
          break;
        }
    }
  }

  /** Every grant of the tables, and those not exercised, sorted by role, resource, action, possession. */
  report(): { grants: number; unexercised: GrantCellName[] } {
    const { tables } = this;
    const unexercised: GrantCellName[] = [];
    let grants = 0;
    for (const [resource, action, role, anyPlan, own] of tables.cells) {
      const key = cellKey(resource, action, role);
      const name = { role: tables.roles[role] as string, resource: tables.resources[resource] as string, action: tables.actions[action] as string };
      for (const possession of ['any', 'own'] as const) {
        if (possession === 'any' ? anyPlan === -1 : own.length === 0) continue;
        grants += 1;
        if (!this.seen.has(`${key}/${possession}`)) unexercised.push({ ...name, possession });
      }
    }
    const order = (a: GrantCellName, b: GrantCellName) =>
      [a.role, a.resource, a.action, a.possession].join('\u0000') < [b.role, b.resource, b.action, b.possession].join('\u0000') ? -1 : 1;
    return { grants, unexercised: unexercised.sort(order) };
  }
}

/**
 * The snapshot of a tenant of a file: its custom roles (built by the check) beside the policy's, made when a test
 * first asks in it.
 */
function tenantSnapshots(snapshot: PolicySnapshot, built: ReadonlyMap<string, BuiltTenant>): (tenant: string) => PolicySnapshot {
  const budgets = snapshotBudgets();
  const combinations = new CacheBudget(MAX_COMBINATION_CACHE_BYTES);
  const made = new Map<string, PolicySnapshot>();
  return (tenant) => {
    let inTenant = made.get(tenant);
    if (inTenant !== undefined) return inTenant;
    const roles = built.get(tenant)?.roles;
    // The check refuses tests whose tenant is not declared or whose roles have problems: none reaches here.
    if (roles === undefined) throw new Error(`Tenant ${JSON.stringify(tenant)} was not built by the check of the tests: a bug of typed-permissions.`);
    const index = overlayTenantRoles(snapshot.index, roles.tables, combinations);
    inTenant = new PolicySnapshot(index, snapshot.settings, snapshot.warnings, undefined, { id: tenant, tables: roles.tables, sequence: undefined }, budgets);
    made.set(tenant, inTenant);
    return inTenant;
  };
}

/** Decides one test with `snapshot`. */
async function decide(snapshot: PolicySnapshot, file: PolicyTestFile, test: PolicyTestCase, ownership: TestOwnership): Promise<PolicyTestOutcome> {
  const { user, resource, action, resourceId } = test;
  try {
    const permit = await snapshot.grantPermit({
      user: ownership.user(user),
      resource,
      action,
      ...(resourceId === undefined ? {} : { resourceId }),
      ...(test.tenant === undefined ? {} : { tenant: test.tenant }),
    });
    let attributes: string[] | undefined;
    if (test.attributes !== undefined) {
      const record = (file.records[resource] as PolicyTestFile['records'][string])[String(resourceId)] as object;
      attributes = Object.keys(await permit.pick(record)).sort();
    }
    const passed = permit.granted === (test.expect === 'granted') && (attributes === undefined || sameNames(attributes, [...(test.attributes ?? [])].sort()));
    return {
      file: file.file,
      test,
      passed,
      granted: permit.granted,
      ...(attributes === undefined ? {} : { attributes }),
      ...(passed ? {} : { explanation: await permit.explain() }),
    };
  } catch (error) {
    return { file: file.file, test, passed: false, granted: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Runs every test of `tests` against `tables`, checked first with {@link checkPolicyTestsInTurns} unless `checked`
 * is that check of these tests and tables (tests that cannot run are a PermissionsUsageError naming their first
 * problem). Yields to the event loop after each tenant it builds and every {@link POLICY_TESTS_PER_TURN} tests.
 *
 * @example
 * ```ts
 * const run = await runPolicyTests(bundle.tables, bundle.tests);
 * console.log(`${run.passed} passed, ${run.failed} failed`);
 * ```
 */
export async function runPolicyTests(tables: GrantTables, tests: PolicyTests, checked?: CheckedPolicyTests): Promise<PolicyTestRun> {
  const { problems, tenants } = checked ?? (await checkPolicyTestsInTurns(tests, tables));
  if (problems.length > 0) {
    const [first] = problems as [PolicyTestProblem];
    throw new PermissionsUsageError(
      `These policy tests cannot run (${problems.length} problem${problems.length === 1 ? '' : 's'}); the first: ${first.file}: ${first.message} ${first.fix}`,
    );
  }
  const exercised = new Exercised(tables);
  const outcomes: PolicyTestOutcome[] = [];
  let failed = 0;
  for (const file of tests.files) {
    const ownership = new TestOwnership(file);
    const service = ownership.service(tables);
    const settings = engineSettings({ ownership: service, ownershipRules: ownership.ruleSource(tables), logger: SILENT, compileProjections: false });
    const snapshot = new PolicySnapshot(loadCompiledTables(tables, settings), settings, new OnceWarnings(false, SILENT));
    const inTenant = tenantSnapshots(snapshot, tenants.get(file) ?? new Map());
    for (const test of file.tests) {
      const outcome = await decide(test.tenant === undefined ? snapshot : inTenant(test.tenant), file, test, ownership);
      outcomes.push(outcome);
      if (!outcome.passed) failed += 1;
      exercised.mark(test, ownership.user(test.user).roles, ownership);
      if (outcomes.length % POLICY_TESTS_PER_TURN === 0) await yieldTurn();
    }
  }
  return { passed: outcomes.length - failed, failed, outcomes, ...exercised.report() };
}
