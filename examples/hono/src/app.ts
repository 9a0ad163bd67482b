import { Hono } from 'hono';
import { memoryOwnership } from 'typed-permissions';
import { checkPermitRoutes, createPermitMiddleware, permissionsErrorHandler } from 'typed-permissions/hono';
import { createPermissions } from '../generated/index.js';
import { documents, type DocumentFilter } from './documents.js';
import { userOf, type AppUser } from './users.js';

// The records the rule "author" reads: the documents in the Map, as they are when the engine asks.
const ownershipRules = memoryOwnership({ document: () => [...documents.values()] });
const permissions = createPermissions<AppUser, DocumentFilter>({ ownershipRules });
const permit = createPermitMiddleware({ permissions, resource: 'document', getUser: userOf }); // permit({ action: 'raed' }) does not compile

/** The API, on any runtime Hono runs on: main.ts serves it on Node.js. */
export const app = new Hono();
app.get('/documents', permit({ action: 'list' }), async (c) => c.json(await c.var.permit.filterPick([...documents.values()])));
app.get('/documents/:id', permit({ action: 'read' }), async (c) => {
  const document = documents.get(c.var.permit.resourceId!); // checked on the document of :id, a number
  if (document === undefined) return c.json({ statusCode: 404, error: 'Not Found', message: 'No such document.' }, 404);
  return c.json(await c.var.permit.pick(document));
});
app.onError(permissionsErrorHandler()); // errors as JSON
checkPermitRoutes(app); // a route whose record id is ambiguous stops the start
