/**
 * Once per jest run: a folder for the packed tarballs, which the package and documentation tests share
 * (test/package/throwaway-project.ts packs into it once), and one for the seeded example database's dump
 * (test/example/seeded-database.ts). Workers inherit the environment variables.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';

export default function globalSetup() {
  process.env.TYPED_PERMISSIONS_TEST_PACKS = mkdtempSync(join(tmpdir(), 'typed-permissions-packs-'));
  process.env.TYPED_PERMISSIONS_TEST_DATABASES = mkdtempSync(join(tmpdir(), 'typed-permissions-databases-'));
}
