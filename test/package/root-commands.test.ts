/**
 * After `npm ci` in a clone, the commands the README and the guides name work at the repository's root, as on CI
 * (which always starts from `npm ci`): `npx typed-permissions …` and `npm run serve:example` find the runtime's
 * command (the root `prepare` script builds both packages and then links their commands, which npm skipped while
 * their dist/ folders did not exist yet); `npm start`'s example app, built into the root's dist/, loads the
 * runtime's own dependencies; and `tsc` is the TypeScript 6 the repository's tooling needs, with TypeScript 7 beside
 * it under its own name.
 *
 * A real fresh clone plus `npm ci` takes two minutes and more on a 2-core machine, too slow for the suite; these
 * are the facts such a clone depends on, checked on this checkout's `npm ci`.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { repoRoot } from '../compiler/helpers.js';
import { NPM, ok, run, sharedPackedWorkspaces, userEnvironment } from './throwaway-project.js';

const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);
/** How to repair a checkout whose node_modules predate the root's prepare script or were changed by hand. */
const REPAIR = 'run `npm ci` at the repository root';

describe('the repository root after npm ci', () => {
  // Packing the run's tarballs rebuilds both packages' dist/ folders, which these commands run from: wait for this
  // run's packing (or do it, once for the run), so that no command starts while dist/ is being made again.
  beforeAll(() => sharedPackedWorkspaces(), 330_000);

  it('links the commands of both packages to their built files', () => {
    const links = ['typed-permissions', 'typed-permissions-cli'].map((name) =>
      existsSync(bin(name)) ? realpathSync(bin(name)) : `no ${bin(name)}: ${REPAIR}`,
    );
    expect(links).toEqual([join(repoRoot, 'runtime', 'dist', 'cli', 'command.js'), join(repoRoot, 'compiler', 'dist', 'bin.js')]);
  });

  it('npx typed-permissions explains a decision of the example policy', () => {
    const explained = run(
      NPM,
      ['exec', '--no', '--', 'typed-permissions', 'explain', '--roles', 'EMPLOYEE', '--resource', 'document', '--action', 'read'],
      repoRoot,
    );
    expect({ status: explained.status, stdout: explained.stdout, stderr: explained.stderr }).toEqual({
      status: 0,
      stdout:
        'read on document for roles EMPLOYEE: GRANTED\n' +
        '  - EMPLOYEE: own (when rule creator says so), attributes * !confidential\n' +
        '      from document.permissions.json #0 ("An employee creates documents, and reads and lists the ones they created; other documents ' +
        'they list by title and date only.") as own\n',
      stderr: '',
    });
  }, 60_000);

  it('the command npm run serve:example starts serves the example policy and answers a check', async () => {
    // serve:example's command, on any free port (the script also regenerates and rebuilds, which would race the other test files).
    const child = spawn(
      bin('typed-permissions'),
      ['serve', '--policy', 'generated/policy.json', '--port', '0', '--token', 'example-service-token-0123456789'],
      {
        cwd: repoRoot,
        env: userEnvironment(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    // A command that cannot start (no link) emits error instead of exit.
    const exited = new Promise<number | string | null>((resolve) => {
      child.once('exit', resolve);
      child.once('error', (error) => resolve(error.message));
    });
    try {
      let output = '';
      const address = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`not listening after 30 s:\n${output}`)), 30_000);
        const read = (chunk: Buffer) => {
          output += chunk.toString('utf8');
          const listening = /listening on (http:\/\/\S+)/.exec(output);
          if (listening !== null) {
            clearTimeout(timer);
            resolve(listening[1] as string);
          }
        };
        child.stdout.on('data', read);
        child.stderr.on('data', read);
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`exited with ${code}:\n${output}`));
        });
      });
      const response = await fetch(`${address}/v1/check`, {
        method: 'POST',
        headers: { authorization: 'Bearer example-service-token-0123456789', 'content-type': 'application/json' },
        body: JSON.stringify({ checks: [{ user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'read', resourceId: 10, ownedBy: [0] }] }),
        signal: AbortSignal.timeout(10_000),
      });
      const { answers } = (await response.json()) as { answers: { granted: boolean; attributes: string[] }[] };
      expect({ status: response.status, granted: answers[0]?.granted, attributes: answers[0]?.attributes }).toEqual({
        status: 200,
        granted: true,
        attributes: ['*', '!confidential'],
      });
    } finally {
      child.kill('SIGTERM');
      let bound: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (bound = setTimeout(resolve, 10_000)))]);
      clearTimeout(bound);
    }
  }, 60_000);

  it('the example app built into dist/ loads the same version of each of the runtime’s dependencies as the runtime does', () => {
    const runtime = JSON.parse(readFileSync(join(repoRoot, 'runtime', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    // The example app's build puts the runtime's sources under dist/runtime/, where Node resolves packages from the
    // root's node_modules; the packed runtime resolves them from its own.
    const versionFrom = (folder: string, name: string): string => {
      // Node's lookup: node_modules/<name> in the folder, then in each parent.
      for (let at = folder; ; at = dirname(at)) {
        const manifest = join(at, 'node_modules', name, 'package.json');
        if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
        if (dirname(at) === at) return `not installed (${REPAIR})`;
      }
    };
    const names = Object.keys(runtime.dependencies).sort();
    expect(names.length).toBeGreaterThan(0);
    expect(names.map((name) => `${name}@${versionFrom(repoRoot, name)}`)).toEqual(
      names.map((name) => `${name}@${versionFrom(join(repoRoot, 'runtime'), name)}`),
    );
  });

  it('tsc is TypeScript 6, for the tooling, and TypeScript 7 is there as typescript-7', () => {
    const version = (tsc: string) => ok(run(process.execPath, [tsc, '--version'], repoRoot)).trim();
    // Installing typescript-7 on its own (npm install, not npm ci) can point the shared tsc command at it: then run npm ci.
    expect(version(bin('tsc'))).toMatch(/^Version 6\./);
    expect(version(join(repoRoot, 'node_modules', 'typescript-7', 'bin', 'tsc'))).toMatch(/^Version 7\./);
  }, 30_000);
});
