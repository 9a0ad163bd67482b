/** Removes the jest run's folder of packed tarballs (see test/global-setup.mjs). */
import { rmSync } from 'node:fs';
import process from 'node:process';

export default function globalTeardown() {
  const folder = process.env.TYPED_PERMISSIONS_TEST_PACKS;
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
}
