import type { AddressInfo } from 'node:net';
import express from 'express';
import { checkPermitRoutes, createPermitMiddleware, permissionsErrorHandler, permitOf } from 'typed-permissions/express';
import { kyselyOwnership, type KyselyOwnershipFilter } from 'typed-permissions/kysely';
import { createPermissions } from '../generated/index.js';
import { createDatabase } from './database.js';
import { HttpError, userFrom, type AppUser } from './users.js';

const db = await createDatabase();
// The records behind the rules: where each resource a rule reads is stored. No ownership method is written.
const ownershipRules = kyselyOwnership(db, { tables: { document: 'documents', user: 'users' } });
const permissions = createPermissions<AppUser, KyselyOwnershipFilter>({ ownershipRules });
const permit = createPermitMiddleware({ permissions, resource: 'document', getUser: userFrom(db) });

/** A whole number of `query` between `min` and `max`, `fallback` when absent; anything else is 400. */
function whole(query: unknown, fallback: number, min: number, max: number, name: string): number {
  if (query === undefined) return fallback;
  const value = typeof query === 'string' && /^\d{1,9}$/.test(query) ? Number(query) : Number.NaN;
  if (!(value >= min && value <= max)) throw new HttpError(400, `${name} must be a whole number from ${min} to ${max}.`);
  return value;
}

const app = express();
// A page of the documents the caller may list, after the id `after`: the rules' filter is part of the query.
app.get('/documents', permit({ action: 'list' }), async (req, res) => {
  const permit = permitOf<AppUser, number, KyselyOwnershipFilter>(req);
  const limit = whole(req.query['limit'], 3, 1, 100, 'limit');
  const after = whole(req.query['after'], 0, 0, 999_999_999, 'after');
  const rows = await db
    .selectFrom('documents')
    .selectAll()
    .where(ownershipRules.where(permit))
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  res.json({ documents: await permit.filterPick(page), next: rows.length > limit ? (page.at(-1)?.id ?? null) : null });
});
app.get('/documents/:id', permit({ action: 'read' }), async (req, res) => {
  const permit = permitOf<AppUser, number, KyselyOwnershipFilter>(req); // granted: the caller owns the document of :id
  const document = await db
    .selectFrom('documents')
    .selectAll()
    .where('id', '=', permit.resourceId as number)
    .executeTakeFirst();
  if (document === undefined) res.status(404).json({ statusCode: 404, error: 'Not Found', message: 'No such document.' });
  else res.json(await permit.pick(document));
});
app.use(permissionsErrorHandler()); // errors as JSON, registered last
checkPermitRoutes(app); // a route whose record id is ambiguous stops the start

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', (error) => {
  if (error !== undefined) throw error;
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
