/**
 * The custom roles of the tenants benchmark's tenants, generated from a seed over the 1× scenario's filler
 * resources, so that every run stores the same documents. Every tenant has the same number of roles; the first
 * one mirrors a base role exactly (its definitions under the custom name), so that a question asked with it in a
 * tenant is the very question asked with the base role without one — the pair the warm decisions compare. The
 * others are drawn at random: 2–4 `any` definitions each, on distinct resources of the compiled policy, 1–3
 * actions, every attribute or a few.
 */
import { FILLER_ACTIONS, type Scenario } from './scenario.js';
import { Random } from './random.js';

/** The base role the first custom role of every tenant mirrors. */
export const MIRRORED_BASE_ROLE = 'ROLE_0001';
/** The name of the first custom role: the mirror of {@link MIRRORED_BASE_ROLE}. */
export const MIRROR_ROLE = 'CUSTOM_01';
/** The role published to a tenant by each change the propagation part makes (a new role, so old answers refuse it). */
export const changedRoleName = (change: number): string => `CHANGED_${String(change).padStart(4, '0')}`;

/** A tenant's id, by its number: `tenant-00042`. */
export const tenantId = (i: number): string => `tenant-${String(i).padStart(5, '0')}`;

/** The name of a tenant's custom role by its number from 1. */
export const customRoleName = (j: number): string => `CUSTOM_${String(j).padStart(2, '0')}`;

interface JsonDefinition {
  readonly roles: readonly string[];
  readonly resource: string;
  readonly grant: readonly string[] | Readonly<Record<string, readonly string[]>>;
  readonly [key: string]: unknown;
}

/** A tenant's document: `{ definitions }` as a `*.permissions.json` file holds them. */
export interface TenantRolesDocument {
  readonly definitions: readonly JsonDefinition[];
}

const ATTRIBUTE_SHAPES: readonly (readonly string[])[] = [['*'], ['*', '!secret'], ['id', 'name', 'status']];

/**
 * The documents of tenants `0 … count - 1`, `roles` custom roles each, drawn from `seed`: the same arguments
 * always give the same documents.
 *
 * @example
 * ```ts
 * const documents = tenantRolesDocuments(createScenario(1), 10_000, 20, 20261127);
 * documents[0]?.definitions[0]?.roles; // ['CUSTOM_01']
 * ```
 */
export function tenantRolesDocuments(scenario: Scenario, count: number, roles: number, seed: number): TenantRolesDocument[] {
  const random = new Random(seed);
  const mirrored = mirrorOf(scenario);
  // Only the resources some base definition names are resources of the compiled policy.
  const named = new Set(scenario.definitions.map((definition) => definition.resource));
  const resources = scenario.fillerResources.filter((resource) => named.has(resource));
  const documents: TenantRolesDocument[] = [];
  for (let i = 0; i < count; i++) {
    const definitions: JsonDefinition[] = [...mirrored];
    for (let j = 2; j <= roles; j++) definitions.push(...randomRole(random, resources, customRoleName(j)));
    documents.push({ definitions });
  }
  return documents;
}

/**
 * A document with one more role than `document`: `role`, reading every record of `resource`.
 *
 * @example
 * ```ts
 * withRole(document, 'CHANGED_0001', 'resource_007').definitions.at(-1); // { roles: ['CHANGED_0001'], resource: 'resource_007', grant: ['read:any'] }
 * ```
 */
export function withRole(document: TenantRolesDocument, role: string, resource: string): TenantRolesDocument {
  return { definitions: [...document.definitions, { roles: [role], resource, grant: ['read:any'] }] };
}

/** The mirrored base role's definitions under the mirror's name. */
function mirrorOf(scenario: Scenario): JsonDefinition[] {
  const definitions = scenario.fillerByRole.get(MIRRORED_BASE_ROLE);
  if (definitions === undefined) throw new Error(`the scenario has no role ${MIRRORED_BASE_ROLE}`);
  return definitions.map((definition) => ({ ...(definition as JsonDefinition), roles: [MIRROR_ROLE] }));
}

function randomRole(random: Random, resources: readonly string[], role: string): JsonDefinition[] {
  return random.sample(resources, 2 + random.below(3)).map((resource) => {
    const actions = random.sample(FILLER_ACTIONS, 1 + random.below(3));
    if (random.next() < 0.5) return { roles: [role], resource, grant: actions.map((action) => `${action}:any`) };
    const grant: Record<string, readonly string[]> = {};
    for (const action of actions) grant[`${action}:any`] = random.pick(ATTRIBUTE_SHAPES);
    return { roles: [role], resource, grant };
  });
}

/** What the benchmark asks, on resources of the 1× scenario. */
export interface TenantQuestions {
  /** A resource that the mirrored base role reads as `any` (so `CUSTOM_01` does too): its questions are granted. */
  readonly granted: string;
  /** A resource that neither the mirrored role nor {@link SECOND_BASE_ROLE} has a grant on: its questions are refused. */
  readonly refused: string;
}

/** The base role asked beside the mirror in the two-role questions. */
export const SECOND_BASE_ROLE = 'ROLE_0002';

/**
 * The resources of the benchmark's questions, from the scenario's definitions.
 *
 * @example
 * ```ts
 * const { granted, refused } = tenantQuestions(createScenario(1)); // `read` of granted is granted to ROLE_0001
 * ```
 */
export function tenantQuestions(scenario: Scenario): TenantQuestions {
  const roles = new Set([MIRRORED_BASE_ROLE, SECOND_BASE_ROLE]);
  const mentioned = new Set(scenario.definitions.filter((definition) => [definition.roles].flat().some((role) => roles.has(role))).map((d) => d.resource));
  const named = new Set(scenario.definitions.map((definition) => definition.resource));
  const refused = scenario.fillerResources.find((resource) => named.has(resource) && !mentioned.has(resource));
  if (refused === undefined) throw new Error(`every resource of the scenario is granted to ${MIRRORED_BASE_ROLE} or ${SECOND_BASE_ROLE}`);
  // The first definition of the mirrored role is pinned to `read:any` of most attributes (scenario.showcase.pickExclude).
  return { granted: scenario.showcase.pickExclude.resource, refused };
}

/**
 * The tenant that change `change` of the propagation part publishes to, among `tenants`: spread over the store,
 * never the same one twice in a row.
 *
 * @example
 * ```ts
 * changedTenant(0, 10_000); // 'tenant-00007'
 * ```
 */
export function changedTenant(change: number, tenants: number): string {
  return tenantId((7 + change * 331) % tenants);
}
