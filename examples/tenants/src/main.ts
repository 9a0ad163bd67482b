import type { AddressInfo } from 'node:net';
import express from 'express';
import { memoryOwnership } from 'typed-permissions';
import { checkPermitRoutes, createPermitMiddleware, permissionsErrorHandler, permitOf } from 'typed-permissions/express';
import { fileTenantRoles } from 'typed-permissions/live';
import { createPermissions } from '../generated/index.js';
import { documents, type DocumentFilter } from './documents.js';
import { tenantOf, userOf, type AppUser } from './users.js';

// The records the rules "ofTenant" and "authorInTenant" read: the documents in the Map, as they are when the engine asks.
const ownershipRules = memoryOwnership({ document: () => [...documents.values()] });
const permissions = createPermissions<AppUser, DocumentFilter>({ ownershipRules });
// Each company's custom roles, from the folder `npx typed-permissions tenant publish … --store tenant-roles` writes.
await permissions.followTenantRoles(fileTenantRoles(process.env.TENANT_ROLES_DIR ?? 'tenant-roles', { pollIntervalMs: 200 }));
const permit = createPermitMiddleware({ permissions, resource: 'document', getUser: userOf, getTenant: tenantOf });

const app = express();
app.get('/documents', permit({ action: 'list' }), async (req, res) => {
  res.json(await permitOf<AppUser, number, DocumentFilter>(req).filterPick([...documents.values()]));
});
app.get('/documents/:id', permit({ action: 'read' }), async (req, res) => {
  const permit = permitOf<AppUser, number, DocumentFilter>(req); // checked on the document of :id, in the request's tenant
  const document = documents.get(permit.resourceId as number);
  if (document === undefined) res.status(404).json({ statusCode: 404, error: 'Not Found', message: 'No such document.' });
  else res.json(await permit.pick(document));
});
app.use(permissionsErrorHandler()); // errors as JSON, registered last
checkPermitRoutes(app); // a route whose record id is ambiguous stops the start

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', (error) => {
  if (error !== undefined) throw error;
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
