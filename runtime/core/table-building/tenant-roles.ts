/**
 * A tenant's custom roles: definitions in the format of a `*.permissions.json` file, checked against the compiled
 * policy and built into tables that share its names. A tenant adds roles and nothing else: its definitions name
 * only new roles, and only the policy's resources, actions (a resource's declared ones where it declares them),
 * attributes and ownership (a rule or a set of hooks some definition of the policy already uses). The checks are
 * the builder's own (shape, grant syntax, conflicts, limits) plus these, with the same problem format: each
 * problem names the definition's index and its path inside it, so a file reader can place it at a line and column.
 */
import { didYouMean } from '../common/nearest-name.js';
import { quoteForMessage } from '../common/printable-text.js';
import { PermissionDefinitionError, type DefinitionProblem } from '../common/errors.js';
import { definitionsOfFileValue } from '../definition/definitions-file-schema.js';
import { validateDefinition } from '../definition/definition-schema.js';
import { isSyntaxProblem, parseGrantKey } from '../definition/grant-syntax.js';
import { undeclaredActionMessage } from '../definition/declared-actions.js';
import { undeclaredAttributePaths } from '../definition/declared-attributes.js';
import type { GrantCell, GrantTables, OwnerGroup, ResourceIdType } from '../tables/grant-tables.js';
import { grantEntries, rolesOf, type LocatedDefinition, type ValidDefinition } from './definition-parts.js';
import type { ResourceRules } from './rule-owners.js';
import { buildGrantTables, type DeclaredResourceActions } from './table-builder.js';
import { MAX_TENANT_ROLES, MAX_TENANT_ROLES_BYTES, tenantTablesOver } from '../tables/compiled-tenant-roles.js';

/** The most definitions one tenant's document may hold. */
export const MAX_TENANT_DEFINITIONS = 1000;
export { MAX_TENANT_ROLES } from '../tables/compiled-tenant-roles.js';

/** A tenant's custom roles, built: tables with the compiled policy's names, owners and rules, and the tenant's roles, plans, cells and definitions. */
export interface TenantRoles {
  readonly tenant: string;
  readonly tables: GrantTables;
}

/** How the hooks of an ownership group are named, or its rule: the same key for the same ownership in two tables. */
function ownershipKey(tables: GrantTables, group: OwnerGroup): string {
  if (group.rule !== undefined) {
    const rule = tables.ownershipRules?.rules[group.rule];
    return JSON.stringify(['rule', rule?.resource, rule?.name]);
  }
  const name = (hook: number | undefined) => (hook === undefined ? null : (tables.hooks[hook]?.name ?? null));
  return JSON.stringify(['hooks', name(group.isOwner), name(group.listOwned), name(group.limitOwned)]);
}

/** The key of a definition's ownership, in the form of {@link ownershipKey}; undefined when it names none. */
function definitionOwnershipKey(definition: ValidDefinition): string | undefined {
  if (definition.owner !== undefined) return JSON.stringify(['rule', definition.resource, definition.owner]);
  if (definition.isOwner === undefined && definition.listOwned === undefined && definition.limitOwned === undefined) return undefined;
  const name = (hook: unknown) => (typeof hook === 'string' ? hook : null);
  return JSON.stringify(['hooks', name(definition.isOwner), name(definition.listOwned), name(definition.limitOwned)]);
}

/** What the compiled policy lets a tenant name, derived once per tables. */
interface PolicyVocabulary {
  readonly roles: ReadonlySet<string>;
  readonly resources: ReadonlySet<string>;
  readonly actions: ReadonlySet<string>;
  readonly declared: ReadonlyMap<string, DeclaredResourceActions>;
  readonly rules: ReadonlyMap<string, ResourceRules>;
  /** Base ownership group id by {@link ownershipKey}. */
  readonly ownership: ReadonlyMap<string, number>;
  /** The hook sets the policy uses, as messages list them. */
  readonly hookSets: readonly string[];
  readonly ownedAmong: ReadonlyMap<string, string>;
  readonly idTypes: ReadonlyMap<string, ResourceIdType>;
  /** The declared attributes of each resource that declares them. */
  readonly attributes: ReadonlyMap<string, readonly string[]>;
}

const vocabularies = new WeakMap<GrantTables, PolicyVocabulary>();

