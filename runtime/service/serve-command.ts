/**
 * `typed-permissions serve`: the decision service from the command line. It needs the runtime and Fastify only
 * (never the compiler): the `typed-permissions` command routes `serve` here. Exit codes: 0 after a clean stop,
 * 1 when the service refuses to start (no token, anonymous off loopback, an unreadable tokens file), 2 for a
 * usage error.
 */
import { parseArgs } from 'node:util';
import { PermissionsUsageError } from '../core/common/errors.js';
import { MAX_POLICY_BUNDLE_LENGTH, type PolicyBundle } from '../live/policy-bundle.js';
import { filePolicySource } from '../live/file-policy-source.js';
import { httpPolicySource } from '../live/http-policy-source.js';
import { loadPg } from '../live/postgres-client.js';
import { postgresPolicySource } from '../live/postgres-policy-source.js';
import { fileTenantRoles } from '../live/file-tenant-roles.js';
import { postgresTenantRoles } from '../live/postgres-tenant-roles.js';
import { parseBundleText } from '../live/bundle-text.js';
import { regularFileText } from '../live/regular-file-text.js';
import { tokensOfList } from './bearer-tokens.js';
import { createDecisionService, type DecisionService, type DecisionServiceOptions } from './decision-service.js';
import type { ServiceLogger } from './service-logger.js';
import type { DecisionServiceLimits } from './service-limits.js';

/** The usage of `typed-permissions serve`. */
export const SERVE_USAGE = `Usage:
  typed-permissions serve --policy <policy.json> | --policy-url <url> | --database-url <url> [options]

  --policy <file>          follow a policy bundle file (generated/policy.json); with --policy-url or
                           --database-url, the policy to start from until that source has one
  --policy-url <url>       follow a policy bundle served over HTTP(S)
  --database-url <url>     follow the PostgreSQL store that typed-permissions policy publish writes
                           (default: DATABASE_URL, when neither --policy nor --policy-url is given)
  --schema <name>          the store's schema (default typed_permissions)
  --channel <name>         the store's notification channel (default typed_permissions_policy)
  --tenant-roles <folder>  follow the tenants' custom roles in this folder (what typed-permissions tenant writes)
  --tenant-roles-database-url <url>
                           follow the tenants' custom roles in this PostgreSQL store instead
  --host <address>         the address to listen on (default 127.0.0.1)
  --port <number>          the port to listen on (default 8080; 0: any free port)
  --token <token>          a bearer token to accept (repeat for several); visible to other users of this
                           machine in its process list, so prefer --tokens-file or TYPED_PERMISSIONS_TOKENS
  --tokens-file <file>     the bearer tokens, one per line, read again whenever the file changes
                           (or TYPED_PERMISSIONS_TOKENS: tokens separated by commas)
  --allow-anonymous-on-loopback
                           accept requests without a token; only with --host 127.0.0.1 or ::1
  --ownership-methods <a,b>
                           the ownership methods (hooks) the applications implement: a version naming another is
                           rejected; ownership rules need none (checks carry the record)
  --max-body-bytes <n>     the largest request body (default 1048576)
  --max-checks <n>         the most checks in one request (default 1000)
  --max-tenants <n>        the most tenants one request names (default 16)
  --max-roles <n>          the most roles of one user (default 64)
  --max-owned-by <n>       the most groups in one ownedBy (default 256)
  --max-record-attributes <n>
                           the most attributes of a check's record or of one related record (default 256)
  --max-related-records <n>
                           the most related records of one check (default 256)
  --max-user-attributes <n>
                           the most attributes of one user (default 64)
  --max-attribute-length <n>
                           the longest string value of a record's or a user's attribute (default 1024)
  --rate-limit-max <n>     requests per token in one window (default 1000)
  --rate-limit-window-ms <n>
                           the rate window (default 1000)
  --request-timeout-ms <n> the longest a request may take (default 10000)`;

