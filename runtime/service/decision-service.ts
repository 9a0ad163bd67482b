/**
 * `createDecisionService(options)`: typed-permissions as a shared HTTP service, for applications that do not
 * embed the engine. It follows a policy source (a file, a URL, the PostgreSQL store) the way an embedded engine
 * does — each version checked and swapped in at once, the last good one kept — and holds nothing else, so any
 * number of replicas behind a load balancer follow one store and answer alike. Refuses to start without bearer
 * tokens, unless it listens on loopback and is told to allow anonymous requests.
 */
import type { FastifyInstance } from 'fastify';
import type { PrecompiledPermissions } from '../permissions/precompiled-permissions.js';
import type { PolicySource } from '../live/policy-source.js';
import type { TenantRolesSource } from '../live/tenant-roles-source.js';
import { PermissionsUsageError } from '../core/common/errors.js';
import type { GrantTables } from '../core/tables/grant-tables.js';
import type { PolicyBundle } from '../live/policy-bundle.js';
import { durationShape } from '../core/shape/option-shapes.js';
import { integer, object, optional, report, usageChecked, valid, type Shape } from '../core/shape/shape-check.js';
import { BearerTokens } from './bearer-tokens.js';
import { createDecisionServer } from './decision-server.js';
import { followPolicy } from './followed-policy.js';
import type { ServiceLogger } from './service-logger.js';
import { resolveServiceLimits, serviceLimitsShape, type DecisionServiceLimits } from './service-limits.js';
import type { PermissionsOptions } from '../permissions/permissions-options.js';
import { ServiceMetrics } from './service-metrics.js';
import { followTokensFile, readTokensFile } from './token-file.js';

/** Options of {@link createDecisionService}. */
export interface DecisionServiceOptions {
  /** Where the policy comes from, followed while the service runs: `filePolicySource`, `httpPolicySource`, `postgresPolicySource` of typed-permissions/live. */
  readonly source?: PolicySource | undefined;
  /**
   * Where the custom roles of tenants come from (a `TenantRolesSource`), followed while the service runs: a check
   * naming a `tenant` decides with that tenant's custom roles beside the policy's, read when a check first names
   * the tenant and again when the source says it changed. Without it, a check's tenant has the policy's roles only.
   */
  readonly tenantRoles?: TenantRolesSource | undefined;
  /**
   * A compiled policy (`generated/policy.json`, or the generated `grantTables`): the policy until the source has
   * one, and the vocabulary (resources, actions, id types) every later version must keep. Without it, the first
   * version the source holds fixes the vocabulary.
   */
  readonly tables?: GrantTables | PolicyBundle | undefined;
  /** The bearer tokens accepted. Give `tokens` or `tokensFile`, not both. */
  readonly tokens?: readonly string[] | undefined;
  /** A file of bearer tokens, one per line (`#` starts a comment), read again whenever it changes: tokens rotate without a restart. */
  readonly tokensFile?: string | undefined;
  /** How often the tokens file is compared with what was read, in ms, besides the file-system watch. Default 1,000. */
  readonly tokensFilePollIntervalMs?: number | undefined;
  /** Accept requests without a token. Only with `host` 127.0.0.1 or ::1; anywhere else the service refuses to start. Default false. */
  readonly allowAnonymous?: boolean | undefined;
  /** The address to listen on. Default 127.0.0.1. */
  readonly host?: string | undefined;
  /** The port to listen on (0: any free port). Default 8080. */
  readonly port?: number | undefined;
  /** Request limits; see DecisionServiceLimits for each default. */
  readonly limits?: DecisionServiceLimits | undefined;
  /**
   * The ownership methods the applications implement: a policy version naming another method is rejected, as
   * the applications would reject it. Default: every method name is accepted.
   */
  readonly ownershipMethods?: readonly string[] | undefined;
  /** Where policy changes, rejections, source failures and internal errors are told. Default `console`. */
  readonly logger?: ServiceLogger | undefined;
  /** How long one read of the source may take, in ms, before it counts as failed. Default 15,000. */
  readonly readTimeoutMs?: number | undefined;
  /**
   * Receives an event for each final answer of `POST /v1/check` (`via: 'service'`; an answer that still needs
   * ownership is not a decision yet), as `onDecision` of the embedded engine does; each such answer carries its `callId`.
   */
  readonly onDecision?: PermissionsOptions['onDecision'];
  /** Sampling, filtering and bounds of the decision log, as for the embedded engine. */
  readonly decisionLog?: PermissionsOptions['decisionLog'];
}

