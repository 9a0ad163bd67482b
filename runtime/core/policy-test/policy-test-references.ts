/**
 * What the tests of a policy name, checked against its tables: every user a test or an ownership entry names is a
 * user of its file; every ownership method is one the definitions name (an isOwner, listOwned, limitOwned or
 * ownedAmong method); every resource and action is one the definitions know; every id has its resource's declared
 * type (a record's too, of a resource only the relations of ownership rules reach); every record a test picks from
 * is there. Run on tests whose shape is already checked
 * (policy-test-shape.ts).
 */
import { quoteForMessage } from '../common/printable-text.js';
import { projectResourceIdOfType } from '../decision/resource-id.js';
import type { GrantTables, HookKind, ResourceIdType } from '../tables/grant-tables.js';
import { isObject } from './policy-test-shape.js';
import { buildTenantRoles } from '../table-building/tenant-roles.js';
import type { PolicyTestFile, PolicyTestId, PolicyTestProblem, PolicyTestProblemCode, PolicyTests } from './policy-test-types.js';

type Path = readonly (string | number)[];

/** An ownership method the definitions name: its kind, and the resources it decides ownership on. */
export interface TestedMethod {
  readonly kind: HookKind;
  readonly resources: ReadonlySet<number>;
}

/**
 * The ownership methods of `tables` by name, with the resources each decides ownership on.
 *
 * @example
 * ```ts
 * ownershipMethods(grantTables).get('limitToCreator'); // { kind: 'limitOwned', resources: Set { 0 } }
 * ```
 */
export function ownershipMethods(tables: GrantTables): ReadonlyMap<string, TestedMethod> {
  const resourcesOfGroup = tables.owners.map(() => new Set<number>());
  for (const [resource, , , , own, owners] of tables.cells) {
    for (const group of owners) resourcesOfGroup[group]?.add(resource);
    for (let i = 0; i < own.length; i += 2) resourcesOfGroup[own[i] as number]?.add(resource);
  }
  const resourcesOfHook = tables.hooks.map(() => new Set<number>());
  tables.owners.forEach((group, g) => {
    for (const hook of [group.isOwner, group.listOwned, group.limitOwned])
      if (hook !== undefined) for (const resource of resourcesOfGroup[g] ?? []) resourcesOfHook[hook]?.add(resource);
  });
  tables.ownedAmong?.forEach((hook, resource) => {
    if (hook !== -1) resourcesOfHook[hook]?.add(resource);
  });
  return new Map(tables.hooks.map((hook, i) => [hook.name, { kind: hook.kind, resources: resourcesOfHook[i] as ReadonlySet<number> }]));
}

/** Some of `names`, quoted, for a fix: at most ten, sorted. */
function someOf(names: Iterable<string>): string {
  const sorted = [...names].sort();
  const shown = sorted.slice(0, 10).map((name) => quoteForMessage(name));
  return `${shown.join(', ')}${sorted.length > 10 ? ` (and ${sorted.length - 10} more)` : ''}`;
}

const ID_KINDS: Readonly<Record<ResourceIdType, string>> = { number: 'numbers', string: 'strings' };

/** How an id is written, for a message. */
const idText = (id: PolicyTestId): string => (typeof id === 'number' ? String(id) : quoteForMessage(id));

/** How to write `id` in the declared type, for a fix. */
function inType(id: PolicyTestId, idType: ResourceIdType): string {
  if (idType === 'string') return `Write it as a string: ${JSON.stringify(String(id))}.`;
  return /^(?:0|-?[1-9][0-9]{0,15})$/.test(String(id)) ? `Write it as a number: ${Number(id)}.` : 'Write it as a number, such as 10.';
}

/** The fix of a record stored under `key`, which is no id of a resource whose ids are numbers: its key is what to change. */
function recordKeyFix(key: string): string {
  const number = /^-?[0-9]+$/.test(key) ? Number(key) + 0 : Number.NaN;
  return Number.isSafeInteger(number)
    ? `Store the record under "${number}" instead, with "id": ${number}.`
    : 'Store the record under its id, a number written in decimal (such as "10"), with that number as its "id".';
}

