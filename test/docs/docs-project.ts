/**
 * The throwaway project the documentation's code blocks run in, outside this repository: the packed tarballs and the
 * peers every guide uses installed at the versions this repository tests, and the repository's definitions compiled
 * into ./generated. It is installed once per jest run ({@link oncePerRun}); every document then runs in a copy of its
 * own, so that what one guide installs or writes never reaches another and the documentation suites can run on both
 * workers at once.
 */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../compiler/helpers.js';
import { oncePerRun } from '../package/once-per-run.js';
import { NPM, ok, run, sharedPackedWorkspaces } from '../package/throwaway-project.js';

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
  'drizzle-orm',
  'pg',
  'fastify',
  'fastify-plugin',
  '@fastify/rate-limit',
  '@fastify/swagger',
  'prom-client',
  '@opentelemetry/api',
  'reflect-metadata',
];

/** The project's tsconfig.json: the ts blocks are type-checked as `doc-*.ts` files next to it. */
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

/** How long a documentation suite waits for another one's install of the project at most. */
const INSTALL_WAIT_MS = 400_000;

/** The installed project of this run, and where each of our packages' tarball is. */
export interface DocsProject {
  readonly folder: string;
  readonly tarballs: Readonly<Record<string, string>>;
}

/** Installs the project into `folder`: npm init, the tarballs and the peers, tsconfig.json, the compiled definitions. */
function installDocsProject(folder: string, tarballs: Readonly<Record<string, string>>): DocsProject {
  mkdirSync(folder);
  const versions = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  ok(run(NPM, ['init', '-y'], folder), 'npm init');
  ok(run(NPM, ['pkg', 'set', 'type=module'], folder), 'npm pkg set');
  const peers = PEERS.map((name) => `${name}@${versions.devDependencies[name] ?? 'latest'}`);
  ok(run(NPM, ['install', ...Object.values(tarballs), ...peers], folder), 'npm install');
  writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  cpSync(join(repoRoot, 'definitions'), join(folder, 'definitions'), { recursive: true });
  ok(run(NPM, ['exec', '--', 'typed-permissions', 'compile'], folder), 'typed-permissions compile');
  return { folder, tarballs };
}

/**
 * The documentation's project of this jest run, installed by the first suite that asks (the others wait for it).
 * Never change it: run in a {@link copyOfDocsProject}.
 *
 * @example
 * ```ts
 * const { tarballs } = await sharedDocsProject();
 * tarballs['typed-permissions']; // '/tmp/typed-permissions-packs-…/typed-permissions-0.1.0.tgz'
 * ```
 */
export async function sharedDocsProject(): Promise<DocsProject> {
  const { folder, packed } = await sharedPackedWorkspaces();
  const tarballs = Object.fromEntries(packed.map((pack) => [pack.name, join(folder, pack.filename)]));
  return oncePerRun(folder, 'docs-project', () => installDocsProject(join(folder, 'docs-project'), tarballs), INSTALL_WAIT_MS);
}

/**
 * A new folder holding a copy of the documentation's project: its own files copied (`cp -a`), and node_modules as
 * hard links to the shared project's files (`cp -a --link`: a quarter of the time and none of the disk of a full
 * copy). npm never writes into an installed package's files — it adds, renames and removes them, which only changes
 * the copy's folders — but it rewrites its record of the tree, node_modules/.package-lock.json, in place: the copy
 * gets a file of its own there. Remove the copy when done.
 *
 * @example
 * ```ts
 * const project = copyOfDocsProject(await sharedDocsProject());
 * ```
 */
export function copyOfDocsProject({ folder }: DocsProject): string {
  const copy = mkdtempSync(join(tmpdir(), 'typed-permissions-docs-'));
  const ownFiles = readdirSync(folder).filter((name) => name !== 'node_modules');
  ok(run('cp', ['-a', ...ownFiles.map((name) => join(folder, name)), copy], folder), 'cp -a');
  ok(run('cp', ['-a', '--link', join(folder, 'node_modules'), copy], folder), 'cp -a --link');
  const treeRecord = join(copy, 'node_modules', '.package-lock.json');
  rmSync(treeRecord);
  copyFileSync(join(folder, 'node_modules', '.package-lock.json'), treeRecord);
  return copy;
}
