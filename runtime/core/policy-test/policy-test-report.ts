/**
 * How a test and its outcome read in one line, the same in `typed-permissions test`, `policy publish` and the
 * reasons a follower gives for refusing a bundle. Names are input: shown with control and format characters as
 * visible escapes.
 */
import { printableText } from '../common/printable-text.js';
import type { PolicyTestCase, PolicyTestOutcome } from './policy-test-types.js';

/**
 * The test as a sentence of names: `alice read document 10` (string ids quoted), then the tenant it asks in, so
 * that two tests differing only by tenant read differently: `alice read document 10 in tenant "acme"`.
 *
 * @example
 * ```ts
 * describePolicyTest({ user: 'alice', action: 'read', resource: 'document', resourceId: 10, expect: 'granted', line: 4, column: 5 });
 * // 'alice read document 10'
 * describePolicyTest({ user: 'alice', action: 'read', resource: 'document', tenant: 'acme', expect: 'granted', line: 5, column: 5 });
 * // 'alice read document in tenant "acme"'
 * ```
 */
export function describePolicyTest(test: PolicyTestCase): string {
  const id = test.resourceId === undefined ? '' : ` ${typeof test.resourceId === 'number' ? test.resourceId : JSON.stringify(test.resourceId)}`;
  const tenant = test.tenant === undefined ? '' : ` in tenant ${JSON.stringify(test.tenant)}`;
  return printableText(`${test.user} ${test.action} ${test.resource}${id}${tenant}`);
}

/**
 * Where the test stands: `documents.permissions.test.json:12:7`, its file under `folder` when given.
 *
 * @example
 * ```ts
 * policyTestLocation(outcome, 'definitions'); // 'definitions/documents.permissions.test.json:12:7'
 * ```
 */
export function policyTestLocation(outcome: PolicyTestOutcome, folder?: string): string {
  const file = folder === undefined ? outcome.file : `${folder.replace(/\/$/, '')}/${outcome.file}`;
  return printableText(`${file}:${outcome.test.line}:${outcome.test.column}`);
}

const names = (list: readonly string[]): string => (list.length === 0 ? '(none)' : printableText(list.join(', ')));

/**
 * What went wrong in a failed test: `expected denied, got granted`, or the attributes expected and kept.
 *
 * @example
 * ```ts
 * describeFailure(outcome); // 'expected attributes date, title; pick kept date, status, title (not expected: status)'
 * ```
 */
export function describeFailure(outcome: PolicyTestOutcome): string {
  if (outcome.error !== undefined) return `deciding failed: ${printableText(outcome.error)}`;
  const { test, granted } = outcome;
  const actual = granted ? 'granted' : 'denied';
  if (actual !== test.expect) return `expected ${test.expect}, got ${actual}`;
  const expected = [...(test.attributes ?? [])].sort();
  const kept = outcome.attributes ?? [];
  const missing = expected.filter((name) => !kept.includes(name));
  const extra = kept.filter((name) => !expected.includes(name));
  const differences = [...(missing.length > 0 ? [`missing: ${names(missing)}`] : []), ...(extra.length > 0 ? [`not expected: ${names(extra)}`] : [])];
  return `expected attributes ${names(expected)}; pick kept ${names(kept)} (${differences.join('; ')})`;
}