/** Where the command writes: its lines and the service's log. */
export interface ServeIo {
  readonly log: (line: string) => void;
  readonly error: (line: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** What `serve` ended with: an exit code, or the running service. */
export type ServeOutcome = { readonly code: number; readonly service?: undefined } | { readonly code: undefined; readonly service: DecisionService };

class ServeUsageError extends Error {}

const LIMIT_FLAGS = {
  'max-body-bytes': 'maxBodyBytes',
  'max-checks': 'maxChecks',
  'max-tenants': 'maxTenants',
  'max-roles': 'maxRoles',
  'max-owned-by': 'maxOwnedBy',
  'max-record-attributes': 'maxRecordAttributes',
  'max-related-records': 'maxRelatedRecords',
  'max-user-attributes': 'maxUserAttributes',
  'max-attribute-length': 'maxAttributeLength',
  'rate-limit-max': 'rateLimitMax',
  'rate-limit-window-ms': 'rateLimitWindowMs',
  'request-timeout-ms': 'requestTimeoutMs',
} as const satisfies Readonly<Record<string, keyof DecisionServiceLimits>>;

const STRING_FLAGS = [
  'policy',
  'policy-url',
  'database-url',
  'schema',
  'channel',
  'tenant-roles',
  'tenant-roles-database-url',
  'host',
  'port',
  'tokens-file',
  'ownership-methods',
  ...Object.keys(LIMIT_FLAGS),
];

function wholeNumber(flag: string, text: string): number {
  if (!/^(?:0|[1-9][0-9]{0,15})$/.test(text)) throw new ServeUsageError(`--${flag} takes a whole number, got ${JSON.stringify(text)}.`);
  return Number(text);
}

type Flags = Readonly<Record<string, string | boolean | string[] | undefined>>;

function readFlags(argv: readonly string[]): Flags {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: {
        ...Object.fromEntries(STRING_FLAGS.map((flag) => [flag, { type: 'string' as const }])),
        'allow-anonymous-on-loopback': { type: 'boolean' },
        token: { type: 'string', multiple: true },
      },
      strict: true,
      allowPositionals: true,
    });
    if (positionals.length > 0) throw new ServeUsageError(`serve takes no arguments besides its options, got ${JSON.stringify(positionals[0])}.`);
    return values;
  } catch (error) {
    if (error instanceof ServeUsageError) throw error;
    // node:util's message goes on about positional arguments; its first sentence is what went wrong.
    const first = (error as Error).message.split(/\n|\. /)[0] ?? 'Unreadable options';
    throw new ServeUsageError(first.endsWith('.') ? first : `${first}.`);
  }
}

/** The source to follow and the file of the policy to start from, as the flags (and DATABASE_URL) say. */
function policyOptions(flags: Flags, env: ServeIo['env']): Pick<DecisionServiceOptions, 'source'> & { databaseUrl?: string; startFile?: string } {
  const file = flags['policy'] as string | undefined;
  const url = flags['policy-url'] as string | undefined;
  const databaseUrl = (flags['database-url'] as string | undefined) ?? (file === undefined && url === undefined ? env['DATABASE_URL'] : undefined);
  if (url !== undefined && databaseUrl !== undefined) throw new ServeUsageError('give --policy-url or --database-url, not both.');
  if (file === undefined && url === undefined && (databaseUrl === undefined || databaseUrl === ''))
    throw new ServeUsageError('serve needs a policy: --policy <policy.json>, --policy-url <url> or --database-url <url> (or DATABASE_URL).');
  if ((flags['schema'] !== undefined || flags['channel'] !== undefined) && databaseUrl === undefined)
    throw new ServeUsageError('--schema and --channel name a PostgreSQL store: give --database-url too.');
  if (databaseUrl !== undefined) {
    const source = postgresPolicySource({
      connectionString: databaseUrl,
      ...(flags['schema'] === undefined ? {} : { schema: flags['schema'] as string }),
      ...(flags['channel'] === undefined ? {} : { channel: flags['channel'] as string }),
    });
    return { source, databaseUrl, ...(file === undefined ? {} : { startFile: file }) };
  }
  if (url !== undefined) return { source: httpPolicySource(url), ...(file === undefined ? {} : { startFile: file }) };
  return { source: filePolicySource(file as string) };
}

/** The source of tenants' custom roles the flags name: a folder (`--tenant-roles`) or a PostgreSQL store, or none. */
function tenantRolesOptions(flags: Flags): Pick<DecisionServiceOptions, 'tenantRoles'> {
  const folder = flags['tenant-roles'] as string | undefined;
  const databaseUrl = flags['tenant-roles-database-url'] as string | undefined;
  if (folder !== undefined && databaseUrl !== undefined) throw new ServeUsageError('give --tenant-roles or --tenant-roles-database-url, not both.');
  if (folder !== undefined) return { tenantRoles: fileTenantRoles(folder) };
  if (databaseUrl !== undefined) return { tenantRoles: postgresTenantRoles({ connectionString: databaseUrl }) };
  return {};
}