/** The references of one file, checked. */
class ReferenceCheck {
  readonly problems: PolicyTestProblem[] = [];
  private readonly resources: ReadonlyMap<string, number>;
  /** The resources the relations of ownership rules reach. */
  private readonly related: ReadonlySet<string>;
  private readonly actions: ReadonlySet<string>;
  private readonly methods: ReadonlyMap<string, TestedMethod>;

  constructor(
    private readonly tables: GrantTables,
    private readonly file: PolicyTestFile,
    methods: ReadonlyMap<string, TestedMethod>,
  ) {
    this.resources = new Map(tables.resources.map((resource, i) => [resource, i]));
    this.related = new Set(
      Object.values(tables.ownershipRules?.relations ?? {}).flatMap((byName) => Object.values(byName).map((relation) => relation.resource)),
    );
    this.actions = new Set(tables.actions);
    this.methods = methods;
  }

  private add(path: Path, code: PolicyTestProblemCode, message: string, fix: string): void {
    this.problems.push({ file: this.file.file, path, code, message, fix });
  }

  private user(name: string, path: Path): void {
    if (Object.hasOwn(this.file.users, name)) return;
    const users = Object.keys(this.file.users);
    this.add(
      path,
      'unknown-user',
      `User ${quoteForMessage(name)} is not one of the file's users.`,
      users.length === 0 ? `Add ${quoteForMessage(name)} to "users".` : `Add ${quoteForMessage(name)} to "users", or name one of ${someOf(users)}.`,
    );
  }

  /** The declared id type of the resource at `index`, or undefined (ids of either type). */
  private idTypeOf(index: number): ResourceIdType | undefined {
    return this.tables.idTypes?.[index] ?? undefined;
  }

  private id(id: PolicyTestId, idType: ResourceIdType | undefined, path: Path, whose: string): void {
    if (idType === undefined || typeof id === idType) return;
    this.add(path, 'invalid-id', `${idText(id)} is not an id of ${whose}: its ids are ${ID_KINDS[idType]}.`, inType(id, idType));
  }

  ownership(): void {
    for (const [name, byUser] of Object.entries(this.file.ownership)) {
      const method = this.methods.get(name);
      if (method === undefined) {
        this.add(
          ['ownership', name],
          'unknown-method',
          `${quoteForMessage(name)} is not an ownership method of the definitions.`,
          this.methods.size === 0
            ? 'The definitions name no ownership method: remove "ownership".'
            : `Name an isOwner, listOwned, limitOwned or ownedAmong method of the definitions: ${someOf(this.methods.keys())}.`,
        );
        continue;
      }
      // A method used for resources of one id type takes ids of that type; used across types, either.
      const types = new Set([...method.resources].map((resource) => this.idTypeOf(resource)));
      const [only] = types;
      const idType = types.size === 1 ? only : undefined;
      const whose = [...method.resources].map((resource) => quoteForMessage(this.tables.resources[resource] as string)).join(', ');
      // A value of the wrong shape is the shape check's problem (the compiler runs both checks side by side, and its
      // format check cannot see values under a "__proto__" key): it is skipped here, never read.
      if (!isObject(byUser)) continue;
      for (const [user, ids] of Object.entries(byUser)) {
        this.user(user, ['ownership', name, user]);
        if (Array.isArray(ids)) ids.forEach((id: PolicyTestId, i) => this.id(id, idType, ['ownership', name, user, i], whose));
      }
    }
  }

  /** The custom roles of each tenant a test names, built against the policy as a followed source's would be: their problems. */
  tenants(built: ReadonlyMap<string, BuiltTenant>): void {
    for (const [tenant, { problems }] of built) {
      for (const problem of problems) {
        const at = problem.index === -1 ? [] : ['definitions', problem.index];
        this.add(['tenants', tenant, ...at, ...problem.path], 'invalid-tenant-roles', problem.message, problem.fix);
      }
    }
  }

