/**
 * The JUnit XML report of a run of policy tests, for CI: one test suite per test file, one test case per test
 * (named by its grant query and expectation), each failure with its place and what was decided as the message, and
 * the explanation of the decision as its content. Deterministic: no times or timestamps.
 */
import { createRequire } from 'node:module';
import type { Builder } from 'junit-report-builder';
import { describeFailure, describePolicyTest, formatExplanation, policyTestLocation, type PolicyTestRun } from 'typed-permissions/internal';

// The package is CommonJS (`module.exports = builder`) with types that say `export default`, which TypeScript reads as
// one level further down than Node gives it: required as what it is.
const junit = createRequire(import.meta.url)('junit-report-builder') as Builder;

/**
 * The report of `run`, whose test files are in `folder`, as XML text.
 *
 * @example
 * ```ts
 * writeFileSync('policy-tests.xml', junitReport(run, 'definitions'));
 * ```
 */
export function junitReport(run: PolicyTestRun, folder: string): string {
  const report = junit.newBuilder().name('typed-permissions policy tests');
  const suites = new Map<string, ReturnType<typeof report.testSuite>>();
  for (const outcome of run.outcomes) {
    const file = `${folder.replace(/\/$/, '')}/${outcome.file}`;
    let suite = suites.get(file);
    if (suite === undefined) suites.set(file, (suite = report.testSuite().name(file)));
    const test = suite
      .testCase()
      .className(file)
      .name(`${describePolicyTest(outcome.test)}: ${outcome.test.expect}`)
      .file(file);
    if (outcome.passed) continue;
    test.failure(`${policyTestLocation(outcome, folder)}: ${describeFailure(outcome)}`);
    if (outcome.explanation !== undefined) test.stacktrace(formatExplanation(outcome.explanation));
  }
  return report.build();
}
