/**
 * The tests a policy bundle carries (its `"tests"`, embedded by `npx typed-permissions compile`), as a check of a
 * version before a follower activates it: tests that are malformed, or that fail against the version's own
 * tables, are reasons to reject it. Bounded: at most `MAX_POLICY_TESTS` tests, checked before any runs.
 */
import type { GrantTables } from '../tables/grant-tables.js';
import { formatProblemLocation } from '../common/errors.js';
import { describeFailure, describePolicyTest, policyTestLocation } from './policy-test-report.js';
import type { PolicyTests } from './policy-test-types.js';
import { checkPolicyTests, runPolicyTests } from './run-policy-tests.js';

/** Problems or failures named in one rejection reason; the rest are counted. */
const SHOWN = 5;

const andMore = (count: number): string => (count > SHOWN ? `; and ${count - SHOWN} more` : '');

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
  const problems = checkPolicyTests(tests, tables);
  if (problems.length > 0) {
    const shown = problems
      .slice(0, SHOWN)
      .map((problem) => `${formatProblemLocation({ index: -1, source: problem.file, path: problem.path })}: ${problem.message}`);
    return [`its tests cannot run (${problems.length} problem${problems.length === 1 ? '' : 's'}): ${shown.join('; ')}${andMore(problems.length)}`];
  }
  const run = await runPolicyTests(tables, tests as PolicyTests);
  if (run.failed === 0) return [];
  const failures = run.outcomes.filter((outcome) => !outcome.passed);
  const shown = failures.slice(0, SHOWN).map((outcome) => `${policyTestLocation(outcome)} ${describePolicyTest(outcome.test)}: ${describeFailure(outcome)}`);
  return [`its policy tests fail (${run.failed} of ${run.outcomes.length}): ${shown.join('; ')}${andMore(failures.length)}`];
}