function vocabularyOf(tables: GrantTables): PolicyVocabulary {
  let vocabulary = vocabularies.get(tables);
  if (vocabulary !== undefined) return vocabulary;
  const declared = new Map<string, DeclaredResourceActions>();
  tables.declaredActions?.forEach((indexes, r) => {
    const resource = tables.resources[r] as string;
    if (indexes !== null)
      declared.set(resource, {
        actions: indexes.map((a) => tables.actions[a] as string),
        declaredIn: `the actions of ${quoteForMessage(resource)} in the compiled policy`,
      });
  });
  const rules = new Map<string, ResourceRules>();
  for (const rule of tables.ownershipRules?.rules ?? []) {
    const known = rules.get(rule.resource);
    rules.set(rule.resource, {
      rules: { ...known?.rules, [rule.name]: rule.condition },
      userAttributes: rule.userAttributes,
      relations: tables.ownershipRules?.relations[rule.resource] ?? {},
    });
  }
  const ownership = new Map(tables.owners.map((group, id) => [ownershipKey(tables, group), id]));
  const hookSets = tables.owners
    .filter((group) => group.rule === undefined)
    .map((group) =>
      (['isOwner', 'listOwned', 'limitOwned'] as const)
        .flatMap((kind) => (group[kind] === undefined ? [] : [`"${kind}": ${JSON.stringify(tables.hooks[group[kind]]?.name)}`]))
        .join(', '),
    );
  const ownedAmong = new Map<string, string>();
  const idTypes = new Map<string, ResourceIdType>();
  const attributes = new Map<string, readonly string[]>();
  tables.resources.forEach((resource, r) => {
    const declaredAttributes = tables.attributes?.[r];
    if (declaredAttributes !== undefined && declaredAttributes !== null) attributes.set(resource, declaredAttributes);
    const executor = tables.ownedAmong?.[r];
    if (executor !== undefined && executor !== -1) ownedAmong.set(resource, tables.hooks[executor]?.name as string);
    const idType = tables.idTypes?.[r];
    if (idType !== undefined && idType !== null) idTypes.set(resource, idType);
  });
  vocabulary = {
    roles: new Set(tables.roles),
    resources: new Set(tables.resources),
    actions: new Set(tables.actions),
    declared,
    rules,
    ownership,
    hookSets,
    ownedAmong,
    idTypes,
    attributes,
  };
  vocabularies.set(tables, vocabulary);
  return vocabulary;
}

/** The problems of one valid definition that steps outside what a tenant may name. */
function vocabularyProblems(definition: ValidDefinition, vocabulary: PolicyVocabulary): Omit<DefinitionProblem, 'index' | 'source'>[] {
  const problems: Omit<DefinitionProblem, 'index' | 'source'>[] = [];
  const roles = rolesOf(definition);
  roles.forEach((role, i) => {
    const path = typeof definition.roles === 'string' ? ['roles'] : ['roles', i];
    if (role === '*')
      problems.push({
        code: 'tenant-role',
        path,
        message: 'A tenant\'s definition names its custom roles; "*" would grant every role of the compiled policy.',
        fix: 'Name the custom roles this definition grants to.',
      });
    else if (vocabulary.roles.has(role))
      problems.push({
        code: 'tenant-role',
        path,
        message: `Role ${quoteForMessage(role)} is a role of the compiled policy; a tenant adds roles and never changes one.`,
        fix: 'Give the custom role a name of its own (for example "ACME_REVIEWER").',
      });
  });
  const { resource } = definition;
  if (resource !== '*' && !vocabulary.resources.has(resource)) {
    problems.push({
      code: 'unknown-resource',
      path: ['resource'],
      message: `Resource ${quoteForMessage(resource)} is not a resource of the compiled policy.${didYouMean(resource, [...vocabulary.resources])}`,
      fix: `Name one of its resources: ${[...vocabulary.resources].map((name) => quoteForMessage(name)).join(', ')}, or "*".`,
    });
    return problems;
  }
  const declared = resource === '*' ? undefined : vocabulary.declared.get(resource)?.actions;
  for (const [key, , path] of grantEntries(definition)) {
    const parsed = parseGrantKey(key);
    if (isSyntaxProblem(parsed) || parsed.action === '*') continue;
    if (declared !== undefined && !declared.includes(parsed.action))
      problems.push({
        code: 'unknown-action',
        path,
        message: `${undeclaredActionMessage(resource, parsed.action, declared)}${didYouMean(parsed.action, declared)}`,
        fix: "A tenant's roles use the actions the compiled policy declares; new actions need a new compiled policy.",
      });
    else if (!vocabulary.actions.has(parsed.action))
      problems.push({
        code: 'unknown-action',
        path,
        message: `Action ${quoteForMessage(parsed.action)} is not an action of the compiled policy.${didYouMean(parsed.action, [...vocabulary.actions])}`,
        fix: "A tenant's roles use the actions the compiled policy has; new actions need a new compiled policy.",
      });
  }
  const attributes = resource === '*' ? undefined : vocabulary.attributes.get(resource);
  if (attributes !== undefined)
    for (const problem of undeclaredAttributePaths(definition, {
      attributes,
      declaredIn: `the attributes of ${quoteForMessage(resource)} in the compiled policy`,
    }))
      problems.push({ code: 'unknown-attribute', ...problem });
  const key = definitionOwnershipKey(definition);
  if (key !== undefined && !vocabulary.ownership.has(key)) problems.push(ownershipProblem(definition, vocabulary));
  return problems;
}

