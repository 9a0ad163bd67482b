/**
 * A Prisma client generated for the test tables, as an application generates its own (the bench's
 * `generatePrismaClient`), into a folder of the run under test/.tmp-*, removed after. Every client runs on a driver adapter of the test databases.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { generatePrismaClient as generateClient } from '../../bench/harness/prisma-client.js';
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
  return { PrismaClient: await generateClient<PrismaClientClass>(SCHEMA, folder), folder };
}

export function removePrismaClient(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
}
