/**
 * The benchmark scenario: the example definitions (definitions/document.permissions.json) plus
 * deterministic filler made with a seeded PRNG, at 1× (20 roles × 50 resources) and 10× (200 roles ×
 * 500 resources, same density per role). Every library in the bench is modelled from these
 * definitions, so they all answer the same questions.
 */
import { readFileSync } from 'node:fs';
import type { PermissionDefinitionJson } from '../runtime/permissions/index.js';

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
  /** The example definitions, as in definitions/document.permissions.json. */
  readonly exampleDefinitions: readonly PermissionDefinitionJson[];
  /** The example's ownedAmong executors (resource → method name), as in definitions/document.resource.json. */
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

/** The seeded PRNG (mulberry32): the same seed always gives the same scenario. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)] as T;
  }

  /** `count` distinct elements, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length > 0) out.push(pool.splice(this.below(pool.length), 1)[0] as T);
    return out;
  }
}

const EXAMPLE_FILE = new URL('../definitions/document.permissions.json', import.meta.url);

const EXAMPLE_RESOURCE_FILE = new URL('../definitions/document.resource.json', import.meta.url);

/**
 * The example's ownedAmong executors, as `new Permissions({ ownedAmong })` takes them, read from
 * definitions/document.resource.json so that the bench builds what the compiler reads.
 *
 * @example
 * ```ts
 * readExampleOwnedAmong(); // { document: 'ownedDocumentsAmong' }
 * ```
 */
export function readExampleOwnedAmong(): Readonly<Record<string, string>> {
  const { resource, ownedAmong } = JSON.parse(readFileSync(EXAMPLE_RESOURCE_FILE, 'utf8')) as { resource: string; ownedAmong?: string };
  return ownedAmong === undefined ? {} : { [resource]: ownedAmong };
}

/**
 * The example definitions, read from the repository's definitions folder.
 *
 * @example
 * ```ts
 * readExampleDefinitions().map((definition) => definition.roles); // [['EMPLOYEE'], ['EMPLOYEE_MANAGER'], …]
 * ```
 */
export function readExampleDefinitions(): PermissionDefinitionJson[] {
  const parsed = JSON.parse(readFileSync(EXAMPLE_FILE, 'utf8')) as { definitions: PermissionDefinitionJson[] } | PermissionDefinitionJson[];
  return Array.isArray(parsed) ? parsed : parsed.definitions;
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
  const listed = pinned !== undefined || random.next() < 0.5;
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

/**
 * Makes the scenario: the example definitions plus filler. Filler: `20 × scale` roles and
 * `50 × scale` resources; each role has 4–6 definitions (about 5) on distinct random resources,
 * each granting 2–4 actions of CRUD + approve/publish/archive/assign: ~45% array form (`read:any`
 * or bare `read`), ~35% object form `:any` with attribute patterns, ~20% possession own with
 * isOwner plus listOwned or limitOwned. The first definitions of ROLE_0001…0003 are pinned to the
 * shapes the attribute benchmarks use (see {@link Showcase}).
 *
 * @example
 * ```ts
 * const scenario = createScenario(10); // 200 filler roles, 500 filler resources
 * ```
 */
export function createScenario(scale: Scale, seed = 20240605): Scenario {
  const random = new Random(seed * scale);
  const exampleDefinitions = readExampleDefinitions();
  const fillerRoles = Array.from({ length: 20 * scale }, (_, i) => `ROLE_${pad(i + 1, 4)}`);
  const fillerResources = Array.from({ length: 50 * scale }, (_, i) => `resource_${pad(i + 1, 4)}`);
  const fillerByRole = new Map<string, PermissionDefinitionJson[]>();
  const pins: readonly { kind: FillerKind; patterns: readonly string[] }[] = [
    { kind: 'object-any', patterns: PINNED_PATTERNS.exclude },
    { kind: 'object-any', patterns: PINNED_PATTERNS.include },
    { kind: 'own', patterns: PINNED_PATTERNS.ownRead },
  ];
  const pinnedResources: string[] = [];
  fillerRoles.forEach((role, r) => {
    const count = 4 + random.below(3);
    const resources = random.sample(fillerResources, count);
    const definitions = resources.map((resource, d) => {
      const pin = d === 0 ? pins[r] : undefined;
      if (pin !== undefined) {
        pinnedResources.push(resource);
        return fillerDefinition(random, role, resource, pin.kind, { action: 'read', patterns: pin.patterns });
      }
      const roll = random.next();
      return fillerDefinition(random, role, resource, roll < 0.45 ? 'array-any' : roll < 0.8 ? 'object-any' : 'own');
    });
    fillerByRole.set(role, definitions);
  });
  const roles = [
    ...new Set(exampleDefinitions.flatMap((definition) => (typeof definition.roles === 'string' ? [definition.roles] : [...definition.roles]))),
  ].filter((role) => role !== '*');
  const [exclude, include, owned] = pinnedResources as [string, string, string];
  return {
    scale,
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
