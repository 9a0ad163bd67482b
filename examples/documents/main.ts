/**
 * Starts the example documents app: `npm start` (after compiling the definitions and building).
 * PORT (default 3000), DATABASE_URL (default: an embedded, in-memory PGlite) and POLICY_FILE configure it;
 * DECISION_LOG_MAX_ROWS (default 10000) and DECISION_LOG_MAX_AGE_DAYS (default 7) bound its decision log.
 *
 * The policy is live. With DATABASE_URL it follows the PostgreSQL policy store in that database (what
 * `typed-permissions policy publish` writes); without, it follows POLICY_FILE (default generated/policy.json), so
 * recompiling the definitions while the app runs changes its grants within a second. Until the source holds a
 * version, the compiled tables answer.
 *
 * Each company is a tenant (its id as text). The companies' custom roles are followed too: with DATABASE_URL from the
 * PostgreSQL tenant roles store in that database; without, from the folder store TENANT_ROLES_DIR (default
 * tenant-roles/ at the repository's root, beside generated/). `typed-permissions tenant publish` changes them while
 * the app runs.
 */
import 'reflect-metadata';
import { fileURLToPath } from 'node:url';
import { NestFactory } from '@nestjs/core';
import { filePolicySource, fileTenantRoles, postgresPolicySource, postgresTenantRoles } from '../../runtime/live/index.js';
import { AppModule } from './app.module.js';
import { decisionLogBoundsOf } from './decision-log-bounds.js';

const port = Number(process.env['PORT'] ?? 3000);
const databaseUrl = process.env['DATABASE_URL'];
// npm run build writes the page next to the compiled app: dist/page; the compiler writes generated/ at the root.
const pageDir = fileURLToPath(new URL('../../page', import.meta.url));
const policyFile = process.env['POLICY_FILE'] ?? fileURLToPath(new URL('../../../generated/policy.json', import.meta.url));
const policySource = databaseUrl === undefined ? filePolicySource(policyFile) : postgresPolicySource({ connectionString: databaseUrl });
const defaultTenantRolesDir = fileURLToPath(new URL('../../../tenant-roles', import.meta.url));
const tenantRolesDir = process.env['TENANT_ROLES_DIR'] ?? defaultTenantRolesDir;
const tenantRoles = databaseUrl === undefined ? fileTenantRoles(tenantRolesDir) : postgresTenantRoles({ connectionString: databaseUrl });
let decisionLog: ReturnType<typeof decisionLogBoundsOf>;
try {
  decisionLog = decisionLogBoundsOf(process.env);
} catch (error) {
  console.error(`Example documents app: ${(error as Error).message}`);
  process.exit(1);
}
const app = await NestFactory.create(AppModule.forRoot({ databaseUrl, pageDir, policySource, tenantRoles, decisionLog }), { logger: ['error', 'warn'] });
app.enableShutdownHooks();
await app.listen(port, '127.0.0.1');

const base = `http://127.0.0.1:${port}`;
const changePolicy =
  databaseUrl === undefined
    ? `edit definitions/, then: npx typed-permissions compile definitions --out generated`
    : `npx typed-permissions policy publish definitions --database-url "$DATABASE_URL"   (then: policy list, policy rollback <n>)`;
const store = tenantRolesDir === defaultTenantRolesDir ? 'tenant-roles' : JSON.stringify(tenantRolesDir);
const publishRole = `npx typed-permissions tenant publish 1 examples/documents/custom-roles/qa-manager.json ${
  databaseUrl === undefined ? `--store ${store} --policy generated/policy.json` : '--database-url "$DATABASE_URL"'
}`;
console.log(`Example documents app on ${base} (${databaseUrl === undefined ? 'embedded PGlite' : 'PostgreSQL'}), policy from ${policySource.description}.
Change the policy while it runs: ${changePolicy}
Each company is a tenant; custom roles from ${tenantRoles.description}. Give company 1 its QA_MANAGER role (user 3 holds it; user 9 of company 2 too):
  ${publishRole}
  curl -i ${base}/documents-protected-simple/1 -H 'x-user-id: 3'    # 403 before, 200 after: QA_MANAGER reads company 1's documents
  curl -i ${base}/documents-protected-simple/4 -H 'x-user-id: 9'    # 403: company 2 defines no QA_MANAGER
Open ${base}/ in a browser: the documents of user 1, 2, 3, 4 or 5 and their company; the buttons the server would allow call its guarded endpoints. Or try:
  curl -i ${base}/documents-protected-simple/10 -H 'x-user-id: 1'   # 200: EMPLOYEE reads own document, no 'confidential'
  curl -i ${base}/documents-protected-simple/2 -H 'x-user-id: 1'    # 403: not EMPLOYEE 1's document
  curl -i ${base}/documents-protected-simple/5 -H 'x-user-id: 4'    # 200: COMPANY_ADMIN, all attributes
  curl -i ${base}/documents-protected-simple -H 'x-user-id: 1'      # 200: own documents in full, others title and date
  curl -i ${base}/documents-protected-simple -H 'x-user-id: 4'      # 403: COMPANY_ADMIN may not list
  curl -i ${base}/documents-owned -H 'x-user-id: 2'                 # 200: only the documents EMPLOYEE_MANAGER 2 owns (SQL filter)
  curl -i -X PATCH ${base}/documents-protected-simple/50 -H 'x-user-id: 4' -H 'content-type: application/json' -d '{"title":"Budget 2025"}'
                                                                    # 200: COMPANY_ADMIN renames a document of their company
  curl -i -X PATCH ${base}/documents-protected-simple/10 -H 'x-user-id: 1' -H 'content-type: application/json' -d '{"title":"Mine"}'
                                                                    # 403: EMPLOYEE may not update
  curl -i -X POST ${base}/documents-protected-simple/20/review -H 'x-user-id: 2'   # 200: EMPLOYEE_MANAGER approves their own document
  curl -i -X DELETE ${base}/documents-protected-simple/40 -H 'x-user-id: 2'        # 200: EMPLOYEE_MANAGER deletes a managed user's document
  curl -i ${base}/documents-protected-simple/1                      # 403: anonymous
  curl -i ${base}/documents/1                                       # 200: the unprotected sibling
  curl ${base}/me/permissions -H 'x-user-id: 1'                     # the slice the browser client reads
GraphQL at POST ${base}/graphql, same x-user-id header:
  curl ${base}/graphql -H 'content-type: application/json' -H 'x-user-id: 1' -d '{"query":"{ document(id: 10) { id title confidential } }"}'
  curl ${base}/graphql -H 'content-type: application/json' -H 'x-user-id: 1' -d '{"query":"{ documents { id title date } }"}'`);
