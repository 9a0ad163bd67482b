/**
 * `typed-permissions render [definitionsDir] --out <folder> [--before <definitionsDir|policy.json>]`: the review page
 * of a policy — a static site non-developers read offline — and, given an earlier version, what changed, highlighted.
 * Exit 0 when the site was written, 1 when the definitions (or the earlier version) cannot be read or the folder is
 * refused, 2 on a usage error.
 */
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { parseBundleText, policyBundleProblem, PermissionsUsageError, type GrantTables } from 'typed-permissions/internal';
import { compileModel } from '../model/compile-model.js';
import { formatCompileProblem } from '../problems/compile-problem.js';
import { diffPolicies } from '../review/policy-diff.js';
import { policyView } from '../review/policy-view.js';
import { renderSite, SiteTooLargeError } from '../review/render-site.js';
import { siteChangesOf } from '../review/site-changes.js';
import { writeSite } from '../review/site-folder.js';
import { definitionsFolder, parseCommandLine, plural, UsageError, type Command, type CommandOutput } from './command-line.js';
import { commandFileText } from './tenant-roles-file.js';

/** The most bytes of a policy.json read for --before: the limit of every policy bundle (64 Mi characters). */
const BUNDLE_MAX_BYTES = 64 * 1024 * 1024;

/** The tables of a definitions folder, compiled in memory; undefined (each problem printed) when it has problems. */
function compiledTables(definitionsDir: string, io: CommandOutput): GrantTables | undefined {
  const model = compileModel(definitionsDir);
  if (model.ok) return model.model.tables;
  for (const problem of model.problems) io.error(formatCompileProblem(problem, definitionsDir));
  return undefined;
}

/** The earlier version of `--before`: a definitions folder, or a policy bundle as compile writes it (`generated/policy.json`). */
async function beforeTables(path: string, io: CommandOutput): Promise<GrantTables | undefined> {
  let isFolder: boolean;
  try {
    isFolder = (await stat(path)).isDirectory();
  } catch (error) {
    io.error(
      `typed-permissions: render --before ${path}: no such folder or file (${(error as NodeJS.ErrnoException).code ?? 'unreadable'}). ` +
        'Give the definitions folder of the earlier version, or its policy.json.',
    );
    return undefined;
  }
  if (isFolder) return compiledTables(path, io);
  const value = parseBundleText(await commandFileText(path, 'the policy bundle', BUNDLE_MAX_BYTES), `file ${path}`);
  const problem = policyBundleProblem(value);
  if (problem === undefined) return (value as { tables: GrantTables }).tables;
  io.error(
    `typed-permissions: render --before ${path}: the file ${problem}. Give a policy.json that npx typed-permissions compile wrote, or a definitions folder.`,
  );
  return undefined;
}

/**
 * Runs `render`.
 *
 * @example
 * ```ts
 * await renderCommand(['definitions', '--out', 'policy-site', '--before', 'main/definitions'], io); // 0
 * ```
 */
export const renderCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandLine(argv, { out: { type: 'string' }, before: { type: 'string' } });
  if (values.out === undefined || values.out === '') throw new UsageError('render needs --out <folder>, the folder of the review page.');
  if (values.before === '') throw new UsageError('render --before needs a definitions folder or a policy.json.');
  const definitionsDir = definitionsFolder('render', positionals);
  const after = compiledTables(definitionsDir, io);
  if (after === undefined) return 1;
  const source = `${basename(resolve(definitionsDir))}/`;
  let before: GrantTables | undefined;
  try {
    before = values.before === undefined ? undefined : await beforeTables(values.before, io);
  } catch (error) {
    if (!(error instanceof PermissionsUsageError)) throw error;
    io.error(`typed-permissions: render --before ${values.before}: ${error.message}`);
    return 1;
  }
  if (values.before !== undefined && before === undefined) return 1;
  const policy = policyView(after);
  const changes =
    before === undefined || values.before === undefined
      ? undefined
      : siteChangesOf(policyView(before), diffPolicies(before, after, { before: values.before, after: source }));
  let files;
  try {
    files = renderSite({ policy, source, changes });
  } catch (error) {
    if (!(error instanceof SiteTooLargeError)) throw error;
    io.error(`typed-permissions: ${error.message}`);
    return 1;
  }
  const problems = writeSite(values.out, files, definitionsDir);
  if (problems.length > 0) {
    for (const problem of problems) io.error(formatCompileProblem(problem, definitionsDir));
    return 1;
  }
  const pages = files.filter((file) => file.path.endsWith('.html')).length;
  const compared =
    changes === undefined ? '' : `, compared with ${values.before}: ${changes.summary.length === 0 ? 'nothing changed' : changes.summary.join(' ')}`;
  io.log(`Wrote the review page of ${source} to ${values.out}/ (${plural(pages, 'page')}; open ${values.out}/index.html)${compared}`);
  return 0;
};
