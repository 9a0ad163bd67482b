/**
 * The checks of the documentation's `sh` and `console` blocks, shared by the documentation suites (which run the
 * documents on both jest workers: one long suite would be the run's critical path):
 *
 * - `sh` and `console` blocks run as a reader pasting them would: each document's, in document order, in one terminal
 *   of its own (test/docs/doc-terminal.ts) that starts in a copy of its own of the project (test/docs/docs-project.ts),
 *   so that a `cd` or an `export` carries from one block to the next — and nothing, not even an install, carries into
 *   another document;
 * - `sh` blocks run with `bash -e` (an `npm install` of typed-permissions or typed-permissions-cli installs the
 *   tarballs); a block whose first line is `# needs: <reason>` (a server, this repository, a process that runs until
 *   stopped) is only syntax-checked;
 * - `console` blocks run each `$ ` command and show exactly its output (policy versions as `<version>`, durations as
 *   `in <ms> ms`); one whose first line is `# needs: <reason>` (a running example project) is run by that project's
 *   test (test/examples) against the started project.
 */
import { rmSync } from 'node:fs';
import { beforeAll, expect, it } from '@jest/globals';
import { repoRoot } from '../compiler/helpers.js';
import { run } from '../package/throwaway-project.js';
import { consoleSteps, docBlocks, shownOutput, userDocuments, type DocBlock } from './doc-blocks.js';
import { copyOfDocsProject, sharedDocsProject, type DocsProject } from './docs-project.js';
import { DocumentTerminal } from './doc-terminal.js';

/**
 * The documents each documentation suite runs, by its test file (under test/docs); docs-code-blocks.test.ts runs
 * every other document ({@link otherDocuments}), so a new guide is never left out. Groups of about equal time.
 */
export const DOCUMENT_SUITES: Readonly<Record<string, readonly string[]>> = {
  'docs-readme.test.ts': ['README.md'],
  'docs-compiler-guides.test.ts': ['docs/definitions-and-compiler.md', 'docs/policy-tests.md', 'docs/policy-review.md', 'docs/live-policy.md'],
  'docs-rest-guides.test.ts': ['docs/express.md', 'docs/fastify.md', 'docs/hono.md'],
  'docs-nestjs-guides.test.ts': ['docs/nestjs.md', 'docs/graphql.md', 'docs/integration-kit.md'],
};

/**
 * The user documents no suite of {@link DOCUMENT_SUITES} names, in order.
 *
 * @example
 * ```ts
 * otherDocuments(); // ['docs/README.md', 'docs/browser-client.md', 'docs/decision-log.md', …]
 * ```
 */
export function otherDocuments(): string[] {
  const named = new Set(Object.values(DOCUMENT_SUITES).flat());
  return userDocuments(repoRoot).filter((document) => !named.has(document));
}

/**
 * The documents the suite in test/docs/`file` runs ({@link DOCUMENT_SUITES}); an error for a file not named there.
 *
 * @example
 * ```ts
 * documentsOfSuite('docs-readme.test.ts'); // ['README.md']
 * ```
 */
export function documentsOfSuite(file: string): readonly string[] {
  const documents = DOCUMENT_SUITES[file];
  if (documents === undefined) throw new Error(`${file} is not a suite of DOCUMENT_SUITES in test/docs/doc-checks.ts`);
  return documents;
}

/**
 * Where a block is, as `file:line`.
 *
 * @example
 * ```ts
 * where(docBlocks(repoRoot, 'README.md')[0]); // 'README.md:35'
 * ```
 */
export function where(block: DocBlock): string {
  return `${block.file}:${block.line}`;
}

/** Whether a block's first line is `# needs: <reason>`: it needs what this check does not start, and is not run. */
const needsMore = (block: DocBlock): boolean => /^# needs: /.test(block.code);

/** `code` with every `npm install` of our two packages pointed at the tarballs. */
function withTarballs(code: string, tarballs: Readonly<Record<string, string>>): string {
  return code
    .split('\n')
    .map((line) =>
      /\bnpm (?:install|i|add)\b/.test(line)
        ? line
            .replace(/(^|\s)typed-permissions-cli(?:@\S+)?(?=\s|$)/g, (_, space: string) => `${space}${tarballs['typed-permissions-cli'] ?? ''}`)
            .replace(/(^|\s)typed-permissions(?:@\S+)?(?=\s|$)/g, (_, space: string) => `${space}${tarballs['typed-permissions'] ?? ''}`)
        : line,
    )
    .join('\n');
}

/** What is wrong with an sh block pasted into `terminal` (nothing when it runs), or with its syntax for a `# needs:` block. */
function pasteShell(terminal: DocumentTerminal, block: DocBlock, tarballs: Readonly<Record<string, string>>): string[] {
  // A block that needs a server, this repository or a terminal of its own is not run; its syntax is checked.
  const result = needsMore(block)
    ? run('bash', ['-n'], terminal.folder, block.code)
    : terminal.paste(withTarballs(block.code, tarballs), { stopOnError: true });
  return result.status === 0 ? [] : [`${where(block)} (exit ${result.status}):\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-2000)}`];
}

/** Where a console block's commands, pasted into `terminal` one by one, print something other than what it shows. */
function pasteConsole(terminal: DocumentTerminal, block: DocBlock): string[] {
  // A block that needs a running example project is run by that project's test, against it.
  if (needsMore(block)) return [];
  return consoleSteps(block.code).flatMap((step) => {
    const result = terminal.paste(step.command, { stopOnError: false });
    const printed = shownOutput(`${result.stdout}${result.stderr}`);
    return printed === step.output ? [] : [`${where(block)} $ ${step.command}\n--- shown\n${step.output}\n--- printed\n${printed}`];
  });
}

/**
 * What is wrong with `document`'s sh and console blocks pasted in order into one terminal, which starts in a copy of
 * `project` of its own (none for a document that runs nothing: its `# needs:` blocks are only syntax-checked).
 */
function documentProblems(document: string, project: DocsProject): string[] {
  // Blocks that quote an example project are checked against its files instead (docs-code-blocks.test.ts).
  const blocks = docBlocks(repoRoot, document).filter((block) => block.example === undefined && (block.lang === 'sh' || block.lang === 'console'));
  const copy = blocks.some((block) => !needsMore(block)) ? copyOfDocsProject(project) : undefined;
  const terminal = new DocumentTerminal(copy ?? project.folder);
  try {
    return blocks.flatMap((block) => (block.lang === 'sh' ? pasteShell(terminal, block, project.tarballs) : pasteConsole(terminal, block)));
  } finally {
    terminal.close();
    if (copy !== undefined) rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * Declares, in the calling test file, one test per document of `documents`: its sh and console blocks, pasted in
 * order into one terminal, run and print exactly what they show.
 *
 * @example
 * ```ts
 * describeDocumentBlocks(documentsOfSuite('docs-readme.test.ts'));
 * ```
 */
export function describeDocumentBlocks(documents: readonly string[]): void {
  let project: DocsProject | undefined;
  // Packing (at most 5 minutes) and installing the project (at most 400 s), by this suite or another one.
  beforeAll(async () => {
    project = await sharedDocsProject();
  }, 720_000);

  it.each(documents)(
    '%s: its sh and console blocks, pasted in order into one terminal, run and print exactly what they show',
    (document) => {
      expect(documentProblems(document, project as DocsProject)).toEqual([]);
    },
    900_000,
  );
}