/** The problem of ownership the compiled policy does not decide: a rule it does not use there, or hooks no definition of it combines so. */
function ownershipProblem(definition: ValidDefinition, vocabulary: PolicyVocabulary): Omit<DefinitionProblem, 'index' | 'source'> {
  if (definition.owner !== undefined) {
    const known = Object.keys(vocabulary.rules.get(definition.resource)?.rules ?? {});
    return {
      code: 'unknown-ownership-rule',
      path: ['owner'],
      message:
        `The compiled policy uses no ownership rule ${quoteForMessage(definition.owner)} on ${quoteForMessage(definition.resource)}.` +
        didYouMean(definition.owner, known),
      fix:
        known.length === 0
          ? `No definition of the compiled policy names a rule on ${quoteForMessage(definition.resource)}: a tenant cannot decide ownership there.`
          : `Name one of the rules ${known.map((name) => quoteForMessage(name)).join(', ')}.`,
    };
  }
  const path = [definition.isOwner !== undefined ? 'isOwner' : definition.listOwned !== undefined ? 'listOwned' : 'limitOwned'];
  return {
    code: 'unknown-hook-method',
    path,
    message: 'No definition of the compiled policy decides ownership with these hooks; a tenant uses the ownership the code already has.',
    fix:
      vocabulary.hookSets.length === 0
        ? 'Name an ownership rule with "owner" (the compiled policy uses no hooks).'
        : `Use one of the hook sets of the compiled policy: ${vocabulary.hookSets.map((set) => `{ ${set} }`).join('; ')}, or an ownership rule with "owner".`,
  };
}

/** The tenant's cells with the ownership groups of the compiled policy in place of the builder's own. */
function remapCells(cells: readonly GrantCell[], built: GrantTables, base: PolicyVocabulary): GrantCell[] {
  const ids = built.owners.map((group) => base.ownership.get(ownershipKey(built, group)) as number);
  return cells.map(([resource, action, role, anyPlan, own, owners, sources]) => [
    resource,
    action,
    role,
    anyPlan,
    own.map((value, i) => (i % 2 === 0 ? (ids[value] as number) : value)),
    owners.map((owner) => ids[owner] as number).sort((a, b) => a - b),
    sources,
  ]);
}

/** Whether two name lists are the same names in the same order. */
const sameNames = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((name, i) => name === b[i]);

/**
 * Where a tenant's definitions come from, as explanations and decision logs name it when an engine reads them.
 *
 * @example
 * ```ts
 * tenantRolesSource('acme'); // 'tenant "acme"'
 * ```
 */
export function tenantRolesSource(tenant: string): string {
  return `tenant ${quoteForMessage(tenant)}`;
}

/** The UTF-8 length of `value` as JSON, or undefined when it is no JSON data (the shape check says why). */
function jsonBytes(value: unknown): number | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return undefined;
  }
  return text === undefined ? undefined : new TextEncoder().encode(text).length;
}

/**
 * Checks and builds a tenant's custom roles against the compiled policy `base`. Returns the built roles, or every
 * problem found (none of them thrown): the document's shape, each definition's, what a tenant may not name, the
 * builder's own checks, and the limits ({@link MAX_TENANT_DEFINITIONS}, {@link MAX_TENANT_ROLES}). Each problem's
 * `index` is the definition's place in the document's `definitions` (-1 for the document itself) and `path` is inside it.
 *
 * @example
 * ```ts
 * const { roles, problems } = buildTenantRoles(grantTables, 'acme', {
 *   definitions: [{ roles: ['REVIEWER'], resource: 'document', grant: ['read:own'], owner: 'sameCompany', possession: 'own' }],
 * });
 * ```
 */
