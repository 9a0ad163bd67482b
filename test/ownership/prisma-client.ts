/**
 * A Prisma client generated for the test tables, as an application generates its own: `prisma generate` (Prisma 7,
 * the Rust-free client; the schema engine, which generating does not run, is never downloaded) into a folder of the
 * run under test/.tmp-*, removed after. Every client runs on a driver adapter of the test databases.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../compiler/helpers.js';

const SCHEMA = `
generator client {
  provider = "prisma-client"
  output   = "./client"
}

datasource db {
  provider = "postgresql"
}

model User {
  id        Int        @id
  companyId Int?
  managerId Int?
  team      String?
  flag      Boolean?
  manager   User?      @relation("manager", fields: [managerId], references: [id])
  managed   User[]     @relation("manager")
  documents Document[]

  @@map("users")
}

model Document {
  id        Int      @id
  creatorId Int?
  status    String?
  personal  Boolean?
  creator   User?    @relation(fields: [creatorId], references: [id])

  @@map("documents")
}
`;

/** A query Prisma ran: its SQL and parameters (JSON text, as Prisma's log gives them). */
export interface PrismaQuery {
  readonly query: string;
  readonly params: string;
}

/** What the tests use of the generated client. */
export interface TestPrismaClient {
  readonly document: { findMany(args: object): Promise<readonly { readonly id: number }[]> };
  readonly user: object;
  $on(event: 'query', listener: (event: PrismaQuery) => void): void;
  $disconnect(): Promise<void>;
}

type PrismaClientClass = new (options: { adapter: unknown; log: readonly { emit: 'event'; level: 'query' }[] }) => TestPrismaClient;

/** Generates the client (about 8 seconds) and returns its class and the folder to remove. */
export async function generatePrismaClient(): Promise<{ readonly PrismaClient: PrismaClientClass; readonly folder: string }> {
  const folder = join(repoRoot, 'test', `.tmp-prisma-${process.pid}`);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'schema.prisma'), SCHEMA);
  const generated = spawnSync(
    process.execPath,
    [join(repoRoot, 'node_modules', 'prisma', 'build', 'index.js'), 'generate', '--schema', join(folder, 'schema.prisma')],
    {
      cwd: folder,
      encoding: 'utf8',
      timeout: 120_000,
      // Generating runs no engine; Prisma only checks that this names a file instead of downloading one.
      env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' },
    },
  );
  if (generated.status !== 0) throw new Error(`prisma generate failed (${String(generated.status)}): ${generated.stdout}${generated.stderr}`);
  const module = (await import(pathToFileURL(join(folder, 'client', 'client.ts')).href)) as { PrismaClient: PrismaClientClass };
  return { PrismaClient: module.PrismaClient, folder };
}

export function removePrismaClient(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
}
