/**
 * `typed-permissions explain [definitionsDir] --roles <A,B> --resource <name> --action <name> [--tenant <id>
 * [--tenant-roles <file>]] [--json]`: which definitions grant (or would grant) an action to a set of roles, read from
 * the tables a compile would write — in a tenant, with that tenant's custom roles beside them.
 */
import { basename, dirname } from 'node:path';
import {
  checkTenantId,
  checkTenantRoles,
  explainGrantIn,
  formatExplanation,
  PermissionDefinitionError,
  PermissionsUsageError,
  type GrantTables,
} from 'typed-permissions/internal';
import { compileModel } from '../model/compile-model.js';
import { formatCompileProblem } from '../problems/compile-problem.js';
import { definitionsFolder, parseCommandLine, UsageError, type Command, type CommandOutput } from './command-line.js';
import { placedProblems, readTenantRolesFile } from './tenant-roles-file.js';
import { problemReport } from '../problems/problem-cap.js';

/** The custom roles of `--tenant-roles`, checked against `tables`; undefined (each problem printed) when refused. */
async function tenantRolesOf(tables: GrantTables, tenant: string, file: string, io: CommandOutput): Promise<GrantTables | undefined> {
  const read = await readTenantRolesFile(file);
  let problems = read.problems;
  if (read.value !== undefined) {
    try {
      return checkTenantRoles(tables, tenant, read.value, basename(file)).tables;
    } catch (error) {
      if (!(error instanceof PermissionDefinitionError)) throw error;
      problems = placedProblems(error, basename(file), read.positions);
    }
  }
  for (const problem of problems) io.error(formatCompileProblem(problem, dirname(file)));
  return undefined;
}

/**
 * Runs `explain`.
 *
 * @example
 * ```ts
 * await explainCommand(['definitions', '--roles', 'EMPLOYEE', '--resource', 'document', '--action', 'read'], io); // 0
 * ```
 */
export const explainCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandLine(argv, {
    roles: { type: 'string' },
    role: { type: 'string', multiple: true },
    resource: { type: 'string' },
    action: { type: 'string' },
    json: { type: 'boolean' },
    tenant: { type: 'string' },
    'tenant-roles': { type: 'string' },
    out: { type: 'string' },
    check: { type: 'boolean' },
    watch: { type: 'boolean' },
  });
  const misplaced = (['out', 'check', 'watch'] as const).filter((flag) => values[flag] !== undefined);
  if (misplaced.length > 0) throw new UsageError(`explain does not take --${misplaced.join(', --')}.`);
  if ((values.roles === undefined && values.role === undefined) || values.resource === undefined || values.action === undefined)
    throw new UsageError('explain needs --roles (or --role), --resource and --action.');
  if (values['tenant-roles'] !== undefined && values.tenant === undefined) throw new UsageError('explain --tenant-roles <file> needs --tenant <id>.');
  let tenant: string | undefined;
  try {
    tenant = values.tenant === undefined ? undefined : checkTenantId(values.tenant, 'explain: --tenant');
  } catch (error) {
    if (error instanceof PermissionsUsageError) throw new UsageError(error.message);
    throw error;
  }
  const definitionsDir = definitionsFolder('explain', positionals);
  // `--roles A,B` for the usual names; `--role <name>`, once per role, for a name that holds a comma.
  const roles = [
    ...(values.roles ?? '')
      .split(',')
      .map((role) => role.trim())
      .filter((role) => role.length > 0),
    ...(values.role ?? []),
  ];
  const model = compileModel(definitionsDir);
  if (!model.ok) {
    for (const line of problemReport(model, definitionsDir)) io.error(line);
    return 1;
  }
  const { tables } = model.model;
  const file = values['tenant-roles'];
  const custom = tenant === undefined || file === undefined ? undefined : await tenantRolesOf(tables, tenant, file, io);
  if (file !== undefined && custom === undefined) return 1;
  const explanation = explainGrantIn(tables, tenant === undefined ? undefined : { id: tenant, tables: custom }, roles, values.resource, values.action);
  io.log(values.json === true ? JSON.stringify(explanation, null, 2) : formatExplanation(explanation));
  return 0;
};
