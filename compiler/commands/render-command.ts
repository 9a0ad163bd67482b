/**
 * `typed-permissions render [definitionsDir] --out <folder> [--before <side>]`: the review page of a policy — a static
 * site non-developers read offline — and, given an earlier version, what changed, highlighted. The earlier version is
 * any side `diff` takes (a definitions folder, a policy.json, `store:<sequence>`, `store:active`, `tenant:<id>`),
 * read by the same code with the same store options.
 * Exit 0 when the site was written, 1 when the definitions (or the earlier version) cannot be read or the folder is
 * refused, 2 on a usage error.
 */
import { basename, resolve } from 'node:path';
import type { GrantTables } from 'typed-permissions/internal';
import { compileModel } from '../model/compile-model.js';
import { formatCompileProblem } from '../problems/compile-problem.js';
import { diffPolicies } from '../review/policy-diff.js';
import { policyView } from '../review/policy-view.js';
import { renderSite, SiteTooLargeError } from '../review/render-site.js';
import { siteChangesOf } from '../review/site-changes.js';
import { writeSite } from '../review/site-folder.js';
import { definitionsFolder, parseCommandLine, plural, UsageError, type Command, type CommandOutput } from './command-line.js';
import { DiffSideError, SIDE_STORE_OPTIONS, sideStoresOf, sideTables } from './diff-sides.js';
import { problemReport } from '../problems/problem-cap.js';

/** The tables of a definitions folder, compiled in memory; undefined (each problem printed) when it has problems. */
function compiledTables(definitionsDir: string, io: CommandOutput): GrantTables | undefined {
  const model = compileModel(definitionsDir);
  if (model.ok) return model.model.tables;
  for (const line of problemReport(model, definitionsDir)) io.error(line);
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
  // The store options of `diff`, for an earlier version kept in a store.
  const { values, positionals } = parseCommandLine(argv, { out: { type: 'string' }, before: { type: 'string' }, ...SIDE_STORE_OPTIONS });
  if (values.out === undefined || values.out === '') throw new UsageError('render needs --out <folder>, the folder of the review page.');
  if (values.before === '')
    throw new UsageError('render --before needs the earlier version: a definitions folder, a policy.json, store:<sequence>, store:active or tenant:<id>.');
  const stores = sideStoresOf('render', values);
  const definitionsDir = definitionsFolder('render', positionals);
  const after = compiledTables(definitionsDir, io);
  if (after === undefined) return 1;
  const source = `${basename(resolve(definitionsDir))}/`;
  let before: GrantTables | undefined;
  try {
    before = values.before === undefined ? undefined : await sideTables(values.before, stores);
  } catch (error) {
    if (!(error instanceof DiffSideError)) throw error;
    for (const line of error.lines) io.error(line);
    return 1;
  }
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
