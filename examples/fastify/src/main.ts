import Fastify from 'fastify';
import { memoryOwnership } from 'typed-permissions';
import { createPermitHook, fastifyPermissions, permitOf } from 'typed-permissions/fastify';
import { createPermissions } from '../generated/index.js';
import { documents, type DocumentFilter } from './documents.js';
import { userOf, type AppUser } from './users.js';

// The records the rule "author" reads: the documents in the Map, as they are when the engine asks.
const ownershipRules = memoryOwnership({ document: () => [...documents.values()] });
const permissions = createPermissions<AppUser, DocumentFilter>({ ownershipRules });
const permit = createPermitHook({ permissions, resource: 'document', getUser: userOf }); // permit({ action: 'raed' }) does not compile

const app = Fastify();
await app.register(fastifyPermissions); // before the routes: it checks each guarded route as it is registered
app.get('/documents', { preHandler: permit({ action: 'list' }) }, async (request) => {
  return permitOf<AppUser, number, DocumentFilter>(request).filterPick([...documents.values()]);
});
app.get('/documents/:id', { preHandler: permit({ action: 'read' }) }, async (request, reply) => {
  const permit = permitOf<AppUser, number, DocumentFilter>(request); // checked on the document of :id, a number
  const document = documents.get(permit.resourceId as number);
  if (document === undefined) return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'No such document.' });
  return permit.pick(document);
});

// A route whose record id is ambiguous makes listen() reject: the server does not start with it.
const address = await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' });
console.log(`listening on ${address}`);
