/**
 * Remote permissions over a decision service whose policy names ownership rules (the ownership-rules fixture,
 * compiled): rule groups are decided here, by the application's rule source, and every answer — granted,
 * attributes, isOwn, filterPick, listOwn, limitOwn, ownershipScope — is the embedded engine's for every user,
 * action and record. A policy naming rules without the rule source is refused at start (and, when a later version
 * names them, when a role set is asked); a new version's rules are read with its slices; a malformed rule from the
 * service is refused, never granted.
 */
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { compileModel } from '../../compiler/model/compile-model.js';
import { PermissionsUsageError } from '../../runtime/core/common/errors.js';
import { memoryOwnership } from '../../runtime/core/ownership-rules/memory-ownership.js';
import type { GrantTables } from '../../runtime/core/tables/grant-tables.js';
import { permissionsFromTables } from '../../runtime/permissions/precompiled-permissions.js';
import { createRemotePermissions, PermissionsServiceError, type RemotePermissions } from '../../runtime/remote/index.js';
import { createDecisionService, type DecisionService } from '../../runtime/service/index.js';
import { filePolicySource } from '../../runtime/live/index.js';
import { policyBundleOf, type PolicyBundle } from '../../runtime/live/policy-bundle.js';
import { fixture } from '../compiler/helpers.js';
import { fixtureService, recordingLogger, TOKEN, until } from '../service/service-fixture.js';

const USERS = [
  { id: 1, companyId: 10 },
  { id: 2, companyId: 10 },
  { id: 3, companyId: 20 },
];
const DOCUMENTS = [
  { id: 100, title: 'a', confidential: 'x', creatorId: 1 },
  { id: 101, title: 'b', confidential: 'y', creatorId: 2 },
  { id: 102, title: 'c', confidential: 'z', creatorId: 3 },
  { id: 103, title: 'd', confidential: 'w', creatorId: null },
];
/** A user with the attributes the fixture's rules read. */
interface Person {
  readonly id: number;
  readonly roles: string[];
  readonly companyId: number | null;
  readonly managedUserIds: number[] | null;
}
const PEOPLE: readonly Person[] = [
  { id: 1, roles: ['EMPLOYEE'], companyId: 10, managedUserIds: [] },
  { id: 2, roles: ['MANAGER'], companyId: 10, managedUserIds: [3] },
  { id: 9, roles: ['COMPANY_ADMIN'], companyId: 10, managedUserIds: null },
  { id: 8, roles: ['COMPANY_ADMIN'], companyId: null, managedUserIds: null },
  { id: 7, roles: ['AUDITOR', 'EMPLOYEE'], companyId: 20, managedUserIds: [] },
  { id: 3, roles: ['MANAGER', 'COMPANY_ADMIN'], companyId: 20, managedUserIds: [1, 2] },
  { id: 5, roles: ['SUPER_ADMIN'], companyId: 10, managedUserIds: [] },
];
const ACTIONS = ['read', 'review', 'update', 'list'] as const;
const hooks = { isAudited: ({ resourceId }: { resourceId: unknown }) => resourceId === 101, listAudited: () => [101] };
const quiet = { warn: () => undefined };

let tables: GrantTables;
let service: DecisionService;
let url: string;
const opened: RemotePermissions[] = [];
const servers: Server[] = [];

beforeAll(async () => {
  const compiled = compileModel(fixture('ownership-rules'));
  if (!compiled.ok) throw new Error(`the ownership-rules fixture does not compile: ${JSON.stringify(compiled.problems)}`);
  tables = compiled.model.tables;
  service = await fixtureService({ tables });
  url = await service.listen();
}, 30_000);

afterAll(async () => {
  for (const permissions of opened) permissions.close();
  for (const server of servers) server.close();
  await service.close();
});

async function remote(options: Partial<Parameters<typeof createRemotePermissions>[0]> = {}) {
  const permissions = await createRemotePermissions({
    url,
    token: TOKEN,
    ownership: hooks,
    ownershipRules: memoryOwnership({ document: DOCUMENTS, user: USERS }),
    logger: quiet,
    ...options,
  });
  opened.push(permissions as RemotePermissions);
  return permissions;
}

