/**
 * The benchmark scenario: the example definitions (in their hook form, test/fixtures/example-hooks) plus
 * deterministic filler made with a seeded PRNG, at 1× (20 roles × 50 resources) and 10× (200 roles ×
 * 500 resources, same density per role). Every library in the bench is modelled from these
 * definitions, so they all answer the same questions.
 */
import type { PermissionDefinitionJson } from '../../runtime/permissions/index.js';
import { readExampleDefinitions, readExampleOwnedAmong } from './example-definitions.js';
import { Random } from './random.js';

/** 1× or 10× the filler. */
export type Scale = 1 | 10;

/** The actions filler definitions draw from: CRUD plus business actions. */
export const CRUD_ACTIONS = ['create', 'read', 'update', 'delete'] as const;
export const CUSTOM_ACTIONS = ['approve', 'publish', 'archive', 'assign'] as const;
export const FILLER_ACTIONS: readonly string[] = [...CRUD_ACTIONS, ...CUSTOM_ACTIONS];

/** The ten attributes of every filler resource. */
export const FILLER_FIELDS = ['id', 'name', 'status', 'ownerId', 'createdAt', 'updatedAt', 'amount', 'tags', 'notes', 'secret'] as const;

/** A record of a filler resource (the "10-field object" of the attribute benchmarks). */
export interface FillerRecord {
  readonly id: number;
  readonly name: string;
  readonly status: string;
  readonly ownerId: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly amount: number;
  readonly tags: readonly string[];
  readonly notes: string;
  readonly secret: string;
}

/** The attributes of the example's `document` resource. */
export const DOCUMENT_FIELDS = ['id', 'title', 'date', 'status', 'personal', 'confidential', 'creatorId'] as const;

/** Hook method names of the filler's ownership definitions. */
export const FILLER_HOOKS = { isOwner: 'isRecordOwner', listOwned: 'listOwnedRecords', limitOwned: 'limitToOwnedRecords' } as const;

/** Attribute patterns of the pinned definitions; the hand-written projections in peers/nested-object.ts mirror them. */
export const PINNED_PATTERNS = {
  exclude: ['*', '!secret', '!notes'],
  include: ['id', 'name', 'status', 'createdAt', 'amount'],
  ownRead: ['*', '!secret'],
  anyRead: ['id', 'name', 'status'],
} as const;

/** Patterns object-form filler grants draw from. */
const PATTERN_SHAPES: readonly (readonly string[])[] = [
  ['*'],
  ['*', '!secret'],
  PINNED_PATTERNS.exclude,
  PINNED_PATTERNS.include,
  ['id', 'name', 'amount', 'status', 'ownerId'],
];

/** The cells the attribute benchmarks use; the filler pins them so that both scales have them. */
export interface Showcase {
  /** `read` as any with `['*', '!secret', '!notes']` (8 of 10 fields). */
  readonly pickExclude: { readonly role: string; readonly resource: string };
  /** `read` as any with `['id', 'name', 'status', 'createdAt', 'amount']` (5 of 10 fields). */
  readonly pickInclude: { readonly role: string; readonly resource: string };
  /** `read` as own `['*', '!secret']` with a listOwned hook, plus `read:any` `['id', 'name', 'status']`. */
  readonly filterPick: { readonly role: string; readonly resource: string };
}

