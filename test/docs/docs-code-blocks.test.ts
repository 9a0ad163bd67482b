/**
 * Every code block a user reads works as shown, against the packed tarballs, in a throwaway project outside
 * this repository (README.md and docs/*.md):
 *
 * - `sh` and `console` blocks run as a reader pasting them would: each document's, in document order, in one terminal
 *   of its own that starts in the project (test/docs/doc-terminal.ts), so that a `cd` or an `export` carries from
 *   one block to the next — and never into another document;
 * - `sh` blocks run with `bash -e` (an `npm install` of typed-permissions or typed-permissions-cli installs the
 *   tarballs); a block whose first line is `# needs: <reason>` (a server, this repository, a process that runs until
 *   stopped) is only syntax-checked;
 * - `console` blocks run each `$ ` command and show exactly its output (policy versions as `<version>`, durations as
 *   `in <ms> ms`); one whose first line is `# needs: <reason>` (a running example project) is run by that project's
 *   test (test/examples) against the started project;
 * - `ts` blocks type-check (strict, nodenext) with TypeScript 6 and with TypeScript 7, each as its own module, with
 *   the project's definitions compiled into ./generated and the `<!-- context: … -->` comment before a fragment
 *   prepended;
 * - `json` blocks parse;
 * - a block marked `<!-- example: examples/<project>/<file> -->` is that file of a project under examples/, whole and
 *   exact (the project's own test installs, builds, starts and asks it); it is not run or type-checked here.
 *
 * The project has the peers every guide uses installed once, at the versions this repository tests.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { repoRoot } from '../compiler/helpers.js';
import { NPM, ok, run, sharedPackedWorkspaces } from '../package/throwaway-project.js';
import { consoleSteps, docBlocks, shownOutput, userDocuments, type DocBlock } from './doc-blocks.js';
import { DocumentTerminal } from './doc-terminal.js';

/** The packages the guides use besides ours, at the versions this repository's package.json tests. */
const PEERS = [
  'typescript',
  '@types/node',
  'zod',
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  '@nestjs/graphql',
  '@nestjs/apollo',
  '@apollo/server',
  '@as-integrations/express5',
  'graphql',
  'express',
  '@types/express',
  'hono',
  '@hono/node-server',
  'kysely',
  'pg',
  'fastify',
  'fastify-plugin',
  '@fastify/rate-limit',
  '@fastify/swagger',
  'prom-client',
  '@opentelemetry/api',
  'reflect-metadata',
];
const TSCONFIG = {
  compilerOptions: {
    strict: true,
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    skipLibCheck: true,
    noEmit: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    types: ['node'],
  },
  include: ['doc-*.ts', 'generated/**/*.ts'],
};

const documents = userDocuments(repoRoot);
const allBlocks: DocBlock[] = documents.flatMap((file) => docBlocks(repoRoot, file));
/** The blocks checked here; those that quote an example project are checked against its files instead. */
const blocks = allBlocks.filter((block) => block.example === undefined);
const where = (block: DocBlock) => `${block.file}:${block.line}`;

/** The ts blocks, by the name of the file each is type-checked as in the project. */
const tsFiles = new Map<string, DocBlock>(
  blocks.filter((block) => block.lang === 'ts').map((block, i) => [`doc-${String(i).padStart(3, '0')}.ts`, block] as const),
);

let project = '';
/**
 * The compilers the ts blocks are type-checked with: the project's TypeScript 6 (as installed there at this
 * repository's version), and TypeScript 7, what `npm install typescript` installs (this repository's copy, run on the
 * project: it reads the project's node_modules for everything but its own lib files).
 */
const TYPESCRIPTS = [
  ['6', () => join(project, 'node_modules', 'typescript', 'bin', 'tsc')],
  ['7', () => join(repoRoot, 'node_modules', 'typescript-7', 'bin', 'tsc')],
] as const;
const tarballs = new Map<string, string>();

/** `code` with every `npm install` of our two packages pointed at the tarballs. */
function withTarballs(code: string): string {
  return code
    .split('\n')
    .map((line) =>
      /\bnpm (?:install|i|add)\b/.test(line)
        ? line
            .replace(/(^|\s)typed-permissions-cli(?:@\S+)?(?=\s|$)/g, (_, space: string) => `${space}${tarballs.get('typed-permissions-cli') ?? ''}`)
            .replace(/(^|\s)typed-permissions(?:@\S+)?(?=\s|$)/g, (_, space: string) => `${space}${tarballs.get('typed-permissions') ?? ''}`)
        : line,
    )
    .join('\n');
}

