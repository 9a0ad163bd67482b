/**
 * Errors of the decision service as RFC 9457 problem details (`application/problem+json`): every refusal has a
 * kind (its `type` URI), a title, the HTTP status and a detail naming the field and index. Anything that is not
 * a refusal the service made on purpose is a 500 with nothing of the original.
 */

/** The kinds of problem the service answers with, and their statuses. */
export const PROBLEM_KINDS = {
  'invalid-request': { status: 400, title: 'Invalid request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  'not-found': { status: 404, title: 'Not found' },
  'policy-version-changed': { status: 409, title: 'Policy version changed' },
  'request-timeout': { status: 408, title: 'Request timeout' },
  'payload-too-large': { status: 413, title: 'Payload too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  'rate-limited': { status: 429, title: 'Too many requests' },
  'headers-too-large': { status: 431, title: 'Request header fields too large' },
  internal: { status: 500, title: 'Internal server error' },
  'not-ready': { status: 503, title: 'Not ready' },
  'tenant-roles-unavailable': { status: 503, title: 'Tenant roles unavailable' },
} as const;

/** A kind of problem. */
export type ProblemKind = keyof typeof PROBLEM_KINDS;

/** The body of a problem answer. */
export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
}

/** The media type of problem answers. */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/**
 * A refusal the service answers with a problem: thrown by a route or hook, answered by the error handler.
 *
 * @example
 * ```ts
 * throw new ServiceProblem('invalid-request', 'checks[2].resource: "documnet" is not a resource of this policy.');
 * ```
 */
export class ServiceProblem extends Error {
  readonly statusCode: number;

  constructor(
    readonly kind: ProblemKind,
    readonly detail: string,
    /** Headers the answer carries (`www-authenticate`, `retry-after`). */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(detail);
    this.name = 'ServiceProblem';
    this.statusCode = PROBLEM_KINDS[kind].status;
  }

  /** The body of the answer. */
  get problem(): Problem {
    return problemOf(this.kind, this.detail);
  }
}

/**
 * The problem body of `kind` with `detail`.
 *
 * @example
 * ```ts
 * problemOf('not-found', 'There is no GET /v2/check.');
 * // { type: 'urn:typed-permissions:problem:not-found', title: 'Not found', status: 404, detail: 'There is no GET /v2/check.' }
 * ```
 */
export function problemOf(kind: ProblemKind, detail: string): Problem {
  const { status, title } = PROBLEM_KINDS[kind];
  return { type: `urn:typed-permissions:problem:${kind}`, title, status, detail };
}

/**
 * The problem of a request no route answers: its method and path (the first 200 characters), and where the routes
 * are listed.
 *
 * @example
 * ```ts
 * notFoundProblem('GET', '/v2/check?x=1').detail; // 'There is no GET /v2/check; see GET /v1/openapi.json.'
 * ```
 */
export function notFoundProblem(method: string, url: string): ServiceProblem {
  const path = url.split('?')[0] ?? '';
  const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
  return new ServiceProblem('not-found', `There is no ${method} ${shown}; see GET /v1/openapi.json.`);
}
