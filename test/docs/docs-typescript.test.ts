/**
 * Every `ts` block of the user documentation (README.md and docs/*.md) type-checks (strict, nodenext) against the
 * packed tarballs installed in a throwaway project (test/docs/docs-project.ts), with TypeScript 6 and with
 * TypeScript 7: each block as a module of its own, with the project's definitions compiled into ./generated and the
 * `<!-- context: … -->` comment before a fragment prepended. All blocks are one program per compiler. A block marked
 * `<!-- example: … -->` is checked against the example project's file instead (docs-code-blocks.test.ts).
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { repoRoot } from '../compiler/helpers.js';
import { ok, run } from '../package/throwaway-project.js';
import { docBlocks, userDocuments, type DocBlock } from './doc-blocks.js';
import { copyOfDocsProject, sharedDocsProject } from './docs-project.js';

/** The ts blocks, by the name of the file each is type-checked as in the project. */
const tsFiles = new Map<string, DocBlock>(
  userDocuments(repoRoot)
    .flatMap((file) => docBlocks(repoRoot, file))
    .filter((block) => block.example === undefined && block.lang === 'ts')
    .map((block, i) => [`doc-${String(i).padStart(3, '0')}.ts`, block] as const),
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

beforeAll(async () => {
  // Packing (at most 5 minutes) and installing the project (at most 400 s), by this suite or another one.
  project = copyOfDocsProject(await sharedDocsProject());
  for (const [name, block] of tsFiles) {
    // `export {}` makes each block a module of its own even when it imports nothing.
    writeFileSync(join(project, name), `${block.context}\n${block.code}\nexport {};\n`);
  }
}, 720_000);

afterAll(() => {
  if (project !== '') rmSync(project, { recursive: true, force: true });
});

describe('the documentation’s ts blocks', () => {
  it('are found', () => {
    expect(tsFiles.size).toBeGreaterThan(10);
  });

  it.each(TYPESCRIPTS)(
    'type-check against the installed packages with TypeScript %s',
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