/** One benchmark scenario. */
export interface Scenario {
  readonly scale: Scale;
  readonly seed: number;
  /** The example definitions in their hook form, as in test/fixtures/example-hooks/definitions/document.permissions.json. */
  readonly exampleDefinitions: readonly PermissionDefinitionJson[];
  /** The example's ownedAmong executors (resource → method name), as in test/fixtures/example-hooks/definitions/document.resource.json. */
  readonly ownedAmong: Readonly<Record<string, string>>;
  /** Filler definitions grouped by role (one definitions file per role for the compiler). */
  readonly fillerByRole: ReadonlyMap<string, readonly PermissionDefinitionJson[]>;
  /** Every definition: example first, then filler. */
  readonly definitions: readonly PermissionDefinitionJson[];
  /** Roles that have definitions (example roles included; QA_MANAGER and GOD have none). */
  readonly roles: readonly string[];
  readonly fillerRoles: readonly string[];
  readonly fillerResources: readonly string[];
  readonly showcase: Showcase;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function actionsFor(random: Random, required: string | undefined): string[] {
  const count = 2 + random.below(3);
  const actions = random.sample(FILLER_ACTIONS, count);
  if (required !== undefined && !actions.includes(required)) actions[0] = required;
  return actions;
}

type FillerKind = 'array-any' | 'object-any' | 'own';

function fillerDefinition(
  random: Random,
  role: string,
  resource: string,
  kind: FillerKind,
  pinned?: { action: string; patterns: readonly string[] },
): PermissionDefinitionJson {
  const actions = actionsFor(random, pinned?.action);
  if (kind === 'array-any') {
    // Mix the explicit ':any' suffix with bare actions (which default to possession any).
    return {
      roles: [role],
      resource,
      descr: `${role} ${actions.join(', ')} any ${resource}.`,
      grant: actions.map((action) => (random.next() < 0.5 ? `${action}:any` : action)),
    };
  }
  if (kind === 'object-any') {
    const grant: Record<string, readonly string[]> = {};
    for (const action of actions) grant[`${action}:any`] = action === pinned?.action ? pinned.patterns : random.pick(PATTERN_SHAPES);
    return { roles: [role], resource, descr: `${role} ${actions.join(', ')} any ${resource}, some attributes hidden.`, grant };
  }
  return ownFillerDefinition(random, role, resource, actions, pinned !== undefined);
}

/** A possession-own definition with isOwner plus listOwned (always when pinned) or limitOwned, and `read:any` of a few fields. */
function ownFillerDefinition(random: Random, role: string, resource: string, actions: readonly string[], pinned: boolean): PermissionDefinitionJson {
  const grant: Record<string, readonly string[]> = {};
  for (const action of actions)
    grant[action] =
      action === 'read'
        ? PINNED_PATTERNS.ownRead
        : random.pick([
            ['*', '!secret'],
            ['*', '!secret', '!notes'],
          ]);
  if (actions.includes('read')) grant['read:any'] = PINNED_PATTERNS.anyRead;
  const listed = pinned || random.next() < 0.5;
  return {
    roles: [role],
    resource,
    descr: `${role} ${actions.join(', ')} the ${resource} records they own; reads others' names and status.`,
    possession: 'own',
    grant,
    isOwner: FILLER_HOOKS.isOwner,
    ...(listed ? { listOwned: FILLER_HOOKS.listOwned } : { limitOwned: FILLER_HOOKS.limitOwned }),
  };
}

/** The shapes the first definitions of the first three filler roles are pinned to, for the attribute benchmarks. */
const PINS: readonly { kind: FillerKind; patterns: readonly string[] }[] = [
  { kind: 'object-any', patterns: PINNED_PATTERNS.exclude },
  { kind: 'object-any', patterns: PINNED_PATTERNS.include },
  { kind: 'own', patterns: PINNED_PATTERNS.ownRead },
];

/** Every filler role's definitions, and the resources of the pinned ones (in role order). */
function fillerOf(
  random: Random,
  fillerRoles: readonly string[],
  fillerResources: readonly string[],
  perRole: number,
): { fillerByRole: Map<string, PermissionDefinitionJson[]>; pinnedResources: string[] } {
  const fillerByRole = new Map<string, PermissionDefinitionJson[]>();
  const pinnedResources: string[] = [];
  fillerRoles.forEach((role, r) => {
    const count = Math.min(fillerResources.length, perRole + random.below(3));
    const resources = random.sample(fillerResources, count);
    const definitions = resources.map((resource, d) => {
      const pin = d === 0 ? PINS[r] : undefined;
      if (pin !== undefined) {
        pinnedResources.push(resource);
        return fillerDefinition(random, role, resource, pin.kind, { action: 'read', patterns: pin.patterns });
      }
      const roll = random.next();
      return fillerDefinition(random, role, resource, roll < 0.45 ? 'array-any' : roll < 0.8 ? 'object-any' : 'own');
    });
    fillerByRole.set(role, definitions);
  });
  return { fillerByRole, pinnedResources };
}

/**
 * The size of a generated policy: filler roles, filler resources, and the fewest definitions a role has (each has
 * this many to two more, on distinct resources).
 */
export interface PolicySize {
  readonly roles: number;
  readonly resources: number;
  readonly definitionsPerRole: number;
}

/**
 * The size of a policy whose roles each have definitions on about `share` of the resources (at least one).
 *
 * @example
 * ```ts
 * policySize(500, 1000, 0.05); // { roles: 500, resources: 1000, definitionsPerRole: 49 }: 49–51 resources per role
 * ```
 */
export function policySize(roles: number, resources: number, share: number): PolicySize {
  return { roles, resources, definitionsPerRole: Math.max(1, Math.round(resources * share) - 1) };
}

/**
 * Makes the scenario: the example definitions plus filler. Filler: `20 × scale` roles and
 * `50 × scale` resources; each role has 4–6 definitions (about 5) on distinct random resources (see
 * {@link createSizedScenario} for what a definition holds).
 *
 * @example
 * ```ts
 * const scenario = createScenario(10); // 200 filler roles, 500 filler resources
 * ```
 */
export function createScenario(scale: Scale, seed = 20240605): Scenario {
  return { ...createSizedScenario({ roles: 20 * scale, resources: 50 * scale, definitionsPerRole: 4 }, seed * scale), scale, seed };
}

/**
 * A scenario of any size: the example definitions (with their `*:any` super role, SUPER_ADMIN) plus filler of
 * `size.roles` roles and `size.resources` resources. Each role has `size.definitionsPerRole` to two more definitions
 * on distinct random resources, each granting 2–4 actions of CRUD + approve/publish/archive/assign: ~45% array form
 * (`read:any` or bare `read`), ~35% object form `:any` with attribute patterns, ~20% possession own with isOwner plus
 * listOwned or limitOwned. The first definitions of ROLE_0001…0003 are pinned to the shapes the attribute
 * benchmarks use (see {@link Showcase}). The same size and seed always give the same scenario.
 *
 * @example
 * ```ts
 * const scenario = createSizedScenario(policySize(500, 1000, 0.05), 20240605); // 500 roles × 1,000 resources
 * ```
 */
export function createSizedScenario(size: PolicySize, seed: number): Scenario {
  const random = new Random(seed);
  const exampleDefinitions = readExampleDefinitions();
  const width = Math.max(4, String(Math.max(size.roles, size.resources)).length);
  const fillerRoles = Array.from({ length: size.roles }, (_, i) => `ROLE_${pad(i + 1, width)}`);
  const fillerResources = Array.from({ length: size.resources }, (_, i) => `resource_${pad(i + 1, width)}`);
  const { fillerByRole, pinnedResources } = fillerOf(random, fillerRoles, fillerResources, size.definitionsPerRole);
  const roles = [
    ...new Set(exampleDefinitions.flatMap((definition) => (typeof definition.roles === 'string' ? [definition.roles] : [...definition.roles]))),
  ].filter((role) => role !== '*');
  const [exclude, include, owned] = pinnedResources as [string, string, string];
  return {
    scale: 1,
    seed,
    exampleDefinitions,
    ownedAmong: readExampleOwnedAmong(),
    fillerByRole,
    definitions: [...exampleDefinitions, ...[...fillerByRole.values()].flat()],
    roles: [...roles, ...fillerRoles],
    fillerRoles,
    fillerResources,
    showcase: {
      pickExclude: { role: fillerRoles[0] as string, resource: exclude },
      pickInclude: { role: fillerRoles[1] as string, resource: include },
      filterPick: { role: fillerRoles[2] as string, resource: owned },
    },
  };
}

/**
 * A filler record; deterministic in `id`.
 *
 * @example
 * ```ts
 * fillerRecord(7, 3); // { id: 7, name: 'Record 7', ownerId: 3, … }
 * ```
 */
export function fillerRecord(id: number, ownerId: number): FillerRecord {
  return {
    id,
    name: `Record ${id}`,
    status: id % 3 === 0 ? 'approved' : 'draft',
    ownerId,
    createdAt: '2024-06-01T10:00:00.000Z',
    updatedAt: '2024-06-05T12:30:00.000Z',
    amount: id * 10.5,
    tags: ['alpha', 'beta'],
    notes: `Notes on ${id}`,
    secret: `secret-${id}`,
  };
}

/**
 * `count` filler records, ids 1…count; the even ids belong to `ownerId`, the odd ones to someone else.
 *
 * @example
 * ```ts
 * halfOwnedRecords(4, 77).map((record) => record.ownerId === 77); // [false, true, false, true]
 * ```
 */
export function halfOwnedRecords(count: number, ownerId: number): FillerRecord[] {
  return Array.from({ length: count }, (_, i) => fillerRecord(i + 1, (i + 1) % 2 === 0 ? ownerId : ownerId + 1));
}
