/**
 * `typed-permissions test [definitionsDir] [--coverage] [--reporter junit <file>]`: runs the policy tests of a
 * definitions folder (`*.permissions.test.json`) against the tables a compile would write, with the runtime's own
 * runner. Prints each failure with its place, expectation, decision and explanation, then `N passed, N failed`;
 * exit 0 when every test passes, 1 when one fails (or the folder has problems, or no tests), 2 on a usage error.
 */
import { writeFileSync } from 'node:fs';
import { PermissionsUsageError, runPolicyTests } from 'typed-permissions/internal';
import { compileModel } from '../model/compile-model.js';
import { junitReport } from '../policy-tests/junit-report.js';
import { coverageLines, failuresOf, summaryLine } from '../policy-tests/test-report.js';
import { definitionsFolder, parseCommandLine, plural, UsageError, type Command } from './command-line.js';
import { problemReport, problemsFound } from '../problems/problem-cap.js';

const REPORTER_USAGE = '--reporter takes junit and the file to write: --reporter junit <file>';

/** `--reporter junit <file>` (or `--reporter=junit <file>`) taken out of `argv`: two values, which parseArgs cannot read for one option. */
function takeReporter(argv: readonly string[]): { readonly rest: string[]; readonly junitFile: string | undefined } {
  const rest: string[] = [];
  let junitFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i] as string;
    if (argument === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (argument !== '--reporter' && !argument.startsWith('--reporter=')) {
      rest.push(argument);
      continue;
    }
    const kind = argument === '--reporter' ? argv[++i] : argument.slice('--reporter='.length);
    if (kind !== 'junit') throw new UsageError(`${REPORTER_USAGE}${kind === undefined ? '' : `, got ${JSON.stringify(kind)}`}.`);
    const file = argv[++i];
    if (file === undefined || file.startsWith('-')) throw new UsageError(`${REPORTER_USAGE}; the file is missing.`);
    if (junitFile !== undefined) throw new UsageError('--reporter is given twice.');
    junitFile = file;
  }
  return { rest, junitFile };
}

/**
 * Runs `test`.
 *
 * @example
 * ```ts
 * await testCommand(['definitions', '--coverage', '--reporter', 'junit', 'policy-tests.xml'], io); // 0 when every test passes
 * ```
 */
export const testCommand: Command = async (argv, io) => {
  const { rest, junitFile } = takeReporter(argv);
  const { positionals, values } = parseCommandLine(rest, { coverage: { type: 'boolean' } });
  const definitionsDir = definitionsFolder('test', positionals);
  const model = compileModel(definitionsDir);
  if (!model.ok) {
    for (const line of problemReport(model, definitionsDir)) io.error(line);
    io.error(`typed-permissions: ${plural(problemsFound(model), 'problem')} in ${definitionsDir}; no test ran.`);
    return 1;
  }
  const { tables, tests } = model.model;
  if (tests === undefined) {
    io.error(`typed-permissions: ${definitionsDir} has no policy tests (*.permissions.test.json files).`);
    return 1;
  }
  const run = await runPolicyTests(tables, tests);
  for (const line of failuresOf(run, definitionsDir)) io.log(line);
  if (values.coverage === true) for (const line of coverageLines(run)) io.log(line);
  if (junitFile !== undefined) {
    try {
      writeFileSync(junitFile, junitReport(run, definitionsDir));
    } catch (error) {
      throw new PermissionsUsageError(`cannot write the JUnit report to ${junitFile} (${(error as Error).message}).`);
    }
    io.log(`typed-permissions: wrote the JUnit report to ${junitFile}.`);
  }
  io.log(summaryLine(run));
  return run.failed === 0 ? 0 : 1;
};
