/**
 * The JUnit XML report of a run of policy tests, for CI: one test suite per test file, one test case per test
 * (named by its grant query and expectation), each failure with its place and what was decided as the message, and
 * the explanation of the decision as its content. Deterministic: no times or timestamps.
 *
 * Everything in it is input — test and file names, users, roles, ids, attribute names, definitions' descriptions —
 * and none of it may change the report's structure. junit-report-builder escapes attributes, but writes the
 * failure's content as CDATA in which it splits only the first "]]>" (xmlbuilder 15 uses `replace`, not
 * `replaceAll`), so a second one would end the section and the rest would be read as markup; and it silently drops
 * the characters XML 1.0 cannot carry. So every text goes through {@link reportText} on its way in.
 */
import { createRequire } from 'node:module';
import type { Builder } from 'junit-report-builder';
import { describeFailure, describePolicyTest, formatExplanation, policyTestLocation, type PolicyTestRun } from 'typed-permissions/internal';

// The package is CommonJS (`module.exports = builder`) with types that say `export default`, which TypeScript reads as
// one level further down than Node gives it: required as what it is.
const junit = createRequire(import.meta.url)('junit-report-builder') as Builder;

/**
 * What XML 1.0 cannot carry (C0 controls but tab, line feed and carriage return; U+FFFE and U+FFFF; surrogate
 * halves without their pair), and, in CDATA, a carriage return (a parser reads it as a line feed).
 */
// eslint-disable-next-line no-control-regex -- these control characters are exactly what must be matched
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const NOT_XML_CDATA = new RegExp(`${NOT_XML.source}|\\r`, 'g');

/** What stands for a character the report cannot carry. */
export const REPLACEMENT_CHARACTER = '\uFFFD';

/**
 * `text` as the report can carry it: an attribute's value (`as: 'attribute'`), which the builder escapes, or the
 * failure's CDATA content (`as: 'cdata'`), whose "]]>" after the first are split here (the builder splits the
 * first). A character XML 1.0 cannot carry becomes U+FFFD; nothing else changes, so a parser reads the text back.
 *
 * @example
 * ```ts
 * reportText('a\u0000b', 'attribute'); // 'a\uFFFDb'
 * reportText('x]]>y]]>z', 'cdata'); // 'x]]>y]]]]><![CDATA[>z' (the builder then splits the first)
 * ```
 */
export function reportText(text: string, as: 'attribute' | 'cdata'): string {
  if (as === 'attribute') return text.replace(NOT_XML, REPLACEMENT_CHARACTER);
  const clean = text.replace(NOT_XML_CDATA, REPLACEMENT_CHARACTER);
  // The first "]]>" is the builder's to split; no later one can overlap it.
  const first = clean.indexOf(']]>');
  return first === -1 ? clean : clean.slice(0, first + 3) + clean.slice(first + 3).replaceAll(']]>', ']]]]><![CDATA[>');
}

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
    const file = reportText(`${folder.replace(/\/$/, '')}/${outcome.file}`, 'attribute');
    let suite = suites.get(file);
    if (suite === undefined) suites.set(file, (suite = report.testSuite().name(file)));
    const test = suite
      .testCase()
      .className(file)
      .name(reportText(`${describePolicyTest(outcome.test)}: ${outcome.test.expect}`, 'attribute'))
      .file(file);
    if (outcome.passed) continue;
    test.failure(reportText(`${policyTestLocation(outcome, folder)}: ${describeFailure(outcome)}`, 'attribute'));
    if (outcome.explanation !== undefined) test.stacktrace(reportText(formatExplanation(outcome.explanation), 'cdata'));
  }
  return report.build();
}