/** What is wrong with an sh block pasted into `terminal` (nothing when it runs), or with its syntax for a `# needs:` block. */
function pasteShell(terminal: DocumentTerminal, block: DocBlock): string[] {
  // A block that needs a server, this repository or a terminal of its own is not run; its syntax is checked.
  const result = /^# needs: /.test(block.code)
    ? run('bash', ['-n'], terminal.folder, block.code)
    : terminal.paste(withTarballs(block.code), { stopOnError: true });
  return result.status === 0 ? [] : [`${where(block)} (exit ${result.status}):\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-2000)}`];
}

/** Where a console block's commands, pasted into `terminal` one by one, print something other than what it shows. */
function pasteConsole(terminal: DocumentTerminal, block: DocBlock): string[] {
  // A block that needs a running example project is run by that project's test, against it.
  if (/^# needs: /.test(block.code)) return [];
  return consoleSteps(block.code).flatMap((step) => {
    const result = terminal.paste(step.command, { stopOnError: false });
    const printed = shownOutput(`${result.stdout}${result.stderr}`);
    return printed === step.output ? [] : [`${where(block)} $ ${step.command}\n--- shown\n${step.output}\n--- printed\n${printed}`];
  });
}

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'typed-permissions-docs-'));
  const { folder, packed } = await sharedPackedWorkspaces();
  for (const pack of packed) tarballs.set(pack.name, join(folder, pack.filename));
  const versions = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  ok(run(NPM, ['init', '-y'], project), 'npm init');
  ok(run(NPM, ['pkg', 'set', 'type=module'], project), 'npm pkg set');
  const peers = PEERS.map((name) => `${name}@${versions.devDependencies[name] ?? 'latest'}`);
  ok(run(NPM, ['install', ...tarballs.values(), ...peers], project), 'npm install');
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  cpSync(join(repoRoot, 'definitions'), join(project, 'definitions'), { recursive: true });
  ok(run(NPM, ['exec', '--', 'typed-permissions', 'compile'], project), 'typed-permissions compile');
  for (const [name, block] of tsFiles) {
    // `export {}` makes each block a module of its own even when it imports nothing.
    writeFileSync(join(project, name), `${block.context}\n${block.code}\nexport {};\n`);
  }
}, 600_000);

afterAll(() => {
  if (project !== '') rmSync(project, { recursive: true, force: true });
});

describe('the documentation’s code blocks', () => {
  it('are found: every user document has some, and every block is of a language the check knows', () => {
    expect(documents.length).toBeGreaterThan(5);
    const unknown = blocks.filter((block) => !['sh', 'ts', 'console', 'json', 'text', 'graphql', 'http'].includes(block.lang)).map(where);
    expect(unknown).toEqual([]);
  });

  it('blocks that quote an example project are its files, exactly', () => {
    const differences = allBlocks
      .filter((block) => block.example !== undefined)
      .flatMap((block) => {
        const path = join(repoRoot, block.example as string);
        const file = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
        return file?.trimEnd() === block.code.trimEnd()
          ? []
          : [`${where(block)} quotes ${block.example} ${file === undefined ? '(no such file)' : 'inexactly'}`];
      });
    expect(differences).toEqual([]);
  });

  it('json blocks parse', () => {
    const broken = blocks
      .filter((block) => block.lang === 'json')
      .flatMap((block) => {
        try {
          JSON.parse(block.code);
          return [];
        } catch (error) {
          return [`${where(block)}: ${(error as Error).message}`];
        }
      });
    expect(broken).toEqual([]);
  });

  // A reader pastes a document's blocks one after another into one terminal: each document gets a terminal of its
  // own, which starts in the project folder and keeps its folder and exported variables from block to block.
  it.each(documents)(
    '%s: its sh and console blocks, pasted in order into one terminal, run and print exactly what they show',
    (document) => {
      const problems: string[] = [];
      const terminal = new DocumentTerminal(project);
      try {
        for (const block of blocks.filter((candidate) => candidate.file === document)) {
          if (block.lang === 'sh') problems.push(...pasteShell(terminal, block));
          if (block.lang === 'console') problems.push(...pasteConsole(terminal, block));
        }
      } finally {
        terminal.close();
      }
      expect(problems).toEqual([]);
    },
    900_000,
  );

  it.each(TYPESCRIPTS)(
    'ts blocks type-check against the installed packages with TypeScript %s',
    (major, tsc) => {
      expect(ok(run(process.execPath, [tsc(), '--version'], project))).toMatch(new RegExp(`^Version ${major}\\.`));
      const result = run(process.execPath, [tsc(), '-p', '.'], project);
      const errors = `${result.stdout}${result.stderr}`
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => {
          const [, name, row, rest] = /^(doc-\d{3}\.ts)\((\d+),\d+\): (.*)$/.exec(line) ?? [];
          const block = tsFiles.get(name ?? '');
          // The block's first line is after the fence and the context line.
          return block === undefined ? line : `${block.file}:${block.line + Number(row) - 1}: ${rest}`;
        });
      expect({ errors, exit: result.status }).toEqual({ errors: [], exit: 0 });
    },
    300_000,
  );
});
