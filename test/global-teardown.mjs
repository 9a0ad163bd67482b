/** Removes the jest run's folders of packed tarballs and database dumps (see test/global-setup.mjs). */
import { rmSync } from 'node:fs';
import process from 'node:process';

export default function globalTeardown() {
  for (const folder of [process.env.TYPED_PERMISSIONS_TEST_PACKS, process.env.TYPED_PERMISSIONS_TEST_DATABASES]) {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
  }
}
