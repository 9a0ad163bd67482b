/**
 * One instance of the tenants benchmark's propagation part, run as its own process:
 * `node --import tsx bench/harness/tenant-follower.ts <url> <schema> <channel> <changes> <tenants>`.
 * It builds the 1× scenario's engine, follows the PostgreSQL tenant roles store, and says `ready` once its watch
 * listens. Then, for each change in turn, it asks — every millisecond, as an application would on its next
 * request — whether the change's new role reads in the change's tenant, and prints when it first answers yes.
 * Every line it prints is one JSON event: `{ "event": "ready" | "answered", "change"?, "at" }` (its own clock).
 */
import { postgresTenantRoles } from '../../runtime/live/postgres-tenant-roles.js';
import { CountingOwnership } from './peers/counting-ownership.js';
import { buildPermissions } from './peers/typed-permissions.js';
import { createScenario } from './scenario.js';
import { changedRoleName, changedTenant, tenantQuestions } from './tenant-roles-documents.js';

const [url, schema, channel, changesText, tenantsText] = process.argv.slice(2);
if (url === undefined || schema === undefined || channel === undefined || changesText === undefined || tenantsText === undefined)
  throw new Error('usage: tenant-follower.ts <url> <schema> <channel> <changes> <tenants>');
const changes = Number(changesText);
const tenants = Number(tenantsText);

const scenario = createScenario(1);
const permissions = buildPermissions(scenario, new CountingOwnership());
const { granted } = tenantQuestions(scenario);
const source = postgresTenantRoles({ connectionString: url, schema, channel });
const watch = source.watch?.bind(source);
if (watch === undefined) throw new Error(`${source.description} has no watch`);
const print = (event: Record<string, unknown>): void => void process.stdout.write(`${JSON.stringify({ ...event, at: Date.now() })}\n`);

let listening: () => void = () => undefined;
const heard = new Promise<void>((resolve) => (listening = resolve));
const followed = await permissions.followTenantRoles({
  description: source.description,
  read: (tenant) => source.read(tenant),
  // The watch's first call (undefined: every tenant) comes when it listens: from then on no publish is missed.
  watch: (changed, failed) =>
    watch((tenant) => {
      changed(tenant);
      if (tenant === undefined) listening();
    }, failed),
});
await heard;
// Each change's tenant is read once before its publish, as a tenant in use is.
for (let change = 0; change < changes; change++) await permissions.loadTenant(changedTenant(change, tenants));
print({ event: 'ready' });

for (let change = 0; change < changes; change++) {
  const query = { user: { id: 1, roles: [changedRoleName(change)] }, resource: granted, action: 'read', tenant: changedTenant(change, tenants) };
  while (!(await permissions.grantPermit(query)).granted) await new Promise((resolve) => setTimeout(resolve, 1));
  print({ event: 'answered', change });
}
await followed.close();
