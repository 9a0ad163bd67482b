/**
 * The example documents app on express instead of NestJS: the same database, ownership rules and
 * compiled definitions, with `permit({ action })` in each route. The express end-to-end tests run this app;
 * docs/express.md shows the same calls in a project of its own (its code blocks are tested from the packages).
 */
import express, { type Express, type Request, type Response } from 'express';
import type { Kysely } from 'kysely';
import { createPermissions } from '../../generated/index.js';
import { checkPermitRoutes, createPermitMiddleware, permissionsErrorHandler, permitOf } from '../../runtime/express/index.js';
import { tenantOfUser, type AppUser } from './app-user.js';
import type { DocumentFilter } from './document-filter.js';
import { documentOwnershipRules } from './document-ownership-rules.js';
import { nextPageLink, pageRequestOf, PageRequestError, type DocumentPageRequest } from './document-page.js';
import { DocumentsRepository } from './documents.repository.js';
import { exampleAnonymousUser } from './example-data.js';
import type { ExampleDatabase } from './example-database.js';
import { UsersRepository } from './users.repository.js';

/** An error with the HTTP status to answer (what `getUser` throws for an unknown caller). */
class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const POSITIVE_INT = /^[1-9]\d{0,8}$/;

/** The caller of `req`: the user its x-user-id header names, the anonymous placeholder user without one, or an HttpError 401. */
async function readUser(users: UsersRepository, req: Request): Promise<AppUser> {
  const header = req.get('x-user-id');
  if (header === undefined) return exampleAnonymousUser;
  const user = POSITIVE_INT.test(header) ? await users.findUser(Number(header)) : undefined;
  if (user === undefined) throw new HttpError(401, 'x-user-id must be the id of a user.');
  return user;
}

/** The page request of `req`'s query string, or an HttpError 400 saying which parameter is wrong. */
function pageRequest(req: Request): DocumentPageRequest {
  try {
    return pageRequestOf(req.query);
  } catch (error) {
    if (error instanceof PageRequestError) throw new HttpError(400, error.message);
    throw error;
  }
}

/** The `Link` header of the next page, when there is one. */
function linkNext(res: Response, path: string, request: DocumentPageRequest, next: number | undefined): void {
  const link = nextPageLink(path, request, next);
  if (link !== undefined) res.set('Link', link);
}

/**
 * Creates the express documents app: `GET /documents/:id`, `GET /documents`, `GET /documents-owned`.
 * `onError` sees every error answered with 500.
 *
 * @example
 * ```ts
 * const app = createExpressDocumentsApp(await createSeededDatabase());
 * app.listen(3001);
 * ```
 */
export function createExpressDocumentsApp(db: Kysely<ExampleDatabase>, onError: (error: unknown) => void = () => undefined): Express {
  const users = new UsersRepository(db);
  const documents = new DocumentsRepository(db);
  const ownershipRules = documentOwnershipRules(db);
  const permissions = createPermissions<AppUser, DocumentFilter>({ ownershipRules });
  // The user and the tenant are both read from the caller: one database read per request serves both.
  const usersOfRequests = new WeakMap<Request, Promise<AppUser>>();
  const userOf = (req: Request): Promise<AppUser> => {
    let user = usersOfRequests.get(req);
    if (user === undefined) {
      user = readUser(users, req);
      usersOfRequests.set(req, user);
    }
    return user;
  };
  const permit = createPermitMiddleware({
    permissions, // typed: permit({ action: 'raed' }) does not compile
    resource: 'document',
    // The application authenticates; no x-user-id header is the anonymous placeholder user.
    getUser: (req: Request) => userOf(req),
    // Questions are asked in the tenant of the caller's company (none for a user of no company).
    getTenant: async (req: Request) => tenantOfUser(await userOf(req)),
    // Document ids are positive: undefined answers 400 before any check (without it, "idType": "number" projects the id).
    projectResourceId: (raw) => (POSITIVE_INT.test(raw) ? Number(raw) : undefined),
  });

  const app = express();
  app.get('/documents/:id', permit({ action: 'read' }), async (req, res) => {
    const permit = permitOf<AppUser, number, DocumentFilter>(req);
    const document = await documents.findById(permit.resourceId as number);
    if (document === undefined) res.status(404).json({ statusCode: 404, error: 'Not Found', message: 'No such document.' });
    else res.json(await permit.pick(document));
  });
  // Lists page by keyset (?limit=&after=); the records the permit may list are a condition of the page's query.
  app.get('/documents', permit({ action: 'list' }), async (req, res) => {
    const permit = permitOf<AppUser, number, DocumentFilter>(req);
    const request = pageRequest(req);
    const page = await documents.findPage(ownershipRules.where(permit), request);
    linkNext(res, '/documents', request, page.next);
    res.json(await permit.filterPick(page.rows));
  });
  app.get('/documents-owned', permit({ action: 'list' }), async (req, res) => {
    const permit = permitOf<AppUser, number, DocumentFilter>(req);
    const request = pageRequest(req);
    const page = await documents.findPage(permit.limitOwn(), request);
    linkNext(res, '/documents-owned', request, page.next);
    res.json(await permit.filterPick(page.rows));
  });
  app.use(permissionsErrorHandler({ onServerError: onError })); // JSON errors: 401 from getUser, 500 without details
  checkPermitRoutes(app); // an ambiguous record id stops the boot, not the first request
  return app;
}
