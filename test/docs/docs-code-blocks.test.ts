/**
 * Every code block a user reads works as shown, against the packed tarballs, in a throwaway project outside
 * this repository (README.md and docs/*.md):
 *
 * - `sh` blocks run with bash, in document order, in the project (whose `npm install` of typed-permissions and
 *   typed-permissions-cli installs the tarballs); a block whose first line is `# needs: <reason>` (a server, this
 *   repository, a process that runs until stopped) is only syntax-checked;
 * - `ts` blocks type-check (strict, nodenext), each as its own module, with the project's definitions compiled
 *   into ./generated and the `<!-- context: … -->` comment before a fragment prepended;
 * - `console` blocks run each `$ ` command and show exactly its output (policy versions as `<version>`); one whose
 *   first line is `# needs: <reason>` (a running example project) is run by that project's test (test/examples);
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
  'kysely',
  'pg',
  'fastify',
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

let project = '';
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

  it('sh blocks run as pasted, in document order (those that need a server or this repository are syntax-checked)', () => {
    const failures: string[] = [];
    for (const block of blocks.filter((candidate) => candidate.lang === 'sh')) {
      const needs = /^# needs: /.test(block.code);
      const result = needs ? run('bash', ['-n'], project, block.code) : run('bash', ['-e'], project, withTarballs(block.code));
      if (result.status !== 0) failures.push(`${where(block)} (exit ${result.status}):\n${result.stdout.slice(-2000)}\n${result.stderr.slice(-2000)}`);
    }
    expect(failures).toEqual([]);
  }, 900_000);

  it('console blocks show exactly what their commands print', () => {
    const differences: string[] = [];
    for (const block of blocks.filter((candidate) => candidate.lang === 'console' && !/^# needs: /.test(candidate.code))) {
      for (const step of consoleSteps(block.code)) {
        const result = run('bash', ['-c', step.command], project);
        const printed = shownOutput(`${result.stdout}${result.stderr}`);
        if (printed !== step.output) differences.push(`${where(block)} $ ${step.command}\n--- shown\n${step.output}\n--- printed\n${printed}`);
      }
    }
    expect(differences).toEqual([]);
  }, 300_000);

  it('ts blocks type-check against the installed packages', () => {
    const files = new Map<string, DocBlock>();
    blocks
      .filter((block) => block.lang === 'ts')
      .forEach((block, i) => {
        const name = `doc-${String(i).padStart(3, '0')}.ts`;
        files.set(name, block);
        // `export {}` makes each block a module of its own even when it imports nothing.
        writeFileSync(join(project, name), `${block.context}\n${block.code}\nexport {};\n`);
      });
    const result = run(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], project);
    const errors = `${result.stdout}${result.stderr}`
      .split('\n')
      .filter((line) => /^doc-\d{3}\.ts\(\d+,\d+\)/.test(line))
      .map((line) => {
        const [, name, row, rest] = /^(doc-\d{3}\.ts)\((\d+),\d+\): (.*)$/.exec(line) ?? [];
        const block = files.get(name ?? '') as DocBlock;
        // The block's first line is after the fence and the context line.
        return `${block.file}:${block.line + Number(row) - 1}: ${rest}`;
      });
    expect({ errors, exit: errors.length === 0 ? result.status : 'failed' }).toEqual({ errors: [], exit: 0 });
  }, 300_000);
});
