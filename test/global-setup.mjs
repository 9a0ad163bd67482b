/**
 * Once per jest run: a folder for the packed tarballs, which the package and documentation tests share
 * (test/package/throwaway-project.ts packs into it once), and one for the dumps of embedded databases
 * (test/example/test-databases.ts). Workers inherit the environment variables.
 *
 * When the test sequencer (test/longest-first-sequencer.mjs) has queued other suites before the ones that use the
 * packed tarballs, it names what those need in TYPED_PERMISSIONS_TEST_WARM_UP, and this starts
 * test/warm-up-shared-projects.ts in the background to make it meanwhile (test/global-teardown.mjs stops it if the
 * run ends first).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

export default function globalSetup(_globalConfig, projectConfig) {
  process.env.TYPED_PERMISSIONS_TEST_PACKS = mkdtempSync(join(tmpdir(), 'typed-permissions-packs-'));
  process.env.TYPED_PERMISSIONS_TEST_DATABASES = mkdtempSync(join(tmpdir(), 'typed-permissions-databases-'));
  const warmUp = process.env.TYPED_PERMISSIONS_TEST_WARM_UP;
  if (warmUp === undefined || warmUp === '') return;
  const script = fileURLToPath(new URL('./warm-up-shared-projects.ts', import.meta.url));
  // A process group of its own (detached), so that the teardown stops npm and tsc with it; jest does not wait for it.
  const child = spawn(process.execPath, ['--import', 'tsx', script, warmUp], {
    cwd: projectConfig.rootDir,
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: 'ignore',
    detached: true,
  });
  child.unref();
  globalThis.typedPermissionsWarmUp = child;
}