/** Everything a permit answers about the documents, read the same way from a remote and an embedded permit. */
async function answersOf(permissions: { grantPermit(query: object): Promise<unknown> }, user: Person, action: (typeof ACTIONS)[number]) {
  type Answering = {
    granted: boolean;
    isOwn(id: number): Promise<boolean>;
    filterPick(items: readonly object[]): Promise<object[]>;
    pick(item: object): Promise<object> | object;
    listOwn(): Promise<unknown>;
    limitOwn(): unknown;
    ownershipScope(): { scope: unknown };
  };
  const grant = (resourceId?: number) =>
    permissions.grantPermit({ user, resource: 'document', action, ...(resourceId === undefined ? {} : { resourceId }) }) as Promise<Answering>;
  const permit = await grant();
  const settle = async (run: () => unknown) => {
    try {
      return { value: await run() };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };
  const limit = await settle(() => permit.limitOwn());
  return {
    perRecord: await Promise.all(
      DOCUMENTS.map(async (document) => {
        const one = await grant(document.id);
        return { granted: one.granted, isOwn: await permit.isOwn(document.id), picked: one.granted ? await one.pick(document) : null };
      }),
    ),
    filterPick: await permit.filterPick(DOCUMENTS),
    listOwn: await settle(() => permit.listOwn()),
    limited: 'value' in limit && typeof limit.value === 'function' ? DOCUMENTS.filter(limit.value as (record: object) => boolean).map((d) => d.id) : limit,
    scope: await settle(() => permit.ownershipScope().scope),
  };
}

describe('remote permissions with ownership rules', () => {
  it('answer as the embedded engine for every user, action and record', async () => {
    const permissions = await remote();
    const embedded = permissionsFromTables(
      { format: 1, version: 'v', tables },
      { ownership: hooks, ownershipRules: memoryOwnership({ document: DOCUMENTS, user: USERS }), logger: quiet },
    );
    for (const user of PEOPLE)
      for (const action of ACTIONS) {
        const expected = await answersOf(embedded, user, action);
        expect({ user: user.id, action, ...(await answersOf(permissions, user, action)) }).toEqual({ user: user.id, action, ...expected });
      }
  });

  it('decide ownership with the rule: a concrete look at one manager', async () => {
    const permissions = await remote();
    const manager = PEOPLE[1] as Person;
    const permit = await permissions.grantPermit({ user: manager, resource: 'document', action: 'read' });
    expect(await Promise.all(DOCUMENTS.map((document) => permit.isOwn(document.id)))).toEqual([false, true, true, false]);
    expect(await permit.listOwn()).toEqual([101, 102]);
    expect(permit.ownershipScope().scope).toEqual({
      any: [
        { attribute: 'creatorId', equals: { user: 'id' } },
        { attribute: 'creatorId', in: { user: 'managedUserIds' } },
      ],
    });
    const one = await permissions.grantPermit({ user: manager, resource: 'document', action: 'read', resourceId: 102 });
    expect([one.granted, await one.pick(DOCUMENTS[2] as object)]).toEqual([true, DOCUMENTS[2]]);
  });

  it('a user without an attribute the rule reads is refused, never granted', async () => {
    const permissions = await remote();
    const noCompany = { id: 9, roles: ['COMPANY_ADMIN'] } as unknown as Person;
    await expect(permissions.grantPermit({ user: noCompany, resource: 'document', action: 'read', resourceId: 100 })).rejects.toThrow(
      'Ownership hook rule sameCompany threw: The user has no attribute "companyId", which an ownership rule reads. ' +
        'Give the user object "companyId" (null when it has no value).',
    );
  });

  it('a policy naming rules without ownershipRules is refused at start, naming the rules', async () => {
    const attempt = createRemotePermissions({ url, token: TOKEN, ownership: hooks, logger: quiet });
    await expect(attempt).rejects.toBeInstanceOf(PermissionsUsageError);
    await expect(attempt).rejects.toThrow(
      `The policy of the decision service at ${url}/ names ownership rules (document "creator", document "creatorOrManaged", document "sameCompany"): ` +
        'give createRemotePermissions ownershipRules, the source of the records they read (kyselyOwnership(db, { tables }), memoryOwnership(records)). ' +
        'Rules are evaluated in this application, on its records.',
    );
  });

  it('a policy naming ownership methods without the ownership option is refused at start, naming the methods', async () => {
    const attempt = createRemotePermissions({ url, token: TOKEN, ownershipRules: memoryOwnership({ document: DOCUMENTS, user: USERS }), logger: quiet });
    await expect(attempt).rejects.toBeInstanceOf(PermissionsUsageError);
    await expect(attempt).rejects.toThrow(
      `The policy of the decision service at ${url}/ names ownership methods (isOwner "isAudited", listOwned "listAudited"): ` +
        'give createRemotePermissions ownership, the service that has them (they run in this application, never in the service).',
    );
  });

  it('an ownershipRules option that is no rule source is refused', async () => {
    await expect(remote({ ownershipRules: { filter: () => undefined } as never })).rejects.toThrow(
      "createRemotePermissions(): ownershipRules must be a source of the rules' records: an object with filter, ownedAmong and listOwned methods " +
        '(kyselyOwnership(db, { tables }), memoryOwnership(records)).',
    );
  });
});

describe('a service answering malformed rules', () => {
  /** A server answering GET /v1/policy with the real policy changed by `change`. */
  async function tampered(change: (policy: Record<string, unknown>) => void): Promise<string> {
    const policy = (await (await fetch(`${url}/v1/policy`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as Record<string, unknown>;
    change(policy);
    const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(policy)));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  }
  const rulesOf = (policy: Record<string, unknown>) => policy['ownershipRules'] as { rules: Record<string, unknown>[]; relations: unknown };

  it.each([
    ['no rules', (policy: Record<string, unknown>) => delete policy['ownershipRules'], 'ownershipRules has no list of rules'],
    [
      'a condition that is no rule',
      (policy: Record<string, unknown>) => ((rulesOf(policy).rules[0] as Record<string, unknown>)['condition'] = { attribute: 'creatorId' }),
      'ownershipRules.rules[0].condition is not a rule: ',
    ],
    [
      'a rule named __proto__',
      (policy: Record<string, unknown>) => ((rulesOf(policy).rules[1] as Record<string, unknown>)['name'] = '__proto__'),
      'ownershipRules.rules[1] is not a rule { resource, name, condition, userAttributes }',
    ],
    [
      'an unknown user attribute type',
      (policy: Record<string, unknown>) => ((rulesOf(policy).rules[2] as Record<string, unknown>)['userAttributes'] = { id: 'bigint' }),
      'ownershipRules.rules[2].userAttributes is not user attribute types by name',
    ],
    [
      'relations that are not relations',
      (policy: Record<string, unknown>) => (rulesOf(policy).relations = { document: { creator: 'user' } }),
      'ownershipRules.relations is not relations by resource',
    ],
  ])('%s: refused at start, never granted', async (_what, change, problem) => {
    const attempt = remote({ url: await tampered(change) });
    await expect(attempt).rejects.toBeInstanceOf(PermissionsServiceError);
    await expect(attempt).rejects.toThrow(`GET /v1/policy is not an answer of the decision service (${problem}`);
  });
});

describe('a service whose check answers name a rule its policy does not list', () => {
  it('is refused when the role set is asked, never granted', async () => {
    // The policy's answer loses its rules on the way; the check answers still name them.
    const withoutRules: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input instanceof Request ? input.url : input).endsWith('/v1/policy')) return response;
      const policy = (await response.json()) as Record<string, unknown>;
      return new Response(JSON.stringify({ ...policy, ownershipRules: { rules: [], relations: {} } }), { headers: { 'content-type': 'application/json' } });
    };
    const permissions = await remote({ fetch: withoutRules });
    const attempt = permissions.grantPermit({ user: PEOPLE[0] as Person, resource: 'document', action: 'read', resourceId: 100 });
    await expect(attempt).rejects.toBeInstanceOf(PermissionsServiceError);
    await expect(attempt).rejects.toThrow(
      'The decision service decides ownership group 0 on document by the rule "creator", which its policy does not list; nothing is granted.',
    );
  });
});

