/**
 * A tenant's custom roles read from a file, as `tenant publish` and `explain --tenant-roles` read them: strict JSON
 * with where each value stands (keys written twice refused), bounded in size, and the policy's problems with the
 * document placed at their line and column in it.
 */
import { MAX_TENANT_ROLES_BYTES, PermissionDefinitionError, PermissionsUsageError, regularFileText } from 'typed-permissions/internal';
import { basename } from 'node:path';
import type { CompileProblem } from '../problems/compile-problem.js';
import { readJsonText } from '../reading/read-json-file.js';
import { positionOf, type Positions } from '../reading/value-positions.js';

/** A roles file may be pretty-printed: its text may be this many times the document's limit. */
const FILE_TEXT_FACTOR = 4;

/**
 * The text of a file the command was given; a missing or unreadable file is a refusal naming it.
 *
 * @example
 * ```ts
 * const text = await commandFileText('generated/policy.json', 'the policy bundle', 64 * 1024 * 1024);
 * ```
 */
export async function commandFileText(path: string, subject: string, maxBytes: number): Promise<string> {
  try {
    return await regularFileText(path, { subject: `${subject} ${path}`, maxBytes, instead: 'give the path of a regular file' });
  } catch (error) {
    if (error instanceof PermissionsUsageError) throw error;
    throw new PermissionsUsageError(`cannot read ${subject} ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
}

/** A roles file read: its value and where each value stands, or the problems of its JSON. */
export type TenantRolesFile =
  | { readonly value: unknown; readonly positions: Positions; readonly problems: readonly [] }
  | { readonly value: undefined; readonly positions: undefined; readonly problems: readonly CompileProblem[] };

/**
 * Reads the custom roles of a file (named in problems by its base name).
 *
 * @example
 * ```ts
 * const { value, positions, problems } = await readTenantRolesFile('tenant-roles/acme.json');
 * ```
 */
export async function readTenantRolesFile(file: string): Promise<TenantRolesFile> {
  const text = await commandFileText(file, 'the roles file', FILE_TEXT_FACTOR * MAX_TENANT_ROLES_BYTES);
  const { read, problems } = readJsonText(basename(file), text);
  if (read === undefined || problems.length > 0) return { value: undefined, positions: undefined, problems };
  return { value: read.value, positions: read.positions, problems: [] };
}

/**
 * The problems of a document the policy refused, placed in its file as the compiler places a definition's.
 *
 * @example
 * ```ts
 * for (const problem of placedProblems(error, 'acme.json', positions)) io.error(formatCompileProblem(problem, dir));
 * ```
 */
export function placedProblems(error: PermissionDefinitionError, file: string, positions: Positions): CompileProblem[] {
  return error.problems.map((problem) => {
    const path = problem.index === -1 ? [...problem.path] : ['definitions', problem.index, ...problem.path];
    return { file, ...(positionOf(positions, path) ?? {}), path, code: problem.code, message: problem.message, fix: problem.fix };
  });
}
