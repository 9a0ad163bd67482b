/**
 * What the Fastify integration's tests share: the definitions of the Express tests (documents 1 and 2 are user
 * 1's, 3 is user 2's; an ADMIN may do anything), an engine that records its decisions, and a real Fastify server
 * listening on loopback, asked with supertest.
 */
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import request from 'supertest';
import { permissionsFromDefinitions, type DecisionEvent, type PermissionDefinition, type Permissions, type User } from 'typed-permissions';
import { createPermitHook, type PermitRoute, type ProjectResourceId } from 'typed-permissions/fastify';

export type AppUser = User<number>;

const CREATORS = new Map([
  [1, 1],
  [2, 1],
  [3, 2],
]);

const DEFINITIONS: PermissionDefinition[] = [
  { roles: ['EMPLOYEE'], resource: 'document', possession: 'own', grant: ['read', 'delete', 'list:any'], isOwner: 'isCreator', listOwned: 'listCreated' },
  { roles: ['ADMIN'], resource: 'document', grant: ['*:any'] },
];

/** An error carrying the HTTP status to answer, as an application's authentication throws it. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** The engine, and every decision it logged (flush the log before reading them). */
export function documentsEngine(): { permissions: Permissions<AppUser>; events: DecisionEvent[] } {
  const events: DecisionEvent[] = [];
  const ownership = {
    isCreator: ({ user, resourceId }: { user: AppUser; resourceId: unknown }) => {
      if (user.id === 9) throw new Error('the ownership database is down');
      return CREATORS.get(resourceId as number) === user.id;
    },
    listCreated: ({ user }: { user: AppUser }) => [...CREATORS].filter(([, creator]) => creator === user.id).map(([id]) => id),
  };
  const permissions = permissionsFromDefinitions<AppUser>(DEFINITIONS, {
    ownership,
    resourceIdTypes: { document: 'number' },
    logger: { warn: () => undefined },
    onDecision: (event) => void events.push(event),
  });
  return { permissions, events };
}

/**
 * The user of `x-user-id`: `1` and `2` are employees, `9` an employee whose ownership check fails, `5` an admin; no
 * header is the anonymous placeholder; `boom` is a failing session store (500); anything else is unknown (401).
 */
export function userOf(request: FastifyRequest): AppUser {
  const header = request.headers['x-user-id'];
  if (header === undefined) return { id: 0, roles: ['ANONYMOUS'] };
  if (header === 'boom') throw new Error('the session store is down');
  if (header === '1' || header === '2' || header === '9') return { id: Number(header), roles: ['EMPLOYEE'] };
  if (header === '5') return { id: 5, roles: ['ADMIN'] };
  throw new HttpError(401, 'Unknown user.');
}

/** A guarded Fastify server on loopback: its address, the errors answered with 500, and the decisions logged. */
export interface GuardedServer {
  readonly app: FastifyInstance;
  readonly url: string;
  readonly serverErrors: unknown[];
  decisions(): Promise<DecisionEvent[]>;
}

/** `permit()` over the documents engine (default resource `document`), with extra options. */
export function permitFor(permissions: Permissions<AppUser>, serverErrors: unknown[], options: PermitOptions = {}): PermitRoute<'document', string> {
  return createPermitHook({
    permissions,
    resource: 'document',
    getUser: userOf,
    onServerError: (error) => void serverErrors.push(error),
    ...options,
  });
}

/** What a test sets beside the fixture's options. */
export interface PermitOptions {
  readonly getUser?: (request: FastifyRequest) => AppUser;
  readonly projectResourceId?: ProjectResourceId;
  readonly onServerError?: (error: unknown) => void;
}

/**
 * Starts a Fastify app on 127.0.0.1 (a free port) after `mount` registered its plugins and routes; closed by
 * {@link closeAll}.
 */
export async function serve(
  mount: (app: FastifyInstance, permit: PermitRoute<'document', string>) => void | Promise<void>,
  options: PermitOptions = {},
): Promise<GuardedServer> {
  const { permissions, events } = documentsEngine();
  const serverErrors: unknown[] = [];
  const app = Fastify();
  opened.push(app);
  await mount(app, permitFor(permissions, serverErrors, options));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    url,
    serverErrors,
    decisions: async () => {
      await permissions.decisionLog?.flush();
      return events;
    },
  };
}

const opened: FastifyInstance[] = [];

/** Closes every app {@link serve} started (call it in afterEach). */
export async function closeAll(): Promise<void> {
  await Promise.all(opened.splice(0).map((app) => app.close()));
}

/** An answer: the status, the parsed JSON body (or null for none), and the decision headers. */
export interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly version: string | null;
  readonly callId: string | null;
}

/** Asks the server listening at `server` (a Fastify app's or {@link serve}'s), bounded to 10 s. */
export async function ask(
  server: { readonly app: FastifyInstance },
  path: string,
  init: { method?: 'GET' | 'HEAD' | 'POST' | 'DELETE'; userId?: string | string[]; headers?: Record<string, string> } = {},
): Promise<Answer> {
  // One connection per request, closed with the answer: none is left open when a test closes its server.
  let pending = request(server.app.server)[(init.method ?? 'GET').toLowerCase() as 'get'](path).timeout(10_000).set('connection', 'close');
  for (const [name, value] of Object.entries(init.headers ?? {})) pending = pending.set(name, value);
  // An array is sent as that many headers of the name.
  if (init.userId !== undefined) pending = pending.set('x-user-id', init.userId as string);
  const response = await pending;
  const header = (name: string): string | null => (response.headers as Record<string, string | undefined>)[name] ?? null;
  return {
    status: response.status,
    body: response.text === '' || response.text === undefined ? null : (JSON.parse(response.text) as unknown),
    version: header('x-permissions-version'),
    callId: header('x-permissions-call-id'),
  };
}

/** Employees read their own documents only: a refusal of someone else's (or of one that does not exist) is 'not-owner'. */
export const FORBIDDEN = { statusCode: 403, error: 'Forbidden', message: 'read on document is not granted', reason: 'not-owner' };
export const INTERNAL = { statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' };
