/**
 * Small helpers shared by the core unit tests: a logger that collects warnings (so tests stay
 * quiet and can count them), and a way to read the problems of a failed build().
 */
import { jest } from '@jest/globals';
import { PermissionDefinitionError, Permissions, type PermissionDefinition, type PermissionsOptions, type User } from '../../runtime/permissions/index.js';

/** A logger whose warnings land in `warnings` instead of the console. */
export interface CollectingLogger {
  readonly warnings: string[];
  readonly logger: { warn: (message: string) => void };
}

/** Creates a {@link CollectingLogger}. */
export function collectingLogger(): CollectingLogger {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (message: string) => void warnings.push(String(message)) } };
}

/**
 * Builds `definitions` with a collecting logger; returns the built instance and its warnings. The
 * filter type is `unknown` rather than the default `any`, so what limitOwn() returns is not used unchecked.
 */
export function buildQuietly(
  definitions: readonly PermissionDefinition[],
  options: Omit<PermissionsOptions<User<unknown>, unknown>, 'logger'> = {},
): { permissions: Permissions<User<unknown>, unknown>; warnings: string[] } {
  const { warnings, logger } = collectingLogger();
  const permissions = new Permissions<User<unknown>, unknown>({ ...options, logger });
  permissions.addPermissions(definitions);
  permissions.build();
  return { permissions, warnings };
}

/** Runs `permissions.build()`, which must throw a PermissionDefinitionError, and returns that error. */
export function buildError(permissions: Permissions): PermissionDefinitionError {
  try {
    permissions.build();
  } catch (error) {
    if (error instanceof PermissionDefinitionError) return error;
    throw error;
  }
  throw new Error('build() was expected to throw a PermissionDefinitionError, but it succeeded');
}

/** The problems of a failed build, reduced to what tests compare exactly: code, index, source and path. */
export function problemSummary(error: PermissionDefinitionError): { code: string; index: number; source: string | undefined; path: (string | number)[] }[] {
  return error.problems.map((problem) => ({ code: problem.code, index: problem.index, source: problem.source, path: [...problem.path] }));
}

/** A document-like record used by the small synthetic tests. */
export interface TestDoc {
  readonly id: number;
  readonly title: string;
  readonly date: string;
  readonly body: string;
  readonly secret: string;
}

/** Creates {@link TestDoc} number `id`. */
export function testDoc(id: number): TestDoc {
  return { id, title: `title ${id}`, date: `2024-01-${String(((id - 1) % 28) + 1).padStart(2, '0')}`, body: `body ${id}`, secret: `secret ${id}` };
}

/** The arguments an isOwner hook receives. */
export type IsOwnerArgs = { user: User<unknown>; resourceId: unknown };

/** The arguments a listOwned or limitOwned hook receives. */
export type UserArgs = { user: User<unknown> };

/** A mock isOwner hook that owns exactly `ids`. */
export const isOwnerOf = (...ids: unknown[]) => jest.fn(({ resourceId }: IsOwnerArgs) => ids.includes(resourceId));
