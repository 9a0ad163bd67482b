/**
 * Starts the example documents app: `npm start` (after compiling the definitions and building).
 * PORT (default 3000) and DATABASE_URL (default: an embedded, in-memory PGlite) configure it.
 */
import 'reflect-metadata';
import { fileURLToPath } from 'node:url';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

const port = Number(process.env['PORT'] ?? 3000);
// npm run build writes the page next to the compiled app: dist/page.
const pageDir = fileURLToPath(new URL('../../page', import.meta.url));
const app = await NestFactory.create(AppModule.forRoot({ databaseUrl: process.env['DATABASE_URL'], pageDir }), { logger: ['error', 'warn'] });
app.enableShutdownHooks();
await app.listen(port, '127.0.0.1');

const base = `http://127.0.0.1:${port}`;
console.log(`Example documents app on ${base} (${process.env['DATABASE_URL'] ? 'PostgreSQL' : 'embedded PGlite'}).
Open ${base}/ in a browser: the documents of user 1, 2 or 4, with the buttons the server would allow. Or try:
  curl -i ${base}/documents-protected-simple/10 -H 'x-user-id: 1'   # 200: EMPLOYEE reads own document, no 'confidential'
  curl -i ${base}/documents-protected-simple/2 -H 'x-user-id: 1'    # 403: not EMPLOYEE 1's document
  curl -i ${base}/documents-protected-simple/5 -H 'x-user-id: 4'    # 200: COMPANY_ADMIN, all attributes
  curl -i ${base}/documents-protected-simple -H 'x-user-id: 1'      # 200: own documents in full, others title and date
  curl -i ${base}/documents-protected-simple -H 'x-user-id: 4'      # 403: COMPANY_ADMIN may not list
  curl -i ${base}/documents-owned -H 'x-user-id: 2'                 # 200: only the documents EMPLOYEE_MANAGER 2 owns (SQL filter)
  curl -i ${base}/documents-protected-simple/1                      # 403: anonymous
  curl -i ${base}/documents/1                                       # 200: the unprotected sibling
  curl ${base}/me/permissions -H 'x-user-id: 1'                     # the slice the browser client reads
GraphQL at POST ${base}/graphql, same x-user-id header:
  curl ${base}/graphql -H 'content-type: application/json' -H 'x-user-id: 1' -d '{"query":"{ document(id: 10) { id title confidential } }"}'
  curl ${base}/graphql -H 'content-type: application/json' -H 'x-user-id: 1' -d '{"query":"{ documents { id title date } }"}'`);
