/**
 * The HTTP side of remote permissions: the three questions it asks the decision service — the policy
 * (`GET /v1/policy`, with its ownership rules), a role set's slice (`POST /v1/slice`) and the ownership methods
 * or rules of its groups (`POST /v1/check`) — each with the bearer token, a deadline and a bounded body, and each
 * answer checked before it is read. Anything else is a {@link PermissionsServiceError}: nothing is granted on it.
 */
import type { PermissionSlice } from '../core/decision/permission-slice.js';
import { describeValue } from '../core/common/describe-value.js';
import { sliceProblem } from '../client/slice-shape.js';
import { boundedText } from '../core/common/bounded-text.js';
import { PermissionsServiceError } from './service-error.js';
import type { OwnershipRulesTable } from '../core/tables/grant-tables.js';
import { ownershipConditionProblems, ownershipNameProblem } from '../core/ownership-rules/ownership-rule-parser.js';
import { TENANT_ID_TYPES, USER_ATTRIBUTE_TYPES } from '../core/ownership-rules/ownership-rule.js';

/** What `GET /v1/policy` answers, as remote permissions read it. */
export interface ServicePolicy {
  readonly policyVersion: string;
  /** Each resource with its id type, and its declared actions when it declares them. */
  readonly resources: readonly { readonly name: string; readonly idType: 'number' | 'string' | null; readonly actions?: readonly string[] }[];
  readonly actions: readonly string[];
  readonly ownershipMethods: Readonly<Record<'isOwner' | 'listOwned' | 'limitOwned' | 'ownedAmong', readonly string[]>>;
  /** The ownership rules the version names, and the relations they walk. */
  readonly ownershipRules: OwnershipRulesTable;
}

/** The ownership methods of one group on one resource, as `POST /v1/check` names them. */
export interface GroupMethods {
  readonly group: number;
  /** The ownership rule that decides the group, in place of methods. */
  readonly rule?: string;
  readonly isOwner?: string;
  readonly listOwned?: string;
  readonly limitOwned?: string;
  readonly ownedAmong?: string;
}