/** A running decision service. */
export interface DecisionService {
  /** The Fastify server: `server.inject()` in tests, `server.addresses()` once listening. */
  readonly server: FastifyInstance;
  /** The engine the answers come from (it follows the source). */
  readonly permissions: PrecompiledPermissions;
  /** The active policy version, or undefined while none is loaded. */
  readonly policyVersion: string | undefined;
  /** Listens on the configured host and port; resolves with the address (`http://127.0.0.1:8080`). */
  listen(): Promise<string>;
  /** Stops following the source and the tokens file, and closes the server. */
  close(): Promise<void>;
}

/** The addresses that are loopback: only there may a service accept requests without a token. */
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '::1']);

/**
 * Whether `host` is a loopback address (127.0.0.1 or ::1), where a service may accept requests without a token.
 *
 * @example
 * ```ts
 * isLoopbackHost('::1'); // true
 * isLoopbackHost('0.0.0.0'); // false
 * ```
 */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOSTS.has(host);
}

function fail(message: string): never {
  throw new PermissionsUsageError(`createDecisionService(options): ${message}`);
}

const problem = (message: string): string => `createDecisionService(options): ${message}`;
const is = (test: (value: unknown) => boolean, message: string) => optional(valid(test, problem(message)));

/** The shape of {@link DecisionServiceOptions}; the fields in the order their problems are told (the limits and the poll interval last). */
const optionsShape = object(
  {
    source: (source, path, issues, options) =>
      source !== undefined ||
      options?.['tables'] !== undefined ||
      report(
        issues,
        path,
        source,
        problem('give a policy: source (filePolicySource, httpPolicySource or postgresPolicySource of typed-permissions/live), tables, or both.'),
      ),
    host: is((host) => typeof host === 'string' && host !== '', 'host must be an address, such as 127.0.0.1.'),
    port: optional(integer(0, 65_535, problem('port must be a whole number from 0 to 65535.'))),
    allowAnonymous: is((allow) => typeof allow === 'boolean', 'allowAnonymous must be true or false.'),
    tokens: (tokens, path, issues, options) =>
      tokens === undefined ||
      ((options?.['tokensFile'] === undefined || report(issues, path, tokens, problem('give tokens or tokensFile, not both.'))) &&
        (Array.isArray(tokens) || report(issues, path, tokens, problem('tokens must be an array of bearer tokens.')))),
    ownershipMethods: is(Array.isArray, 'ownershipMethods must be an array of method names.'),
    logger: is(
      (logger) =>
        typeof logger === 'object' &&
        logger !== null &&
        ['info', 'warn', 'error'].every((level) => typeof (logger as Record<string, unknown>)[level] === 'function'),
      'logger must have the methods info, warn and error (console has them).',
    ),
    limits: optional(serviceLimitsShape),
    tokensFilePollIntervalMs: optional(durationShape('createDecisionService(options): tokensFilePollIntervalMs', 10)),
    tenantRoles: is(
      (source) => typeof source === 'object' && source !== null && typeof (source as TenantRolesSource).read === 'function',
      'tenantRoles must be a source of tenant roles: an object with read(tenant) and, to follow changes, watch(changed, failed).',
    ),
    tables: () => true,
    tokensFile: () => true,
    readTimeoutMs: () => true,
    onDecision: () => true,
    decisionLog: () => true,
  } satisfies Record<keyof DecisionServiceOptions, Shape<unknown>>,
  {
    notObject: problem('options must be an object.'),
    unknownKey: (key) =>
      problem(
        `unknown option ${JSON.stringify(key)}; the options are source, tenantRoles, tables, tokens, tokensFile, tokensFilePollIntervalMs, ` +
          'allowAnonymous, host, port, ' +
          'limits, ownershipMethods, logger, readTimeoutMs, onDecision, decisionLog.',
      ),
    firstUnknownOnly: true,
  },
);

