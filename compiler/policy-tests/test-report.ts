/**
 * How `typed-permissions test` and `policy publish` print a run of policy tests: each failure with its place
 * (`file:line:column`), what was expected and what the engine decided, and the explanation of the decision (which
 * definitions granted or refused it); the grants no test exercised; and the closing `N passed, N failed`.
 */
import {
  describeFailure,
  describePolicyTest,
  formatExplanation,
  policyTestLocation,
  type PolicyTestOutcome,
  type PolicyTestRun,
} from 'typed-permissions/internal';

/**
 * The lines of one failed test: where and what, the expectation and the decision, then the explanation, indented.
 *
 * @example
 * ```ts
 * failureLines(outcome, 'definitions');
 * // ['FAIL definitions/documents.permissions.test.json:14:5 employee read document 2', '  expected denied, got granted', '  read on document …']
 * ```
 */
export function failureLines(outcome: PolicyTestOutcome, folder: string): string[] {
  const lines = [`FAIL ${policyTestLocation(outcome, folder)} ${describePolicyTest(outcome.test)}`, `  ${describeFailure(outcome)}`];
  if (outcome.explanation !== undefined)
    lines.push(
      ...formatExplanation(outcome.explanation)
        .split('\n')
        .map((line) => `  ${line}`),
    );
  return lines;
}

/**
 * The lines of every failed test of a run, in file and test order.
 *
 * @example
 * ```ts
 * for (const line of failuresOf(run, 'definitions')) console.log(line);
 * ```
 */
export function failuresOf(run: PolicyTestRun, folder: string): string[] {
  return run.outcomes.filter((outcome) => !outcome.passed).flatMap((outcome) => failureLines(outcome, folder));
}

/**
 * The grants no test exercised, one a line (`  EMPLOYEE document create:own`), sorted, under a heading.
 *
 * @example
 * ```ts
 * coverageLines(run); // ['Grants no test exercised (2 of 19):', '  COMPANY_ADMIN document update:own', '  SUPER_ADMIN document create:any']
 * ```
 */
export function coverageLines(run: PolicyTestRun): string[] {
  if (run.unexercised.length === 0) return [`Every grant is exercised by a test (${run.grants} grants).`];
  return [
    `Grants no test exercised (${run.unexercised.length} of ${run.grants}):`,
    ...run.unexercised.map(({ role, resource, action, possession }) => `  ${role} ${resource} ${action}:${possession}`),
  ];
}

/**
 * The last line of a run.
 *
 * @example
 * ```ts
 * summaryLine(run); // '18 passed, 1 failed'
 * ```
 */
export function summaryLine(run: PolicyTestRun): string {
  return `${run.passed} passed, ${run.failed} failed`;
}
