/**
 * Stops the background warm-up if it is still running (a run of a few suites may end before it), then removes the
 * jest run's folders of packed tarballs and database dumps (see test/global-setup.mjs).
 */
import { rmSync } from 'node:fs';
import process from 'node:process';

export default function globalTeardown() {
  const warmUp = globalThis.typedPermissionsWarmUp;
  if (warmUp !== undefined && warmUp.exitCode === null && warmUp.signalCode === null) {
    try {
      process.kill(-warmUp.pid, 'SIGKILL');
    } catch {
      // it ended meanwhile
    }
  }
  for (const folder of [process.env.TYPED_PERMISSIONS_TEST_PACKS, process.env.TYPED_PERMISSIONS_TEST_DATABASES]) {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  }
}