/** The tokens accepted at start. */
async function initialTokens(options: DecisionServiceOptions): Promise<BearerTokens> {
  if (options.tokensFile === undefined) {
    try {
      return new BearerTokens(options.tokens ?? []);
    } catch (error) {
      fail(`tokens: ${(error as Error).message}`);
    }
  }
  const { tokens, problems } = await readTokensFile(options.tokensFile).catch((error: Error) => fail(error.message));
  if (problems.length > 0) fail(`the tokens file ${options.tokensFile} has lines that are not tokens: ${problems.join('; ')}.`);
  return new BearerTokens(tokens);
}

/** Refuses to start a service anyone could ask without a token. */
function checkAccess(tokens: BearerTokens, allowAnonymous: boolean, host: string): void {
  if (allowAnonymous && !isLoopbackHost(host))
    fail(
      `allowAnonymous is refused on host ${JSON.stringify(host)}: anyone who reaches it could ask. Listen on 127.0.0.1 or ::1, ` +
        'or give bearer tokens and drop allowAnonymous.',
    );
  if (tokens.size === 0 && !allowAnonymous)
    fail(
      'no bearer token is given: give tokens or tokensFile (for the command, --token, --tokens-file or TYPED_PERMISSIONS_TOKENS). Only on 127.0.0.1 ' +
        'or ::1 may the service run without, with allowAnonymous: true.',
    );
}

/** Follows the tokens `file` (when given) into `tokens`, telling what changed; returns the function that stops. */
function followTokens(file: string | undefined, pollIntervalMs: number, tokens: BearerTokens, allowAnonymous: boolean, logger: ServiceLogger) {
  if (file === undefined) return undefined;
  return followTokensFile(file, pollIntervalMs, {
    onRead: ({ tokens: next, problems }) => {
      for (const problem of problems) logger.error(`typed-permissions service: tokens file ${file}: ${problem}; that line is ignored.`);
      if (!tokens.replace(next)) return;
      logger.info(`typed-permissions service: tokens file read again; ${next.length} token${next.length === 1 ? '' : 's'} accepted.`);
      if (tokens.size === 0 && !allowAnonymous) logger.error('typed-permissions service: the tokens file holds no token; every request is refused.');
    },
    onError: (error) => logger.warn(`typed-permissions service: ${error instanceof Error ? error.message : String(error)} The tokens read before stay.`),
  });
}

/**
 * Starts a decision service: checks the options, loads the policy (following `source` when given), and makes
 * the server. Call `listen()` to serve, `close()` to stop. Rejects with a PermissionsUsageError for options that
 * cannot work — no token where one is needed, anonymous requests off loopback, an unreadable tokens file, a
 * limit out of range — before anything listens.
 *
 * @example
 * ```ts
 * import { createDecisionService } from 'typed-permissions/service';
 * import { postgresPolicySource } from 'typed-permissions/live';
 *
 * const service = await createDecisionService({
 *   source: postgresPolicySource({ connectionString: process.env.DATABASE_URL! }),
 *   tokensFile: '/run/secrets/decision-tokens',
 *   host: '0.0.0.0',
 *   port: 8080,
 * });
 * console.log(`listening on ${await service.listen()}`);
 * ```
 */
export async function createDecisionService(options: DecisionServiceOptions): Promise<DecisionService> {
  usageChecked(optionsShape, options);
  const host = options.host ?? '127.0.0.1';
  const allowAnonymous = options.allowAnonymous ?? false;
  const logger: ServiceLogger = options.logger ?? console;
  const limits = resolveServiceLimits(options.limits);
  const pollIntervalMs = options.tokensFilePollIntervalMs ?? 1000;
  const tokens = await initialTokens(options);
  checkAccess(tokens, allowAnonymous, host);

  const metrics = new ServiceMetrics();
  const policy = await followPolicy(options, metrics, logger);
  const stopTokens = followTokens(options.tokensFile, pollIntervalMs, tokens, allowAnonymous, logger);
  let server: FastifyInstance;
  try {
    ({ server } = await createDecisionServer({ limits, tokens, allowAnonymous, metrics, logger, policy: () => policy.served() }));
  } catch (error) {
    stopTokens?.();
    await policy.close();
    throw error;
  }

  const { engine } = policy;
  let closed: Promise<void> | undefined;
  return {
    server,
    permissions: engine,
    get policyVersion() {
      return engine.built ? engine.policyVersion : undefined;
    },
    listen: () => server.listen({ host, port: options.port ?? 8080 }),
    close: () =>
      (closed ??= (async () => {
        stopTokens?.();
        await policy.close();
        await server.close();
      })()),
  };
}