  /** The declared id type of `resource`, which only relations reach, or undefined (ids of either type). */
  private relatedIdType(resource: string): ResourceIdType | undefined {
    const types = this.tables.ownershipRules?.relatedIdTypes;
    return types !== undefined && Object.hasOwn(types, resource) ? types[resource] : undefined;
  }

  records(): void {
    for (const [resource, byId] of Object.entries(this.file.records)) {
      const index = this.resources.get(resource);
      // The records of a resource that only ownership rules reach (through a relation) are what the rules read: their
      // ids have the type its file declares, as a definition's resource's do.
      const related = index === undefined && this.related.has(resource);
      if (index === undefined && !related) {
        this.add(['records', resource], 'unknown-resource', `Resource ${quoteForMessage(resource)} is not named by any definition.`, this.resourceFix());
        continue;
      }
      if (!isObject(byId)) continue;
      const idType = index === undefined ? this.relatedIdType(resource) : this.idTypeOf(index);
      for (const [key, record] of Object.entries(byId)) {
        if (!isObject(record)) continue;
        // A record stands under its id: under a key that is no id of the resource, only renaming the key helps.
        if (idType === 'number' && projectResourceIdOfType(key, 'number') === undefined) {
          this.add(
            ['records', resource, key],
            'invalid-id',
            `Record ${quoteForMessage(key)} of ${quoteForMessage(resource)} stands under a key that is not an id of it: ` +
              'its ids are numbers, written in decimal without leading zeros.',
            recordKeyFix(key),
          );
          continue;
        }
        this.id(record['id'] as PolicyTestId, idType, ['records', resource, key, 'id'], quoteForMessage(resource));
      }
    }
  }

  private resourceFix(): string {
    return this.tables.resources.length === 0 ? 'The definitions name no resource.' : `Name one of ${someOf(this.tables.resources)}.`;
  }

  tests(): void {
    this.file.tests.forEach((test, i) => {
      const path = ['tests', i];
      this.user(test.user, [...path, 'user']);
      const tenants = this.file.tenants ?? {};
      if (test.tenant !== undefined && !Object.hasOwn(tenants, test.tenant))
        this.add(
          [...path, 'tenant'],
          'unknown-tenant',
          `Tenant ${quoteForMessage(test.tenant)} is not one of the file's tenants.`,
          `Add ${quoteForMessage(test.tenant)} to "tenants" with its custom roles ({ "definitions": [] } for none).`,
        );
      const index = this.resources.get(test.resource);
      if (index === undefined)
        this.add([...path, 'resource'], 'unknown-resource', `Resource ${quoteForMessage(test.resource)} is not named by any definition.`, this.resourceFix());
      const declared = index === undefined ? undefined : (this.tables.declaredActions?.[index] ?? undefined);
      const declaredNames = declared?.map((action) => this.tables.actions[action] as string);
      if (declaredNames !== undefined && !declaredNames.includes(test.action))
        this.add(
          [...path, 'action'],
          'unknown-action',
          `Action ${quoteForMessage(test.action)} is not an action of ${quoteForMessage(test.resource)}, which declares ${someOf(declaredNames)}.`,
          `Name one of the actions of ${quoteForMessage(test.resource)}.`,
        );
      else if (!this.actions.has(test.action))
        this.add(
          [...path, 'action'],
          'unknown-action',
          `Action ${quoteForMessage(test.action)} is not granted by any definition on any resource.`,
          `Name one of ${someOf(this.actions)}.`,
        );
      if (index !== undefined && test.resourceId !== undefined)
        this.id(test.resourceId, this.idTypeOf(index), [...path, 'resourceId'], quoteForMessage(test.resource));
      if (test.attributes === undefined) return;
      if (test.resourceId === undefined) {
        this.add(
          [...path, 'attributes'],
          'unknown-record',
          'The test names attributes but no resourceId: attributes are what pick keeps of one record.',
          'Add the resourceId of a record in "records", or remove "attributes".',
        );
        return;
      }
      if (test.expect === 'denied')
        this.add([...path, 'attributes'], 'invalid-test-file', 'A denied request sees no attributes.', 'Expect "granted", or remove "attributes".');
      const records = Object.hasOwn(this.file.records, test.resource) ? this.file.records[test.resource] : undefined;
      if (index !== undefined && (!isObject(records) || !Object.hasOwn(records, String(test.resourceId))))
        this.add(
          [...path, 'resourceId'],
          'unknown-record',
          `There is no record ${quoteForMessage(String(test.resourceId))} of ${quoteForMessage(test.resource)} in "records" to pick the attributes from.`,
          `Add records[${JSON.stringify(test.resource)}][${JSON.stringify(String(test.resourceId))}], or remove "attributes".`,
        );
    });
  }
}

