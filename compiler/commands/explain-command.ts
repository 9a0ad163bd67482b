/**
 * `typed-permissions explain [definitionsDir] --roles <A,B> --resource <name> --action <name> [--json]`: which
 * definitions grant (or would grant) an action to a set of roles, read from the tables a compile would write.
 */
import { explainGrant, formatExplanation } from 'typed-permissions/internal';
import { compileModel } from '../model/compile-model.js';
import { formatCompileProblem } from '../problems/compile-problem.js';
import { definitionsFolder, parseCommandLine, UsageError, type Command } from './command-line.js';

/**
 * Runs `explain`.
 *
 * @example
 * ```ts
 * await explainCommand(['definitions', '--roles', 'EMPLOYEE', '--resource', 'document', '--action', 'read'], io); // 0
 * ```
 */
export const explainCommand: Command = (argv, io) => {
  const { values, positionals } = parseCommandLine(argv, {
    roles: { type: 'string' },
    resource: { type: 'string' },
    action: { type: 'string' },
    json: { type: 'boolean' },
    out: { type: 'string' },
    check: { type: 'boolean' },
    watch: { type: 'boolean' },
  });
  const misplaced = (['out', 'check', 'watch'] as const).filter((flag) => values[flag] !== undefined);
  if (misplaced.length > 0) throw new UsageError(`explain does not take --${misplaced.join(', --')}.`);
  if (values.roles === undefined || values.resource === undefined || values.action === undefined)
    throw new UsageError('explain needs --roles, --resource and --action.');
  const definitionsDir = definitionsFolder('explain', positionals);
  const roles = values.roles
    .split(',')
    .map((role) => role.trim())
    .filter((role) => role.length > 0);
  const model = compileModel(definitionsDir);
  if (!model.ok) {
    for (const problem of model.problems) io.error(formatCompileProblem(problem, definitionsDir));
    return Promise.resolve(1);
  }
  const explanation = explainGrant(model.model.tables, roles, values.resource, values.action);
  io.log(values.json === true ? JSON.stringify(explanation, null, 2) : formatExplanation(explanation));
  return Promise.resolve(0);
};
