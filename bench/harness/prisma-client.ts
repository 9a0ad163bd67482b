/**
 * A Prisma client generated for a schema, as an application generates its own: `prisma generate` (Prisma 7, the
 * Rust-free client; the schema engine, which generating does not run, is never downloaded) into a folder the caller
 * owns and removes. The ownership adapter tests and the list-filter benchmark each generate one for their tables.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './repository.js';

/** How long `prisma generate` may take (about 8 seconds here). */
const GENERATE_TIMEOUT_MS = 120_000;

/**
 * Writes `schema` (whose generator outputs to `./client`) into `folder`, generates the client there and returns the
 * generated module's `PrismaClient` class, typed as the caller says it is.
 *
 * @example
 * ```ts
 * const PrismaClient = await generatePrismaClient<MyClientClass>(SCHEMA, join(dir, 'prisma'));
 * const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString }) });
 * ```
 */
export async function generatePrismaClient<TClientClass>(schema: string, folder: string): Promise<TClientClass> {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'schema.prisma'), schema);
  const generated = spawnSync(
    process.execPath,
    [join(REPO_ROOT, 'node_modules', 'prisma', 'build', 'index.js'), 'generate', '--schema', join(folder, 'schema.prisma')],
    {
      cwd: folder,
      encoding: 'utf8',
      timeout: GENERATE_TIMEOUT_MS,
      // Generating runs no engine; Prisma only checks that this names a file instead of downloading one.
      env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' },
    },
  );
  if (generated.status !== 0) throw new Error(`prisma generate failed (${String(generated.status)}): ${generated.stdout}${generated.stderr}`);
  const module = (await import(pathToFileURL(join(folder, 'client', 'client.ts')).href)) as { PrismaClient: TClientClass };
  return module.PrismaClient;
}