export function buildTenantRoles(
  base: GrantTables,
  tenant: string,
  document: unknown,
  source = tenantRolesSource(tenant),
): { readonly roles: TenantRoles | undefined; readonly problems: readonly DefinitionProblem[] } {
  const whole = (problem: Omit<DefinitionProblem, 'index' | 'source'>) => ({ roles: undefined, problems: [{ ...problem, index: -1, source }] });
  // The publish refuses a larger document; one a source gives the engine (a source of the application's own, a
  // hand-edited row) is held to the same limit before anything of it is built.
  const bytes = jsonBytes(document);
  if (bytes !== undefined && bytes > MAX_TENANT_ROLES_BYTES)
    return whole({
      code: 'too-large',
      path: [],
      message: `A tenant's document takes ${bytes} bytes as JSON, more than the limit of ${MAX_TENANT_ROLES_BYTES}.`,
      fix: "Split the tenant's roles or remove some.",
    });
  const shape = definitionsOfFileValue(document);
  if (shape.problems.length > 0 || shape.definitions === undefined)
    return { roles: undefined, problems: shape.problems.map((problem) => ({ code: 'invalid-file' as const, index: -1, source, ...problem })) };
  const added = shape.definitions;
  if (added.length > MAX_TENANT_DEFINITIONS)
    return whole({
      code: 'too-large',
      path: ['definitions'],
      message: `A tenant's document holds ${added.length} definitions, more than the limit of ${MAX_TENANT_DEFINITIONS}.`,
      fix: 'Grant several actions or resources in one definition.',
    });
  const vocabulary = vocabularyOf(base);
  const problems: DefinitionProblem[] = [];
  const valid: LocatedDefinition[] = [];
  const custom = new Set<string>();
  added.forEach((definition, index) => {
    const found = validateDefinition(definition, 'names');
    const location = { index, source };
    if (found.length === 0) found.push(...vocabularyProblems(definition as ValidDefinition, vocabulary));
    for (const problem of found) problems.push({ ...location, ...problem });
    if (found.length > 0) return;
    for (const role of rolesOf(definition as ValidDefinition)) custom.add(role);
    valid.push({ definition: definition as ValidDefinition, location });
  });
  if (custom.size > MAX_TENANT_ROLES)
    problems.push({
      code: 'too-large',
      index: -1,
      source,
      path: ['definitions'],
      message: `A tenant's document defines ${custom.size} custom roles, more than the limit of ${MAX_TENANT_ROLES}.`,
      fix: 'Merge roles that grant the same, or split the tenant.',
    });
  if (problems.length > 0) return { roles: undefined, problems };
  const built = buildGrantTables(valid, {
    universe: { resources: base.resources, actions: base.actions },
    actions: vocabulary.declared,
    ownershipRules: vocabulary.rules,
    ownedAmong: vocabulary.ownedAmong,
    idTypes: vocabulary.idTypes,
  });
  if (built.problems.length > 0) return { roles: undefined, problems: built.problems };
  const { tables } = built;
  // Built within the policy's names, the tenant's tables index resources and actions as the policy does.
  if (!sameNames(tables.resources, base.resources) || !sameNames(tables.actions, base.actions))
    throw new Error('The tenant roles were built with other resource or action names than the compiled policy: a bug of typed-permissions.');
  return {
    roles: {
      tenant,
      // Named field by field: the policy's tables may be packed, and their cells and definitions are not the tenant's.
      tables: tenantTablesOver(base, {
        roles: tables.roles,
        plans: tables.plans,
        cells: remapCells(tables.cells, tables, vocabulary),
        definitions: tables.definitions,
      }),
    },
    problems: [],
  };
}

/**
 * {@link buildTenantRoles}, throwing a PermissionDefinitionError that lists every problem (what an admin screen
 * or `typed-permissions tenant publish` shows before storing a document).
 *
 * @example
 * ```ts
 * try { checkTenantRoles(grantTables, 'acme', document); } catch (error) {
 *   if (error instanceof PermissionDefinitionError) return reply.status(422).send(error.problems);
 * }
 * ```
 */
export function checkTenantRoles(base: GrantTables, tenant: string, document: unknown, source?: string): TenantRoles {
  const { roles, problems } = buildTenantRoles(base, tenant, document, source);
  if (roles === undefined) throw new PermissionDefinitionError(problems);
  return roles;
}