describe('a service whose policy is never of the slice’s version', () => {
  it('is asked again a bounded number of times, then refused, never granted', async () => {
    const calls: string[] = [];
    const otherVersion: typeof fetch = async (input, init) => {
      const path = new URL(input instanceof Request ? input.url : input).pathname;
      calls.push(path);
      const response = await fetch(input, init);
      if (path !== '/v1/policy') return response;
      const policy = (await response.json()) as Record<string, unknown>;
      return new Response(JSON.stringify({ ...policy, policyVersion: 'f'.repeat(64) }), { headers: { 'content-type': 'application/json' } });
    };
    const permissions = await remote({ fetch: otherVersion });
    const attempt = permissions.grantPermit({ user: PEOPLE[0] as Person, resource: 'document', action: 'read', resourceId: 100 });
    await expect(attempt).rejects.toThrow(
      new PermissionsServiceError("The decision service's policy changed 3 times while its ownership rules were asked; nothing is granted. Ask again."),
    );
    expect(calls).toEqual(['/v1/policy', ...Array.from({ length: 3 }, () => ['/v1/slice', '/v1/check', '/v1/policy']).flat()]);
  });
});

describe('a policy version that changes its rules', () => {
  let folder: string;
  let followed: DecisionService | undefined;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'typed-permissions-remote-rules-'));
  });
  afterAll(async () => {
    await followed?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** The bundle of the fixture with its definitions changed by `edit`, and its document resource file by `editResource`. */
  function variant(
    name: string,
    edit: (definitions: Record<string, unknown>[]) => Record<string, unknown>[],
    editResource: (resource: Record<string, unknown>) => Record<string, unknown> = (resource) => resource,
  ): PolicyBundle {
    const copy = join(folder, name);
    cpSync(fixture('ownership-rules'), copy, { recursive: true });
    // The fixture's policy tests are of its own definitions.
    rmSync(join(copy, 'documents.permissions.test.json'));
    const file = join(copy, 'document.permissions.json');
    writeFileSync(file, JSON.stringify(edit(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>[])));
    const resourceFile = join(copy, 'document.resource.json');
    writeFileSync(resourceFile, JSON.stringify(editResource(JSON.parse(readFileSync(resourceFile, 'utf8')) as Record<string, unknown>)));
    const compiled = compileModel(copy);
    if (!compiled.ok) throw new Error(`the ${name} variant does not compile: ${JSON.stringify(compiled.problems)}`);
    return policyBundleOf(compiled.model.tables);
  }

  /** A service following a policy file that starts as `first`; `swapIn` replaces the file's bundle. */
  async function following(first: PolicyBundle) {
    const file = join(folder, `policy-${first.version}.json`);
    const swapIn = (bundle: PolicyBundle) => {
      writeFileSync(`${file}.next`, JSON.stringify(bundle));
      renameSync(`${file}.next`, file);
    };
    swapIn(first);
    await followed?.close();
    followed = await createDecisionService({ source: filePolicySource(file, { pollIntervalMs: 20 }), tokens: [TOKEN], port: 0, logger: recordingLogger() });
    return { target: await followed.listen(), swapIn, service: followed };
  }

  it('a role set of the new version is decided by the new version’s rules', async () => {
    // The same rule name, another condition: the creator rule now holds for the documents of the users one manages.
    const employeeOwnsManaged = variant(
      'managed',
      (definitions) => definitions,
      (resource) => ({
        ...resource,
        ownership: { ...(resource['ownership'] as object), creator: { attribute: 'creatorId', in: { user: 'managedUserIds' } } },
      }),
    );
    const { target, swapIn, service: served } = await following(policyBundleOf(tables));
    const permissions = await remote({ url: target, refreshIntervalMs: 600_000 });
    const employee = { ...(PEOPLE[0] as Person), managedUserIds: [3] };
    const owned = async (user: Person) => (await permissions.grantPermit({ user, resource: 'document', action: 'read' })).listOwn();
    expect(await owned(employee)).toEqual([100]);
    swapIn(employeeOwnsManaged);
    await until('the new version active', () => served.policyVersion === employeeOwnsManaged.version);
    // A role set asked now is of the new version, and so are the rules its groups are bound to.
    expect(await owned({ ...employee, roles: ['EMPLOYEE', 'NOBODY'] })).toEqual([102]);
    expect(permissions.policyVersion).toBe(employeeOwnsManaged.version);
  }, 30_000);

  it('without ownershipRules, a later version naming rules is refused when a role set meets one', async () => {
    const hooksOnly = variant('hooks-only', (definitions) => definitions.filter((definition) => definition['owner'] === undefined));
    const { target, swapIn, service: served } = await following(hooksOnly);
    const permissions = await remote({ url: target, ownershipRules: undefined, refreshIntervalMs: 600_000 });
    const auditor = PEOPLE[4] as Person;
    expect(await (await permissions.grantPermit({ user: { ...auditor, roles: ['AUDITOR'] }, resource: 'document', action: 'read' })).listOwn()).toEqual([101]);
    swapIn(policyBundleOf(tables));
    await until('the version with rules active', () => served.policyVersion !== hooksOnly.version);
    const attempt = permissions.grantPermit({ user: auditor, resource: 'document', action: 'read' });
    await expect(attempt).rejects.toBeInstanceOf(PermissionsUsageError);
    await expect(attempt).rejects.toThrow(
      'The policy of the decision service decides ownership of document by the ownership rule "creator": give createRemotePermissions ownershipRules, ' +
        'the source of the records its rules read (kyselyOwnership(db, { tables }), memoryOwnership(records)).',
    );
  }, 30_000);
});