/** The bundle in `file`, read once (the policy to start from), as a followed file is read. */
async function bundleOfFile(file: string): Promise<PolicyBundle> {
  let text: string;
  try {
    text = await regularFileText(file, {
      subject: `The policy file ${file}`,
      maxBytes: MAX_POLICY_BUNDLE_LENGTH * 4,
      instead: 'give the path of a policy bundle file, such as the policy.json that npx typed-permissions compile writes',
    });
  } catch (error) {
    if (error instanceof PermissionsUsageError) throw error;
    throw new PermissionsUsageError(`The policy file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`);
  }
  return parseBundleText(text, `file ${file}`) as PolicyBundle;
}

async function serviceOptions(flags: Flags, io: ServeIo, logger: ServiceLogger): Promise<DecisionServiceOptions & { databaseUrl?: string }> {
  const limits: Record<string, number> = {};
  for (const [flag, limit] of Object.entries(LIMIT_FLAGS)) if (flags[flag] !== undefined) limits[limit] = wholeNumber(flag, flags[flag] as string);
  const tokensFile = flags['tokens-file'] as string | undefined;
  const given = (flags['token'] as string[] | undefined) ?? [];
  const fromEnvironment = io.env['TYPED_PERMISSIONS_TOKENS'];
  const sources = [tokensFile !== undefined, given.length > 0, fromEnvironment !== undefined && fromEnvironment !== ''].filter(Boolean).length;
  if (sources > 1) throw new ServeUsageError('give the tokens one way: --token, --tokens-file or TYPED_PERMISSIONS_TOKENS.');
  const listed = given.length > 0 ? given.join(',') : fromEnvironment;
  const methods = flags['ownership-methods'] as string | undefined;
  const { startFile, ...policy } = policyOptions(flags, io.env);
  return {
    ...policy,
    ...tenantRolesOptions(flags),
    ...(startFile === undefined ? {} : { tables: await bundleOfFile(startFile) }),
    ...(tokensFile === undefined ? { tokens: tokensOfList(listed ?? '') } : { tokensFile }),
    allowAnonymous: flags['allow-anonymous-on-loopback'] === true,
    ...(flags['host'] === undefined ? {} : { host: flags['host'] as string }),
    ...(flags['port'] === undefined ? {} : { port: wholeNumber('port', flags['port'] as string) }),
    ...(methods === undefined ? {} : { ownershipMethods: methods.split(',').map((name) => name.trim()) }),
    limits,
    logger,
  };
}

/**
 * Runs `typed-permissions serve` with `argv` (the arguments after `serve`): starts the service and resolves with
 * it running, or with the exit code when it did not start.
 *
 * @example
 * ```ts
 * const outcome = await serve(['--policy', 'generated/policy.json', '--port', '0'], { log: console.log, error: console.error, env: process.env });
 * if (outcome.service !== undefined) process.once('SIGTERM', () => void outcome.service.close());
 * ```
 */
export async function serve(argv: readonly string[], io: ServeIo): Promise<ServeOutcome> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.log(SERVE_USAGE);
    return { code: 0 };
  }
  const logger: ServiceLogger = { info: io.error, warn: io.error, error: io.error };
  let service: DecisionService;
  try {
    const { databaseUrl, ...options } = await serviceOptions(readFlags(argv), io, logger);
    if (databaseUrl !== undefined) await loadPg();
    service = await createDecisionService(options);
  } catch (error) {
    if (error instanceof ServeUsageError) {
      io.error(`typed-permissions serve: ${error.message}\n\n${SERVE_USAGE}`);
      return { code: 2 };
    }
    if (error instanceof PermissionsUsageError) {
      io.error(`typed-permissions serve: ${error.message}`);
      return { code: 1 };
    }
    throw error;
  }
  try {
    const address = await service.listen();
    io.log(`typed-permissions serve: listening on ${address} (policy ${service.policyVersion ?? 'not loaded yet'})`);
  } catch (error) {
    await service.close();
    io.error(`typed-permissions serve: cannot listen (${(error as Error).message}).`);
    return { code: 1 };
  }
  return { code: undefined, service };
}

/**
 * The command for a process: serves until SIGTERM or SIGINT, then closes and exits 0.
 *
 * @example
 * ```ts
 * await runServe(process.argv.slice(3)); // after `typed-permissions serve`
 * ```
 */
export async function runServe(argv: readonly string[]): Promise<void> {
  const outcome = await serve(argv, { log: (line) => console.log(line), error: (line) => console.error(line), env: process.env });
  if (outcome.service === undefined) {
    process.exitCode = outcome.code;
    return;
  }
  const { service } = outcome;
  const stop = () => {
    void service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`typed-permissions serve: closing failed (${String(error)}).`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
