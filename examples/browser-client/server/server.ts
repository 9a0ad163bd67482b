/**
 * The server of the page: it serves the page, each user's slice of the permissions (GET /me/permissions) and the
 * documents, guarded by typed-permissions/express. The page's buttons follow the slice; these routes decide.
 */
import type { AddressInfo } from 'node:net';
import express, { type Request } from 'express';
import { memoryOwnership } from 'typed-permissions';
import { checkPermitRoutes, createPermitMiddleware, permissionsErrorHandler, permitOf } from 'typed-permissions/express';
import { createPermissions, type PolicyUser } from '../generated/index.js';

type User = PolicyUser<number>;

interface Document {
  readonly id: number;
  readonly title: string;
  readonly text: string;
  readonly ownerId: number;
  readonly confidential: string;
}

// In memory: a database is not the point here.
const users = new Map<number, User>([
  [1, { id: 1, roles: ['EMPLOYEE'] }],
  [2, { id: 2, roles: ['EMPLOYEE'] }],
  [3, { id: 3, roles: ['MANAGER'] }],
]);
const documents = new Map<number, Document>([
  [1, { id: 1, title: 'Travel policy', text: 'Trains under 700 km.', ownerId: 1, confidential: 'Reviewed by legal.' }],
  [2, { id: 2, title: 'Team offsite', text: 'Lisbon, 12 to 14 May.', ownerId: 2, confidential: 'Budget: 9,000 EUR.' }],
  [3, { id: 3, title: 'Onboarding', text: 'Laptops on day one.', ownerId: 1, confidential: 'Two hires in June.' }],
]);

/** A request without a user gets this placeholder, whose role has definitions of its own. */
const visitor: User = { id: 0, roles: ['ANONYMOUS'] };

/** An error with the HTTP status to answer; permissionsErrorHandler() answers it as JSON. */
class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Who calls. The x-user-id header stands in for your authentication (a session cookie, a bearer token). */
function userOf(req: Request): User {
  const header = req.get('x-user-id');
  if (header === undefined) return visitor;
  const user = /^[1-9]\d{0,8}$/.test(header) ? users.get(Number(header)) : undefined;
  if (user === undefined) throw new HttpError(401, 'x-user-id must be the id of a user.');
  return user;
}

// The records the rule "documentOwner" reads: the documents in the Map, as they are when the engine asks.
const permissions = createPermissions<User>({ ownershipRules: memoryOwnership({ document: () => [...documents.values()] }) });
const permit = createPermitMiddleware({ permissions, resource: 'document', getUser: userOf });

const app = express();
// The client compiles no code at run time, so the page runs under a strict Content-Security-Policy.
app.use((_req, res, next) => {
  res.set('content-security-policy', "default-src 'self'");
  next();
});
// The page: public/ holds its HTML and CSS, the build writes its script to dist/public/ (npm start runs here).
app.use(express.static('public'), express.static('dist/public'));

// The caller's slice. No check: a user may always learn what they themselves may do.
app.get('/me/permissions', (req, res) => {
  res.json(permissions.sliceFor(userOf(req)));
});

// Every document the caller may list, with the attributes the list permit keeps and the caller's groups that own it.
app.get('/documents', permit({ action: 'list' }), async (req, res) => {
  const permit = permitOf<User, number>(req);
  const rows = [...documents.values()];
  const ownedBy = await permit.owningGroups(rows.map((row) => row.id));
  const picked = await Promise.all(rows.map((row) => permit.pick(row)));
  res.json(rows.flatMap((_, i) => (Object.keys(picked[i] ?? {}).length === 0 ? [] : [{ document: picked[i], ownedBy: ownedBy[i] ?? [] }])));
});

app.get('/documents/:id', permit({ action: 'read' }), async (req, res) => {
  const permit = permitOf<User, number>(req);
  const document = documents.get(permit.resourceId as number);
  if (document === undefined) throw new HttpError(404, `No document ${permit.resourceId}.`);
  res.json(await permit.pick(document));
});

app.delete('/documents/:id', permit({ action: 'delete' }), (req, res) => {
  const id = permitOf<User, number>(req).resourceId as number;
  if (!documents.delete(id)) throw new HttpError(404, `No document ${id}.`);
  res.status(204).end();
});

app.use(permissionsErrorHandler());
checkPermitRoutes(app);

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', (error?: Error) => {
  if (error !== undefined) throw error;
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
