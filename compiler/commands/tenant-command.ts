/**
 * `typed-permissions tenant publish|list|show|rollback`: tenants' custom roles, in the PostgreSQL store
 * (`--database-url`, else `DATABASE_URL`; checked against the policy store's active version unless `--policy`
 * names a bundle) or in a folder (`--store <folder>`, checked against `--policy <policy.json>`). The command is the
 * admin API of `typed-permissions/live` on the command line: the same checks, the same refusals; a document with
 * problems prints each at file:line:column and publishes nothing.
 */
import {
  fileTenantRolesAdmin,
  parseBundleText,
  PermissionDefinitionError,
  PermissionsUsageError,
  postgresTenantRolesAdmin,
  printableText,
  type TenantRolesAdmin,
  type TenantRolesBase,
  serverOfConnectionString,
} from 'typed-permissions/internal';
import { basename, dirname } from 'node:path';
import { formatCompileProblem, type CompileProblem } from '../problems/compile-problem.js';
import { commandFileText, placedProblems, readTenantRolesFile } from './tenant-roles-file.js';
import { parseCommandLine, plural, positiveDecimal, UsageError, type Command, type CommandOutput } from './command-line.js';

const TENANT_OPTIONS = {
  'database-url': { type: 'string' },
  schema: { type: 'string' },
  channel: { type: 'string' },
  store: { type: 'string' },
  policy: { type: 'string' },
  note: { type: 'string' },
  'published-by': { type: 'string' },
  after: { type: 'string' },
  limit: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseCommandLine<typeof TENANT_OPTIONS>>['values'];

/** The base policy of `--policy`: a bundle as `npx typed-permissions compile` writes it (`generated/policy.json`). */
async function basePolicy(path: string | undefined): Promise<TenantRolesBase | undefined> {
  if (path === undefined) return undefined;
  return parseBundleText(await commandFileText(path, 'the policy bundle', 64 * 1024 * 1024), `file ${path}`) as TenantRolesBase;
}

/** The admin of the store the options name, and how messages name that store. */
async function adminOf(subcommand: string, values: Values): Promise<{ admin: TenantRolesAdmin; where: string; server?: string }> {
  const databaseUrl = values['database-url'] ?? process.env['DATABASE_URL'];
  const folder = values.store;
  if (folder !== undefined) {
    if (values['database-url'] !== undefined || values.schema !== undefined || values.channel !== undefined)
      throw new UsageError(`tenant ${subcommand} takes --store <folder> or a database (--database-url, --schema, --channel), not both.`);
    if (folder === '') throw new UsageError(`tenant ${subcommand}: --store needs the path of a folder.`);
    const needsPolicy = subcommand === 'publish' || subcommand === 'rollback';
    if (needsPolicy && values.policy === undefined)
      throw new UsageError(`tenant ${subcommand} --store <folder> needs --policy <policy.json>, the policy the roles are checked against.`);
    const policy = needsPolicy ? await basePolicy(values.policy) : undefined;
    const admin = fileTenantRolesAdmin(folder, policy === undefined ? {} : { policy });
    return { admin, where: `folder ${folder}` };
  }
  if (databaseUrl === undefined || databaseUrl === '')
    throw new UsageError(`tenant ${subcommand} needs --database-url <url> (or DATABASE_URL), or --store <folder>.`);
  const policy = await basePolicy(values.policy);
  const admin = postgresTenantRolesAdmin({
    connectionString: databaseUrl,
    schema: values.schema,
    channel: values.channel,
    ...(policy === undefined ? {} : { policy }),
  });
  return { admin, where: `schema ${values.schema ?? 'typed_permissions'}`, server: serverOfConnectionString(databaseUrl) };
}

function only(subcommand: string, values: Values, allowed: readonly (keyof Values)[]): void {
  for (const option of ['policy', 'note', 'published-by', 'after', 'limit'] as const)
    if (values[option] !== undefined && !allowed.includes(option)) throw new UsageError(`tenant ${subcommand} takes no --${option}.`);
}

async function publish(admin: TenantRolesAdmin, where: string, tenant: string, file: string, values: Values, io: CommandOutput): Promise<number> {
  const read = await readTenantRolesFile(file);
  let refused: readonly CompileProblem[] = read.problems;
  if (read.value !== undefined) {
    try {
      const { sequence } = await admin.publish(tenant, read.value, { source: basename(file), note: values.note, publishedBy: values['published-by'] });
      io.log(`typed-permissions: published the custom roles of tenant ${JSON.stringify(tenant)} from ${file} as #${sequence} to ${where}.`);
      return 0;
    } catch (error) {
      if (!(error instanceof PermissionDefinitionError)) throw error;
      refused = placedProblems(error, basename(file), read.positions);
    }
  }
  for (const problem of refused) io.error(formatCompileProblem(problem, dirname(file)));
  io.error(`typed-permissions: ${file} has ${plural(refused.length, 'problem')}; nothing was published.`);
  return 1;
}

async function list(admin: TenantRolesAdmin, where: string, values: Values, io: CommandOutput): Promise<number> {
  // Decimal digits only, as `policy rollback` takes a sequence.
  const limit = positiveDecimal(values.limit);
  if (values.limit !== undefined && (limit === undefined || limit > 1000))
    throw new UsageError('tenant list --limit takes a number of tenants from 1 to 1000.');
  const page = await admin.list({ after: values.after, limit });
  if (page.tenants.length === 0) io.log(`typed-permissions: no tenant has custom roles in ${where}${values.after === undefined ? '' : ' after that one'}.`);
  for (const entry of page.tenants) {
    // A note or an author holding a line break would print a line of its own, looking like another tenant's.
    const note = entry.note === '' ? '' : ` — ${printableText(entry.note)}`;
    const roles = entry.roles.join(', ') || '(no roles)';
    io.log(`${JSON.stringify(entry.tenant)} #${entry.sequence} ${entry.publishedAt} ${printableText(entry.publishedBy)}: ${roles}${note}`);
  }
  if (page.next !== undefined) io.log(`typed-permissions: more tenants follow: --after ${JSON.stringify(page.next)}`);
  return 0;
}

async function show(admin: TenantRolesAdmin, where: string, tenant: string, io: CommandOutput): Promise<number> {
  const detail = await admin.show(tenant);
  if (detail.versions.length === 0) {
    io.log(`typed-permissions: tenant ${JSON.stringify(tenant)} has no custom roles in ${where}.`);
    return 0;
  }
  for (const version of detail.versions) {
    const note = version.note === '' ? '' : ` — ${printableText(version.note)}`;
    io.log(
      `#${version.sequence} ${version.publishedAt} ${printableText(version.publishedBy)}${version.active ? ' (active)' : ''}: ` +
        `${version.roles.join(', ') || '(no roles)'}${note}`,
    );
  }
  if (detail.active !== undefined) io.log(`The active document (#${detail.active.sequence}):\n${JSON.stringify(detail.active.document, null, 2)}`);
  return 0;
}

async function rollback(admin: TenantRolesAdmin, where: string, tenant: string, sequence: number, values: Values, io: CommandOutput): Promise<number> {
  try {
    const { sequence: active } = await admin.rollback(tenant, sequence, {
      publishedBy: values['published-by'],
      ...(values.note === undefined ? {} : { note: values.note }),
    });
    io.log(`typed-permissions: version #${sequence} of tenant ${JSON.stringify(tenant)} is active again in ${where}, as #${active}.`);
    return 0;
  } catch (error) {
    if (!(error instanceof PermissionDefinitionError)) throw error;
    for (const line of error.message.split('\n').slice(1)) io.error(line.replace(/^ {2}- /, ''));
    io.error(`typed-permissions: version #${sequence} of tenant ${JSON.stringify(tenant)} no longer fits the policy; nothing was changed.`);
    return 1;
  }
}

/**
 * Runs `tenant <publish|list|show|rollback>`.
 *
 * @example
 * ```ts
 * await tenantCommand(['publish', 'acme', 'acme.roles.json', '--store', 'tenant-roles', '--policy', 'generated/policy.json'], io); // 0
 * ```
 */
export const tenantCommand: Command = async (argv, io) => {
  const { values, positionals } = parseCommandLine(argv, TENANT_OPTIONS);
  const [subcommand, ...rest] = positionals;
  if (subcommand !== 'publish' && subcommand !== 'list' && subcommand !== 'show' && subcommand !== 'rollback')
    throw new UsageError(
      subcommand === undefined ? 'tenant needs a subcommand: publish, list, show or rollback.' : `Unknown tenant subcommand ${JSON.stringify(subcommand)}.`,
    );
  const [tenant, argument] = rest;
  if (subcommand === 'publish') {
    if (rest.length !== 2 || tenant === undefined || argument === undefined) throw new UsageError('tenant publish takes a tenant id and a roles file.');
    only(subcommand, values, ['policy', 'note', 'published-by']);
  } else if (subcommand === 'list') {
    if (rest.length > 0) throw new UsageError('tenant list takes no tenant (--after <tenant> starts a page after one).');
    only(subcommand, values, ['after', 'limit']);
  } else if (subcommand === 'show') {
    if (rest.length !== 1 || tenant === undefined) throw new UsageError('tenant show takes a tenant id.');
    only(subcommand, values, []);
  } else {
    // A sequence number as `tenant show` prints it: decimal digits only, as `policy rollback` takes one.
    if (rest.length !== 2 || tenant === undefined || positiveDecimal(argument) === undefined)
      throw new UsageError('tenant rollback takes a tenant id and the sequence number of one of its versions (see tenant show).');
    only(subcommand, values, ['policy', 'note', 'published-by']);
  }
  const { admin, where, server } = await adminOf(subcommand, values);
  try {
    if (subcommand === 'publish') return await publish(admin, where, tenant as string, argument as string, values, io);
    if (subcommand === 'list') return await list(admin, where, values, io);
    if (subcommand === 'show') return await show(admin, where, tenant as string, io);
    return await rollback(admin, where, tenant as string, positiveDecimal(argument) as number, values, io);
  } catch (error) {
    if (error instanceof PermissionsUsageError || server === undefined) throw error;
    // What the server or the network refuses — no connection, a missing database, a role without rights — is one line, exit 1.
    throw new PermissionsUsageError(`the PostgreSQL server at ${server} refused or could not be reached (${(error as Error).message}); nothing was changed.`);
  } finally {
    await admin.close().catch(() => undefined);
  }
};
