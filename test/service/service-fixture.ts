/**
 * The fixture of the decision-service tests: a small policy with both id types and every kind of ownership
 * group (isOwner with listOwned; limitOwned run by an ownedAmong executor), built the way the compiler builds
 * tables, a service over it, and a helper that asks it over HTTP (a real server on loopback) and reads the answer.
 */
import { Permissions, type PermissionDefinition } from '../../runtime/permissions/index.js';
import { policyBundleOf, type PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { createDecisionService, type CheckAnswer, type DecisionService, type DecisionServiceOptions } from '../../runtime/service/index.js';

/** The tokens the fixture services accept. */
export const TOKEN = 'fixture-token-0123456789abcdef';
export const OTHER_TOKEN = 'other-token-fedcba9876543210';
export const AUTH = { authorization: `Bearer ${TOKEN}` } as const;

/** Methods of the applications' ownership service (never called by the service: it only needs their names). */
export const fixtureOwnership = {
  isAuthor: () => false,
  isReviewer: () => false,
  listAuthored: () => [],
  limitToMember: () => undefined,
  teamsAmong: () => [],
};

/**
 * The fixture policy: articles (number ids) are read, updated and listed by their AUTHOR (isOwner + listOwned)
 * and read and published by any EDITOR; teams (string ids) are read by their MEMBERs (limitOwned via ownedAmong).
 */
export const fixtureDefinitions: PermissionDefinition[] = [
  {
    roles: ['AUTHOR'],
    resource: 'article',
    possession: 'own',
    descr: 'Authors read and edit what they wrote; they list every article by title.',
    grant: { read: ['*', '!notes'], update: ['title', 'body'], 'list:any': ['id', 'title'], list: ['*', '!notes'] },
    isOwner: 'isAuthor',
    listOwned: 'listAuthored',
  },
  {
    roles: ['EDITOR'],
    resource: 'article',
    descr: 'Editors read and publish every article.',
    grant: { 'read:any': ['id', 'title', 'body'], 'publish:any': ['*'] },
  },
  { roles: ['MEMBER'], resource: 'team', possession: 'own', descr: 'Members read their teams.', grant: { read: ['*'] }, limitOwned: 'limitToMember' },
];

/**
 * The bundle of `definitions` (the fixture's by default), built as the compiler builds it: article ids are
 * numbers, team ids strings, teams' ownership computed by `teamsAmong`.
 *
 * @example
 * ```ts
 * const bundle = fixtureBundle();
 * ```
 */
export function fixtureBundle(definitions: PermissionDefinition[] = fixtureDefinitions): PolicyBundle {
  const permissions = new Permissions({
    ownership: fixtureOwnership,
    resourceIdTypes: { article: 'number', team: 'string' },
    ownedAmong: { team: 'teamsAmong' },
    logger: { warn: () => undefined },
  });
  return policyBundleOf(permissions.addPermissions(definitions).build().tables);
}

/** A logger that keeps every line, by level. */
export function recordingLogger() {
  const lines: string[] = [];
  return {
    lines,
    info: (message: string) => void lines.push(`info: ${message}`),
    warn: (message: string) => void lines.push(`warn: ${message}`),
    error: (message: string) => void lines.push(`error: ${message}`),
  };
}

/**
 * A service over the fixture policy (or `options`' own), accepting {@link TOKEN} and {@link OTHER_TOKEN}, logging into
 * a recording logger.
 *
 * @example
 * ```ts
 * const service = await fixtureService();
 * const answer = await ask(service, { method: 'GET', url: '/v1/policy' });
 * ```
 */
export async function fixtureService(options: Partial<DecisionServiceOptions> = {}): Promise<DecisionService> {
  return createDecisionService({ tables: fixtureBundle(), tokens: [TOKEN, OTHER_TOKEN], port: 0, logger: recordingLogger(), ...options });
}

/** What the service's JSON answers hold, loosely: a batch's answers, or any other field by name (a problem's, a policy's). */
export interface AnswerBody {
  readonly answers: CheckAnswer[];
  readonly [field: string]: unknown;
}

/** An answer: its status, body (JSON when it is JSON, else the text) and headers. */
export interface Answer {
  readonly status: number;
  readonly body: AnswerBody;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

/** A request to a service: a JSON value (sent as application/json) or text as it is. */
export interface Request {
  readonly method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
  readonly url: string;
  readonly payload?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

const addresses = new WeakMap<DecisionService, Promise<string>>();

/** Where `service` listens (it is made to listen, on a free port of 127.0.0.1, the first time). */
export function addressOf(service: DecisionService): Promise<string> {
  let address = addresses.get(service);
  if (address === undefined) addresses.set(service, (address = service.listen()));
  return address;
}

/**
 * Asks `service` over HTTP (with {@link AUTH} unless `headers` says otherwise) and reads the answer.
 *
 * @example
 * ```ts
 * const { status, body } = await ask(service, { method: 'POST', url: '/v1/check', payload: { checks: [] } });
 * ```
 */
export async function ask(service: DecisionService, request: Request): Promise<Answer> {
  const { payload } = request;
  const body = payload === undefined ? undefined : typeof payload === 'string' ? payload : JSON.stringify(payload);
  const headers: Record<string, string> = { ...AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...request.headers };
  for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
  const response = await fetch(`${await addressOf(service)}${request.url}`, { method: request.method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    // A HEAD answer names the media type of the body it leaves out.
    body: (type.includes('json') && text !== '' ? JSON.parse(text) : text) as AnswerBody,
    headers: Object.fromEntries(response.headers.entries()),
    text,
  };
}

/**
 * Posts `checks` to `/v1/check` of `service`.
 *
 * @example
 * ```ts
 * const answer = await postChecks(service, { user, resource: 'article', action: 'read' });
 * ```
 */
export function postChecks(service: DecisionService, ...checks: object[]): Promise<Answer> {
  return ask(service, { method: 'POST', url: '/v1/check', payload: { checks } });
}

/** A check's answer when nothing grants it (add `policyVersion`, and `reason` for another refusal). */
export const REFUSED_CHECK = {
  granted: false,
  anyGranted: false,
  ownGranted: false,
  needsOwnership: false,
  reason: 'no-grant',
  anyAttributes: [],
  attributes: [],
  ownership: [],
} as const;

/** A JSON Schema, loosely, to read the service's schemas in an OpenAPI document. */
export interface JsonSchema {
  readonly properties: Readonly<Record<string, JsonSchema>>;
  readonly items: JsonSchema;
  readonly maxItems: number;
}

/** The problem body of `kind` with `detail`, as the service answers it. */
export function problem(kind: string, status: number, title: string, detail: string) {
  return { type: `urn:typed-permissions:problem:${kind}`, title, status, detail };
}

/** Waits, bounded, until `condition` holds. */
export async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
