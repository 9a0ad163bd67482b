/**
 * What the packed tarballs hold (`npm pack --workspaces`, as a release packs them: prepack builds them): only what
 * users need, every entry point, declarations that import no @types a user does not use; and publint and
 * arethetypeswrong find nothing wrong. packed-install.test.ts installs them.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../compiler/helpers.js';
import { ok, run, sharedPackedWorkspaces, tarballPath, type Packed } from './throwaway-project.js';

describe('the packed tarballs', () => {
  let packs = '';
  let packed: Packed[] = [];
  const tarball = (name: string) => tarballPath(packed, packs, name);

  beforeAll(async () => {
    ({ folder: packs, packed } = await sharedPackedWorkspaces());
  }, 330_000);

  it('npm pack builds both packages and ships only what users need', () => {
    expect(packed.map((pack) => pack.name).sort()).toEqual(['typed-permissions', 'typed-permissions-cli']);
    for (const pack of packed) {
      const paths = pack.files.map((file) => file.path);
      expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md']));
      const others = paths.filter((path) => !['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'].includes(path));
      // Compiled JavaScript and declarations only: no source maps (their sources are not shipped), no sources, tests,
      // benchmarks, example app or definitions.
      expect(others.filter((path) => !/^dist\/.+\.(js|d\.ts)$/.test(path))).toEqual([]);
      expect(others.filter((path) => /(^|\/)(examples?|tests?|__tests__|bench|definitions)\/|\.(test|spec|bench)\./.test(path))).toEqual([]);
    }
    // Declarations need no @types the user does not use: the express entry declares the few express types it reads.
    const declarations = readdirSync(join(repoRoot, 'runtime', 'dist'), { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.d.ts'));
    const typeImports = declarations.flatMap((path) =>
      [
        ...readFileSync(join(repoRoot, 'runtime', 'dist', path), 'utf8').matchAll(
          /^(?:import|export)\b[^\n]*? from '([^.'][^']*)'|import\(["']([^."'][^"']*)["']\)/gm,
        ),
      ].map((match) => match[1] ?? match[2]),
    );
    // The ORM adapters' declarations import their ORM's types: an application using an adapter has its ORM installed.
    expect([...new Set(typeImports)].sort()).toEqual([
      '@nestjs/common',
      '@nestjs/core',
      'drizzle-orm',
      'drizzle-orm/pg-core',
      'fastify',
      'hono',
      'kysely',
      'prom-client',
      'zod',
    ]);
    const runtimeFiles = (packed.find((pack) => pack.name === 'typed-permissions') as Packed).files.map((file) => file.path);
    for (const entry of [
      'dist/permissions/index.js',
      'dist/permissions/precompiled.js',
      'dist/integration/index.js',
      'dist/nest/index.js',
      'dist/express/index.js',
      'dist/fastify/index.js',
      'dist/hono/index.js',
      'dist/client/index.js',
      'dist/live/index.js',
      'dist/remote/index.js',
      'dist/ownership/index.js',
      'dist/kysely/index.js',
      'dist/drizzle/index.js',
      'dist/prisma/index.js',
      'dist/service/index.js',
      'dist/cli/command.js',
    ]) {
      expect(runtimeFiles).toContain(entry);
    }
  });

  it("ships the runtime's JavaScript in ASCII only, so that V8 holds it, and a bundle of it with generated tables, as one-byte text", () => {
    const scripts = (packed.find((pack) => pack.name === 'typed-permissions') as Packed).files.filter((file) => file.path.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(20);
    const wide = scripts.filter((file) => /[\u0080-\uffff]/.test(readFileSync(join(repoRoot, 'runtime', file.path), 'utf8'))).map((file) => file.path);
    expect(wide).toEqual([]);
  });

  it('publint and arethetypeswrong are clean on both tarballs', () => {
    for (const pack of packed) {
      expect(ok(run(process.execPath, [join(repoRoot, 'node_modules/publint/src/cli.js'), 'run', tarball(pack.name), '--strict'], repoRoot))).toContain(
        'All good!',
      );
      // require(esm) works from Node 20.19 on (engines), and TypeScript's nodenext models it; attw does not know it
      // yet (arethetypeswrong#252), hence the one ignored rule. node10 resolution predates exports and is not supported.
      const attw = run(
        process.execPath,
        [
          join(repoRoot, 'node_modules/@arethetypeswrong/cli/dist/index.js'),
          tarball(pack.name),
          '--profile',
          'node16',
          '--ignore-rules',
          'cjs-resolves-to-esm',
          '--format',
          'ascii',
        ],
        repoRoot,
      );
      // attw exits 1 on any problem that is not ignored.
      expect({ status: attw.status, stderr: attw.stderr }).toEqual({ status: 0, stderr: '' });
    }
  });
});