/** What the client needs to reach the service. */
export interface ServiceConnection {
  /** The service's base URL (`http://127.0.0.1:3100`). */
  readonly url: URL;
  readonly token: string;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly fetch: typeof fetch;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
const METHOD_KINDS = ['isOwner', 'listOwned', 'limitOwned', 'ownedAmong'] as const;
const isRecordOf = (value: unknown, entry: (inner: unknown) => boolean): boolean => isObject(value) && Object.values(value).every(entry);

/** Why `value` is not the policy's ownership rules, or undefined when it is (each condition as the rule parser reads it). */
function ownershipRulesProblem(value: unknown): string | undefined {
  if (!isObject(value) || !Array.isArray(value['rules'])) return 'ownershipRules has no list of rules';
  const relation = (inner: unknown) => isObject(inner) && typeof inner['resource'] === 'string' && typeof inner['on'] === 'string';
  if (!isRecordOf(value['relations'], (byName) => isRecordOf(byName, relation))) return 'ownershipRules.relations is not relations by resource';
  for (const [i, rule] of (value['rules'] as unknown[]).entries()) {
    const at = `ownershipRules.rules[${i}]`;
    if (!isObject(rule) || typeof rule['resource'] !== 'string' || typeof rule['name'] !== 'string' || ownershipNameProblem(rule['name']) !== undefined)
      return `${at} is not a rule { resource, name, condition, userAttributes }`;
    const [problem] = ownershipConditionProblems(rule['condition'], []);
    if (problem !== undefined) return `${at}.condition is not a rule: ${problem.message}`;
    if (!isRecordOf(rule['userAttributes'], (type) => (USER_ATTRIBUTE_TYPES as readonly unknown[]).includes(type)))
      return `${at}.userAttributes is not user attribute types by name`;
    if (rule['tenantIdType'] !== undefined && !(TENANT_ID_TYPES as readonly unknown[]).includes(rule['tenantIdType']))
      return `${at}.tenantIdType is not one of ${TENANT_ID_TYPES.join(', ')}`;
  }
  return undefined;
}

/** The problem detail of a refusal, when the service sent one (problem+json), else the status text. */
function refusalDetail(text: string, statusText: string): string {
  try {
    const problem = JSON.parse(text) as unknown;
    if (isObject(problem) && typeof problem['detail'] === 'string') return problem['detail'].slice(0, 500);
  } catch {
    // Not JSON: the status says enough.
  }
  return statusText;
}

/** The problem type of a refusal's body (`urn:typed-permissions:problem:not-ready`), when it is a problem. */
function problemType(text: string): unknown {
  try {
    const problem = JSON.parse(text) as unknown;
    return isObject(problem) ? problem['type'] : undefined;
  } catch {
    return undefined;
  }
}

/** What to do about a refusal with `status` (and the body `text`). */
function advice(status: number, text: string): string {
  if (status === 401 || status === 403) return ' Check the token given to createRemotePermissions (the service accepts the tokens it was started with).';
  if (status === 429) return ' The service limits requests per token: raise its rate limit, or run more replicas.';
  // The detail of a tenant whose custom roles cannot be read says what to do; nothing is loaded that /readyz would tell.
  if (status === 503 && problemType(text) === 'urn:typed-permissions:problem:tenant-roles-unavailable') return ' Nothing is granted.';
  if (status === 503) return ' The service has no policy loaded yet (GET /readyz says when it is ready).';
  return '';
}

/** Whether `error` is the end of a request's time (a DOMException, of another realm in some runtimes: read by name, not by class). */
function timedOut(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

/**
 * The routes of the service, relative to its base URL: resolved against it, they keep its path (a service behind a
 * gateway at `/permissions/` is asked at `/permissions/v1/check`), where an absolute `/v1/check` would drop it.
 */
type ServiceRoute = 'v1/policy' | 'v1/slice' | 'v1/check';

/**
 * One request to the service: its JSON answer, or a PermissionsServiceError saying what went wrong and what to do.
 *
 * @example
 * ```ts
 * const policy = await request(connection, 'GET', 'v1/policy'); // GET <base URL>v1/policy
 * ```
 */
async function request(connection: ServiceConnection, method: 'GET' | 'POST', path: ServiceRoute, body?: object): Promise<unknown> {
  const target = new URL(path, connection.url);
  const where = `${method} ${target.href}`;
  let response: Response;
  try {
    response = await connection.fetch(target, {
      method,
      headers: {
        authorization: `Bearer ${connection.token}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(connection.timeoutMs),
      redirect: 'error',
    });
  } catch (error) {
    // undici says a redirect refused by `redirect: 'error'` in its cause: the service was reached, and sent elsewhere.
    const causeMessage = (error as { cause?: { message?: unknown } } | null)?.cause?.message;
    const redirected = typeof causeMessage === 'string' && /redirect/i.test(causeMessage);
    const reason = timedOut(error)
      ? `no answer within ${connection.timeoutMs} ms`
      : redirected
        ? 'it answered with a redirect, which is never followed: give the URL the service answers at'
        : error instanceof Error
          ? error.message
          : String(error);
    const what = redirected ? 'the decision service sent the request elsewhere' : 'the decision service cannot be reached';
    throw new PermissionsServiceError(`${where}: ${what} (${reason}); nothing is granted.`, undefined, { cause: error });
  }
  let text: string;
  try {
    text = await boundedText(response, connection.maxResponseBytes, 'the service sends an answer');
  } catch (error) {
    const reason = timedOut(error)
      ? `the answer did not arrive whole within ${connection.timeoutMs} ms.`
      : error instanceof Error
        ? error.message
        : String(error);
    throw new PermissionsServiceError(`${where}: ${reason} Nothing is granted.`, response.status, { cause: error });
  }
  if (!response.ok) {
    throw new PermissionsServiceError(
      `${where} answered ${response.status}: ${refusalDetail(text, response.statusText).replace(/\.$/, '')}.${advice(response.status, text)}`,
      response.status,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new PermissionsServiceError(
      `${where} answered ${response.status} with a body that is not JSON; is the URL the decision service's?`,
      response.status,
      {
        cause: error,
      },
    );
  }
}

/** A refusal of an answer of the wrong shape. */
function malformed(what: string, problem: string): PermissionsServiceError {
  return new PermissionsServiceError(`${what} is not an answer of the decision service (${problem}); nothing is granted. Is the URL the decision service's?`);
}

/**
 * The service's active policy version and vocabulary.
 *
 * @example
 * ```ts
 * const { policyVersion, resources } = await fetchPolicy(connection);
 * ```
 */
export async function fetchPolicy(connection: ServiceConnection): Promise<ServicePolicy> {
  const answer = await request(connection, 'GET', 'v1/policy');
  const what = 'GET /v1/policy';
  if (!isObject(answer) || typeof answer['policyVersion'] !== 'string') throw malformed(what, 'no policyVersion');
  const { resources, actions, ownershipMethods } = answer;
  if (
    !Array.isArray(resources) ||
    !resources.every(
      (r) =>
        isObject(r) &&
        typeof r['name'] === 'string' &&
        [null, 'number', 'string'].includes(r['idType'] as string) &&
        (r['actions'] === undefined || isStringList(r['actions'])),
    )
  )
    throw malformed(what, 'resources is not a list of { name, idType, actions? }');
  if (!isStringList(actions)) throw malformed(what, 'actions is not a list of names');
  if (!isObject(ownershipMethods) || !METHOD_KINDS.every((kind) => isStringList(ownershipMethods[kind])))
    throw malformed(what, 'ownershipMethods is not a list of names per kind');
  const problem = ownershipRulesProblem(answer['ownershipRules']);
  if (problem !== undefined) throw malformed(what, problem);
  return answer as unknown as ServicePolicy;
}

/**
 * The slice of a set of roles, in `tenant` when given (the roles are then those the user holds there). The user id
 * sent is 0: a slice depends on the roles (and the tenant) only, and the application's user ids never leave it.
 *
 * @example
 * ```ts
 * const slice = await fetchSlice(connection, ['EMPLOYEE']);
 * ```
 */
export async function fetchSlice(connection: ServiceConnection, roles: readonly string[], tenant?: string): Promise<PermissionSlice> {
  const answer = await request(connection, 'POST', 'v1/slice', { user: { id: 0, roles }, ...(tenant === undefined ? {} : { tenant }) });
  const problem = sliceProblem(answer);
  if (problem !== undefined) throw malformed('POST /v1/slice', problem);
  return answer as PermissionSlice;
}

/**
 * The methods of one group, checked: a group number and method names only, and a way to decide ownership — a rule,
 * or hooks of which one is isOwner, listOwned or limitOwned, never both (as the engine's tables are checked).
 */
function groupMethods(value: unknown): GroupMethods | undefined {
  if (!isObject(value) || !Number.isInteger(value['group']) || (value['group'] as number) < 0) return undefined;
  for (const kind of [...METHOD_KINDS, 'rule'] as const) if (value[kind] !== undefined && typeof value[kind] !== 'string') return undefined;
  const deciding = ['isOwner', 'listOwned', 'limitOwned'].some((kind) => value[kind] !== undefined);
  if (value['rule'] === undefined ? !deciding : deciding) return undefined;
  return value as unknown as GroupMethods;
}

/**
 * The ownership methods of the groups of a set of roles (in `tenant`, when given), per `[resource, action]` asked,
 * answered from policy `policyVersion` (else a 409 PermissionsServiceError).
 *
 * @example
 * ```ts
 * const [methods] = await fetchGroupMethods(connection, ['EMPLOYEE'], [['document', 'read']], slice.version);
 * methods; // [{ group: 0, limitOwned: 'limitToCreator', ownedAmong: 'ownedDocumentsAmong' }]
 * ```
 */
export async function fetchGroupMethods(
  connection: ServiceConnection,
  roles: readonly string[],
  asked: readonly (readonly [resource: string, action: string])[],
  policyVersion: string,
  tenant?: string,
): Promise<readonly (readonly GroupMethods[])[]> {
  const checks = asked.map(([resource, action]) => ({ user: { id: 0, roles }, ...(tenant === undefined ? {} : { tenant }), resource, action }));
  // Pinned to the slice's version: a swap in between is a 409, and the role set is asked again.
  const answer = await request(connection, 'POST', 'v1/check', { checks, policyVersion });
  const what = 'POST /v1/check';
  if (!isObject(answer) || !Array.isArray(answer['answers']) || answer['answers'].length !== checks.length)
    throw malformed(what, `not ${checks.length} answers`);
  return (answer['answers'] as unknown[]).map((one, i) => {
    if (!isObject(one) || !Array.isArray(one['ownership'])) throw malformed(what, `answers[${i}] has no ownership list`);
    if (one['policyVersion'] !== policyVersion)
      throw malformed(what, `answers[${i}] is of policy ${describeValue(one['policyVersion'])}, not ${policyVersion}`);
    return one['ownership'].map((group: unknown, g): GroupMethods => {
      const methods = groupMethods(group);
      if (methods === undefined) throw malformed(what, `answers[${i}].ownership[${g}] is ${describeValue(group)}`);
      return methods;
    });
  });
}
