/**
 * The tests a policy bundle carries (its `"tests"`, embedded by `npx typed-permissions compile`), as a check of a
 * version before a follower activates it: tests that are malformed, or that fail against the version's own
 * tables, are reasons to reject it. Bounded: at most `MAX_POLICY_TESTS` tests, checked before any runs.
 */
import type { GrantTables } from '../tables/grant-tables.js';
import { formatProblemLocation, PermissionsUsageError } from '../common/errors.js';
import { quoteForMessage } from '../common/printable-text.js';
import { loadZod } from '../definition/zod-loader.js';
import { describeFailure, describePolicyTest, policyTestLocation } from './policy-test-report.js';
import { isObject } from './policy-test-shape.js';
import type { PolicyTests } from './policy-test-types.js';
import { checkPolicyTestsInTurns, runPolicyTests } from './run-policy-tests.js';

/** Problems or failures named in one rejection reason; the rest are counted. */
const SHOWN = 5;

const andMore = (count: number): string => (count > SHOWN ? `; and ${count - SHOWN} more` : '');

/** The first tenant a file of `tests` declares, and that file's name, read defensively: the shape is checked later. */
function firstTenant(tests: unknown): { file: string; tenant: string } | undefined {
  const files = isObject(tests) && Array.isArray(tests['files']) ? (tests['files'] as unknown[]) : [];
  for (const file of files) {
    const [tenant] = isObject(file) && isObject(file['tenants']) ? Object.keys(file['tenants']) : [];
    if (tenant !== undefined) return { file: String((file as { file?: unknown }).file), tenant };
  }
  return undefined;
}

/**
 * Why tests that declare tenants cannot run here, or nothing: a tenant's custom roles are definitions, checked with
 * zod, which a follower that only loads compiled tables may not have installed.
 */
function tenantTestsWithoutZod(tests: unknown): string | undefined {
  const declared = firstTenant(tests);
  if (declared === undefined) return undefined;
  try {
    loadZod();
    return undefined;
  } catch (error) {
    if (!(error instanceof PermissionsUsageError)) throw error;
    return (
      `its tenant tests could not run, so the version was refused: the custom roles of tenant ${quoteForMessage(declared.tenant)} ` +
      `(${quoteForMessage(declared.file)}) are checked with zod, which this application cannot load. ` +
      'Fix: install zod where the application follows the source (`npm install zod`, zod 4).'
    );
  }
}

/**
 * Why the tests `bundle` carries refuse it — they cannot run, or some fail — or nothing when it carries none or
 * they all pass.
 *
 * @example
 * ```ts
 * const reasons = await embeddedTestReasons(bundle, bundle.tables as GrantTables);
 * // ['its policy tests fail (1 of 12): documents.permissions.test.json:14:5 employee read document 2: expected denied, got granted']
 * ```
 */
export async function embeddedTestReasons(bundle: object, tables: GrantTables): Promise<string[]> {
  if (!Object.hasOwn(bundle, 'tests')) return [];
  const tests = (bundle as { tests: unknown }).tests;
  const withoutZod = tenantTestsWithoutZod(tests);
  if (withoutZod !== undefined) return [withoutZod];
  // Checked in turns: a follower building the custom roles of many tenants keeps answering requests meanwhile.
  const checked = await checkPolicyTestsInTurns(tests, tables);
  const { problems } = checked;
  if (problems.length > 0) {
    const shown = problems
      .slice(0, SHOWN)
      .map((problem) => `${formatProblemLocation({ index: -1, source: problem.file, path: problem.path })}: ${problem.message}`);
    return [`its tests cannot run (${problems.length} problem${problems.length === 1 ? '' : 's'}): ${shown.join('; ')}${andMore(problems.length)}`];
  }
  const run = await runPolicyTests(tables, tests as PolicyTests, checked);
  if (run.failed === 0) return [];
  const failures = run.outcomes.filter((outcome) => !outcome.passed);
  const shown = failures.slice(0, SHOWN).map((outcome) => `${policyTestLocation(outcome)} ${describePolicyTest(outcome.test)}: ${describeFailure(outcome)}`);
  return [`its policy tests fail (${run.failed} of ${run.outcomes.length}): ${shown.join('; ')}${andMore(failures.length)}`];
}
