/**
 * The typed errors of typed-permissions. Every error carries a stable `code` so that callers can
 * branch on it without parsing messages; messages say what is wrong, where, and how to fix it.
 */

/** Stable codes of the errors thrown by the library. */
export type PermissionsErrorCode =
  | 'PERMISSION_DEFINITION_INVALID'
  | 'PERMISSIONS_USAGE'
  | 'PERMISSIONS_HOOK_FAILED'
  | 'PERMISSIONS_INVALID_ID'
  | 'PERMISSIONS_SERVICE_UNAVAILABLE'
  | 'PERMISSIONS_TENANT_ROLES_UNAVAILABLE';

/**
 * Base class of every error the library throws on purpose.
 *
 * @example
 * ```ts
 * try { permissions.build(); } catch (error) {
 *   if (error instanceof PermissionsError) console.error(error.code, error.message);
 * }
 * ```
 */
export class PermissionsError extends Error {
  constructor(
    readonly code: PermissionsErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Where a definition came from: its position in the array given to `addPermissions`, and that array's source label (a file name, a guard) when known. */
export interface DefinitionLocation {
  /** Index of the definition in the array it was added with; -1 for a problem of a definitions file as a whole (see `parseDefinitionsJson`). */
  readonly index: number;
  /** A label of the array (for example `definitions/document.permissions.json`), when the caller gave one. */
  readonly source?: string | undefined;
}

/** Stable codes of the individual problems a {@link PermissionDefinitionError} lists. */
export type DefinitionProblemCode =
  | 'invalid-shape'
  | 'empty-grant'
  | 'bad-possession'
  | 'bad-action'
  | 'bad-attribute'
  | 'own-without-is-owner'
  | 'own-without-list-or-limit'
  | 'both-list-and-limit'
  | 'hooks-incomplete'
  | 'unknown-hook-method'
  | 'owner-with-hooks'
  | 'owner-on-every-resource'
  | 'unknown-ownership-rule'
  | 'conflicting-redefinition'
  | 'unknown-attribute'
  | 'unknown-action'
  | 'unknown-resource'
  | 'syntax-error'
  | 'invalid-file'
  | 'too-large'
  | 'tenant-role';

/** One problem found in one definition. */
export interface DefinitionProblem extends DefinitionLocation {
  readonly code: DefinitionProblemCode;
  /** Path inside the definition, for example `['grant', 2]`. Empty for the definition as a whole. */
  readonly path: readonly (string | number)[];
  /** What is wrong. */
  readonly message: string;
  /** How to fix it. */
  readonly fix: string;
}

/**
 * Formats a location and path as `definitions[2].grant[1] (document.permissions.json)`, or
 * `$.rules (document.permissions.json)` for a problem of the file as a whole (index -1).
 */
export function formatProblemLocation(problem: Pick<DefinitionProblem, 'index' | 'source' | 'path'>): string {
  let where = problem.index === -1 ? '$' : `definitions[${problem.index}]`;
  for (const segment of problem.path) {
    where += typeof segment === 'number' ? `[${segment}]` : /^[A-Za-z_$][\w$]*$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
  }
  return problem.source === undefined ? where : `${where} (${problem.source})`;
}

/**
 * Thrown by `build()` (and the compiler) when definitions are invalid. It lists **every** problem,
 * not just the first, so one run is enough to fix a file.
 *
 * @example
 * ```ts
 * try { permissions.build(); } catch (error) {
 *   if (error instanceof PermissionDefinitionError) for (const p of error.problems) console.error(p.code, p.message);
 * }
 * ```
 */
export class PermissionDefinitionError extends PermissionsError {
  readonly problems: readonly DefinitionProblem[];

  constructor(problems: readonly DefinitionProblem[]) {
    const lines = problems.map((p) => `  - ${formatProblemLocation(p)}: ${p.message} Fix: ${p.fix}`);
    super(
      'PERMISSION_DEFINITION_INVALID',
      `Invalid permission definitions (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${lines.join('\n')}`,
    );
    this.problems = problems;
  }
}

/**
 * Thrown when the library is used the wrong way: `grantPermit` before `build()`, an invalid user,
 * `listOwn()` without a listOwned hook, and so on.
 *
 * @example
 * ```ts
 * await expect(permissions.grantPermit(query)).rejects.toBeInstanceOf(PermissionsUsageError);
 * ```
 */
export class PermissionsUsageError extends PermissionsError {
  constructor(message: string) {
    super('PERMISSIONS_USAGE', message);
  }
}

/**
 * Thrown when an ownership hook throws, rejects, times out or returns a value of the wrong type.
 * A failed hook never grants anything.
 *
 * @example
 * ```ts
 * await expect(permit.isOwn(3)).rejects.toBeInstanceOf(PermissionsHookError);
 * ```
 */
export class PermissionsHookError extends PermissionsError {
  constructor(
    readonly hook: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('PERMISSIONS_HOOK_FAILED', message, options);
  }
}

/**
 * Thrown when a resource id is not an id of its resource (`"01"` or `"abc"` where ids are numbers, an
 * empty or over-long string, `NaN`): bad input, which the integrations answer with 400 (GraphQL
 * `BAD_USER_INPUT`) before any check runs, never with 403 or 500. A kind of {@link PermissionsUsageError}
 * (a grant query with such an id is a wrong query), with its own code.
 *
 * @example
 * ```ts
 * await expect(permissions.grantPermit({ user, resource: 'document', action: 'read', resourceId: '1e1' })).rejects.toBeInstanceOf(PermissionsInvalidIdError);
 * ```
 */
export class PermissionsInvalidIdError extends PermissionsUsageError {
  override readonly code: PermissionsErrorCode = 'PERMISSIONS_INVALID_ID';

  constructor(
    /** The resource the id was given for. */
    readonly resource: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A tenant's custom roles could not be read: its questions are refused (rejected) until the source answers. An
 * integration answers 503.
 *
 * @example
 * ```ts
 * permissions.grantPermit(query).catch((error) => {
 *   if (error instanceof PermissionsTenantRolesError) return reply.status(503).send({ tenant: error.tenant });
 * });
 * ```
 */
export class PermissionsTenantRolesError extends PermissionsError {
  constructor(
    readonly tenant: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('PERMISSIONS_TENANT_ROLES_UNAVAILABLE', message, options);
  }
}
