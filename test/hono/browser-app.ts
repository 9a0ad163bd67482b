/**
 * A small Hono application guarded by typed-permissions/hono, written for runtimes other than Node.js: the test
 * bundles it for the browser (no Node.js built-in may be imported) and runs it in headless Chromium, where it
 * answers `Request`s through `app.fetch`. It uses the compiled tables of this repository's definitions.
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { createPermissions, type PermissionsRuleUser, type PolicyUser } from '../../generated/index.js';
import { checkPermitRoutes, createPermitMiddleware, permissionsErrorHandler } from '../../runtime/hono/index.js';
import { memoryOwnership } from '../../runtime/ownership/index.js';

/** A user with the attributes the ownership rules of the definitions read. */
type AppUser = PolicyUser<number> & PermissionsRuleUser;

interface Document {
  readonly id: number;
  readonly title: string;
  readonly date: string;
  readonly status: string;
  readonly personal: string;
  readonly confidential: string;
  readonly creatorId: number;
}

const documents = new Map<number, Document>([
  [1, { id: 1, title: 'Travel policy', date: '2026-01-05', status: 'draft', personal: 'p1', confidential: 'c1', creatorId: 1 }],
  [2, { id: 2, title: 'Team offsite', date: '2026-02-10', status: 'final', personal: 'p2', confidential: 'c2', creatorId: 2 }],
]);
const users = new Map<string, AppUser>([
  ['1', { id: 1, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: [] }],
  ['2', { id: 2, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: [] }],
]);

type DocumentFilter = (document: Document) => boolean;

/** The ownership rules read the documents and the users' companies held here, in memory. */
const ownershipRules = memoryOwnership({ document: () => [...documents.values()], user: () => [...users.values()] });

const permit = createPermitMiddleware({
  permissions: createPermissions<AppUser, DocumentFilter>({ ownershipRules }),
  resource: 'document',
  getUser: (c) => {
    const user = users.get(c.req.header('x-user-id') ?? '');
    if (user === undefined) throw new HTTPException(401, { message: 'Unknown user.' });
    return user;
  },
});

const app = new Hono()
  .get('/documents', permit({ action: 'list' }), async (c) => c.json(await c.var.permit.filterPick([...documents.values()])))
  .get('/documents/:id', permit({ action: 'read' }), async (c) => {
    const document = documents.get(c.var.permit.resourceId as number);
    if (document === undefined) return c.json({ statusCode: 404, error: 'Not Found', message: 'No such document.' }, 404);
    return c.json(await c.var.permit.pick(document));
  })
  .onError(permissionsErrorHandler());
checkPermitRoutes(app);

/** A response as the page hands it back to the test. */
export interface PageAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Sends a GET to the application through `app.fetch`, as a service worker or an edge runtime would.
 *
 * @example
 * ```ts
 * await answer('/documents/1', '1'); // { status: 200, body: { id: 1, … }, headers: { … } }
 * ```
 */
export async function answer(path: string, userId: string | undefined): Promise<PageAnswer> {
  const response = await app.fetch(new Request(`https://documents.test${path}`, { headers: userId === undefined ? {} : { 'x-user-id': userId } }));
  return { status: response.status, body: await response.json(), headers: Object.fromEntries(response.headers) };
}

(globalThis as { honoInBrowser?: unknown }).honoInBrowser = { answer };