/** A tenant's custom roles as {@link buildTenantRoles} made them: its tables, or its problems. */
export type BuiltTenant = ReturnType<typeof buildTenantRoles>;

/** Per test file, the custom roles of each tenant its tests name, built once: what the check reports and the runner decides with. */
export type BuiltTenants = ReadonlyMap<PolicyTestFile, ReadonlyMap<string, BuiltTenant>>;

/** The tenants `file` declares that a test of it names, with their custom roles, in the order it declares them. */
function namedTenants(file: PolicyTestFile): [string, unknown][] {
  const named = new Set(file.tests.map((test) => test.tenant));
  return Object.entries(file.tenants ?? {}).filter(([tenant]) => named.has(tenant));
}

/**
 * Builds the custom roles of every tenant a test names (a tenant no test names is never built: its roles are carried,
 * not used), pausing after each one: the caller decides whether a pause yields to the event loop. Returns them per file.
 *
 * @example
 * ```ts
 * const builds = tenantBuilds(tests, grantTables);
 * let step = builds.next();
 * while (!step.done) step = builds.next(); // or: await a turn of the event loop between steps
 * const tenants = step.value;
 * ```
 */
export function* tenantBuilds(tests: PolicyTests, tables: GrantTables): Generator<void, BuiltTenants> {
  const built = new Map<PolicyTestFile, ReadonlyMap<string, BuiltTenant>>();
  for (const file of tests.files) {
    const ofFile = new Map<string, BuiltTenant>();
    for (const [tenant, document] of namedTenants(file)) {
      ofFile.set(tenant, buildTenantRoles(tables, tenant, document));
      yield;
    }
    built.set(file, ofFile);
  }
  return built;
}

/**
 * {@link tenantBuilds} run to the end at once: for a caller that checks synchronously (the compiler).
 *
 * @example
 * ```ts
 * policyTestReferenceProblems(tests, grantTables, builtTenants(tests, grantTables));
 * ```
 */
export function builtTenants(tests: PolicyTests, tables: GrantTables): BuiltTenants {
  const builds = tenantBuilds(tests, tables);
  let step = builds.next();
  while (step.done !== true) step = builds.next();
  return step.value;
}

/**
 * The problems of what well-formed tests name, against the tables of their policy. Empty when every name is known.
 * The custom roles of the tenants tests name are built unless `tenants` holds them built already.
 *
 * @example
 * ```ts
 * policyTestReferenceProblems(tests, grantTables);
 * // [{ file: 'documents.permissions.test.json', path: ['tests', 3, 'user'], code: 'unknown-user', … }]
 * ```
 */
export function policyTestReferenceProblems(tests: PolicyTests, tables: GrantTables, tenants = builtTenants(tests, tables)): PolicyTestProblem[] {
  const methods = ownershipMethods(tables);
  return tests.files.flatMap((file) => {
    const check = new ReferenceCheck(tables, file, methods);
    check.ownership();
    check.tenants(tenants.get(file) ?? new Map());
    check.records();
    check.tests();
    return check.problems;
  });
}
