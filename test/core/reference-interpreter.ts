/**
 * A deliberately naive reference interpreter of PermissionDefinitions, written from SPEC.md and the
 * semantics brief alone. It precomputes nothing: every question scans the definitions again. It
 * shares no code with runtime/core (only types), so that the differential test compares two
 * independent readings of the rules. It handles flat attributes only (no dotted paths).
 *
 * Resources may declare their actions (`Declared`): there, a grant reaches only declared actions (`*` means
 * those), a grant naming another one on that resource is a build error, a `*`-resource grant naming an action no
 * resource takes is one too, and a query for another action is refused.
 */
import type { PermissionDefinition, Possession, User } from '../../runtime/core/definition/definition-types.js';

/** The four actions that always exist. */
const ALWAYS_KNOWN_ACTIONS = ['create', 'read', 'update', 'delete'];

/** A name no pattern ever mentions: whether it is kept tells whether '*' is in effect. */
export const UNMENTIONED_ATTRIBUTE = '\u0000unmentioned';

/** The actions some resources declare, by resource; a resource not listed declares none. */
export type Declared = Readonly<Record<string, readonly string[]>>;

/** The actions `resource` declares, when it declares them (own keys only: a resource may be named `__proto__`). */
function declaredOf(declared: Declared, resource: string): readonly string[] | undefined {
  return Object.hasOwn(declared, resource) ? declared[resource] : undefined;
}

/** Whether `resource` takes `action`: it declares it, or declares none. */
function takes(declared: Declared, resource: string, action: string): boolean {
  const actions = declaredOf(declared, resource);
  return actions === undefined || actions.includes(action);
}

/** Methods of an ownership service, looked up by the hook strings of definitions. */
export type ReferenceOwnership = Readonly<Record<string, (args: never) => unknown>>;

/** One grant entry of one definition, after the suffix and default possession are applied. */
interface ReferenceEntry {
  readonly action: string;
  readonly possession: Possession;
  readonly patterns: readonly string[];
}

/** The hooks of one definition as written (a function or a method name each). */
interface WrittenHooks {
  readonly isOwner: unknown;
  readonly listOwned: unknown;
  readonly limitOwned: unknown;
}

// ---------------------------------------------------------------------------------------------
// Reading definitions
// ---------------------------------------------------------------------------------------------

function rolesWritten(definition: PermissionDefinition): string[] {
  const roles: unknown = definition.roles;
  return typeof roles === 'string' ? [roles] : [...(roles as readonly string[])];
}

function entriesOf(definition: PermissionDefinition): ReferenceEntry[] {
  const fallback: Possession = definition.possession ?? 'any';
  const read = (key: string, patterns: readonly string[]): ReferenceEntry => {
    const colon = key.indexOf(':');
    if (colon === -1) return { action: key, possession: fallback, patterns };
    return { action: key.slice(0, colon), possession: key.slice(colon + 1) as Possession, patterns };
  };
  const grant: unknown = definition.grant;
  if (Array.isArray(grant)) return (grant as string[]).map((key) => read(key, ['*']));
  return Object.entries(grant as Record<string, readonly string[]>).map(([key, patterns]) => read(key, patterns));
}

function hooksOf(definition: PermissionDefinition): WrittenHooks | undefined {
  const written = definition as unknown as Record<string, unknown>;
  if (written['isOwner'] === undefined) return undefined;
  return { isOwner: written['isOwner'], listOwned: written['listOwned'], limitOwned: written['limitOwned'] };
}

/** Roles named anywhere, except '*'. */
export function knownRoles(definitions: readonly PermissionDefinition[]): string[] {
  const roles: string[] = [];
  for (const definition of definitions) {
    for (const role of rolesWritten(definition)) if (role !== '*' && !roles.includes(role)) roles.push(role);
  }
  return roles;
}

/** Resources named anywhere, except '*'. */
export function knownResources(definitions: readonly PermissionDefinition[]): string[] {
  const resources: string[] = [];
  for (const definition of definitions) {
    if (definition.resource !== '*' && !resources.includes(definition.resource)) resources.push(definition.resource);
  }
  return resources;
}

/** CRUD plus every action named in a grant key, except '*', plus every action a resource named anywhere declares. */
export function knownActions(definitions: readonly PermissionDefinition[], declared: Declared = {}): string[] {
  const actions = [...ALWAYS_KNOWN_ACTIONS];
  for (const definition of definitions) {
    for (const entry of entriesOf(definition)) if (entry.action !== '*' && !actions.includes(entry.action)) actions.push(entry.action);
  }
  for (const resource of knownResources(definitions)) {
    for (const action of declaredOf(declared, resource) ?? []) if (!actions.includes(action)) actions.push(action);
  }
  return actions;
}

/**
 * Whether some grant names an action where it is not declared: on a resource that declares its actions, or on
 * '*' when every resource declares its actions and none declares it (a build error).
 */
export function namesUndeclaredAction(definitions: readonly PermissionDefinition[], declared: Declared): boolean {
  const resources = knownResources(definitions);
  return definitions.some((definition) =>
    entriesOf(definition).some((entry) => {
      if (entry.action === '*') return false;
      if (definition.resource !== '*') return !takes(declared, definition.resource, entry.action);
      return resources.length > 0 && resources.every((resource) => !takes(declared, resource, entry.action));
    }),
  );
}

/** Whether a query is refused: its resource is known and declares its actions, and not this one. */
export function refusesQuery(definitions: readonly PermissionDefinition[], declared: Declared, resource: string, action: string): boolean {
  return knownResources(definitions).includes(resource) && !takes(declared, resource, action);
}

// ---------------------------------------------------------------------------------------------
// Attribute patterns, applied in order for each key
// ---------------------------------------------------------------------------------------------

/** Whether one list of patterns keeps `key`: start with "dropped", then apply every pattern in order. */
export function patternsKeep(patterns: readonly string[], key: string): boolean {
  let kept = false;
  for (const pattern of patterns) {
    if (pattern === '*') kept = true;
    else if (pattern === '!*') kept = false;
    else if (pattern === key) kept = true;
    else if (pattern === `!${key}`) kept = false;
  }
  return kept;
}

/** Whether any of several pattern lists keeps `key` (set union). */
export function anyListKeeps(lists: readonly (readonly string[])[], key: string): boolean {
  for (const patterns of lists) if (patternsKeep(patterns, key)) return true;
  return false;
}

/** The names patterns mention, without '!' and without '*'. */
function mentionedNames(lists: readonly (readonly string[])[]): string[] {
  const names: string[] = [];
  for (const patterns of lists) {
    for (const pattern of patterns) {
      const name = pattern.startsWith('!') ? pattern.slice(1) : pattern;
      if (name !== '*' && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

/** Whether the union of the lists keeps at least one attribute of an open-ended set of names. */
export function listsKeepSomething(lists: readonly (readonly string[])[]): boolean {
  if (anyListKeeps(lists, UNMENTIONED_ATTRIBUTE)) return true;
  return mentionedNames(lists).some((name) => anyListKeeps(lists, name));
}

/** The canonical patterns of the union: `['*', '!a', '!b']` (exclusions sorted) or `['a', 'b']` (sorted). */
export function canonicalPatterns(lists: readonly (readonly string[])[]): string[] {
  const names = mentionedNames(lists).sort();
  if (anyListKeeps(lists, UNMENTIONED_ATTRIBUTE)) {
    return ['*', ...names.filter((name) => !anyListKeeps(lists, name)).map((name) => `!${name}`)];
  }
  return names.filter((name) => anyListKeeps(lists, name));
}

/** A new plain object with the own enumerable keys of `item` that the lists keep; '__proto__' is copied as data. */
export function pickByLists(lists: readonly (readonly string[])[], item: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(item)) {
    if (!anyListKeeps(lists, key)) continue;
    Object.defineProperty(out, key, { value: (item as Record<string, unknown>)[key], enumerable: true, writable: true, configurable: true });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Build-time conflicts
// ---------------------------------------------------------------------------------------------

/** What the reference expects of build() regarding redefinitions of explicit cells. */
export interface ReferenceRedefinitions {
  /** Two definitions write the same explicit (role, resource, action, possession). */
  readonly overlap: boolean;
  /** ...and keep different attributes there (a build error). */
  readonly conflict: boolean;
}

/**
 * Explicit cells: a role other than '*', a resource other than '*', an action other than '*'. A
 * definition's attributes for one of its explicit cells are the union of its entries reaching it.
 */
export function referenceRedefinitions(definitions: readonly PermissionDefinition[], attributeNames: readonly string[]): ReferenceRedefinitions {
  let overlap = false;
  let conflict = false;
  const names = [...attributeNames, UNMENTIONED_ATTRIBUTE];
  const explicitLists = (definition: PermissionDefinition, action: string, possession: Possession): string[][] =>
    entriesOf(definition)
      .filter((entry) => entry.action === action && entry.possession === possession)
      .map((entry) => [...entry.patterns]);
  // Inside one definition, two entries for the same explicit cell ('read' with possession any, and
  // 'read:any') are a conflict when they keep different attributes: the engine refuses the ambiguity.
  for (const definition of definitions) {
    if (definition.resource === '*' || !rolesWritten(definition).some((role) => role !== '*')) continue;
    for (const entry of entriesOf(definition)) {
      if (entry.action === '*') continue;
      const lists = explicitLists(definition, entry.action, entry.possession);
      if (lists.length < 2) continue;
      overlap = true;
      if (lists.some((list) => names.some((name) => anyListKeeps([list], name) !== anyListKeeps([lists[0] as string[]], name)))) conflict = true;
    }
  }
  for (let i = 0; i < definitions.length; i++) {
    for (let j = i + 1; j < definitions.length; j++) {
      const first = definitions[i] as PermissionDefinition;
      const second = definitions[j] as PermissionDefinition;
      if (first.resource === '*' || first.resource !== second.resource) continue;
      const sharedRoles = rolesWritten(first).filter((role) => role !== '*' && rolesWritten(second).includes(role));
      if (sharedRoles.length === 0) continue;
      for (const entry of entriesOf(first)) {
        if (entry.action === '*') continue;
        const mine = explicitLists(first, entry.action, entry.possession);
        const theirs = explicitLists(second, entry.action, entry.possession);
        if (theirs.length === 0) continue;
        overlap = true;
        if (names.some((name) => anyListKeeps(mine, name) !== anyListKeeps(theirs, name))) conflict = true;
      }
    }
  }
  return { overlap, conflict };
}

// ---------------------------------------------------------------------------------------------
// Grant queries
// ---------------------------------------------------------------------------------------------

/** A grant query as the reference reads it. */
export interface ReferenceQuery {
  readonly user: User<number>;
  readonly resource: string;
  readonly action: string;
  readonly resourceId?: number | null | undefined;
}

/** An ownership group: one hook triple, and the own attributes of the applying definitions that use it. */
interface ReferenceGroup {
  readonly hooks: WrittenHooks;
  readonly ownLists: string[][];
}

/** What listOwn() should do. */
export type ReferenceListOwn = { readonly error: true } | { readonly error: false; readonly ids: readonly unknown[] };

/** What limitOwn() should do without a `limitOwnReduce` option; `undefined` when no group applies (not specified). */
export type ReferenceLimitOwn = { readonly error: true } | { readonly error: false; readonly filter: unknown } | undefined;

/** The reference's answer to a grant query. */
export interface ReferencePermit {
  readonly granted: boolean;
  readonly anyGranted: boolean;
  readonly ownGranted: boolean;
  /** Canonical patterns of the union of the any-cells. */
  readonly anyAttributes: string[];
  /** Whether the any-cells keep `key`. */
  keepsAsAny(key: string): boolean;
  /** Number of distinct ownership groups for this (user, resource, action). */
  readonly groupCount: number;
  /** Whether some group's hook triple has a listOwned hook. */
  readonly listGroupCount: number;
  isOwn(resourceId: unknown): Promise<boolean>;
  pick(item: object): Promise<Record<string, unknown>>;
  filterPick(items: readonly object[]): Promise<Record<string, unknown>[]>;
  listOwn(): Promise<ReferenceListOwn>;
  limitOwn(): ReferenceLimitOwn;
}

function sameHooks(a: WrittenHooks, b: WrittenHooks): boolean {
  return a.isOwner === b.isOwner && a.listOwned === b.listOwned && a.limitOwned === b.limitOwned;
}

function callHook(hook: unknown, ownership: ReferenceOwnership | undefined, args: object): unknown {
  if (typeof hook === 'function') return (hook as (args: object) => unknown)(args);
  const method = ownership?.[hook as string];
  if (method === undefined) throw new Error(`reference: no ownership method ${String(hook)}`);
  return (method as (args: object) => unknown).call(ownership, args);
}

/**
 * Answers one grant query by scanning the definitions.
 *
 * @example
 * ```ts
 * const permit = await referenceGrant(definitions, undefined, { user: { id: 1, roles: ['A'] }, resource: 'doc', action: 'read' });
 * permit.granted;
 * ```
 */
export async function referenceGrant(
  definitions: readonly PermissionDefinition[],
  ownership: ReferenceOwnership | undefined,
  query: ReferenceQuery,
  declared: Declared = {},
): Promise<ReferencePermit> {
  const { user, resource, action } = query;
  const roles = knownRoles(definitions);
  const userRoles = user.roles.filter((role) => roles.includes(role));
  const resourceKnown = knownResources(definitions).includes(resource);
  const actionKnown = knownActions(definitions, declared).includes(action) && takes(declared, resource, action);

  const applies = (definition: PermissionDefinition): boolean => {
    if (!resourceKnown || !actionKnown) return false;
    if (definition.resource !== '*' && definition.resource !== resource) return false;
    const written = rolesWritten(definition);
    return userRoles.some((role) => written.includes(role) || written.includes('*'));
  };
  const reaches = (entry: ReferenceEntry): boolean => entry.action === action || entry.action === '*';

  const anyLists: string[][] = [];
  let ownActionGranted = false;
  const groups: ReferenceGroup[] = [];
  for (const definition of definitions) {
    if (!applies(definition)) continue;
    const entries = entriesOf(definition).filter(reaches);
    if (entries.length === 0) continue;
    for (const entry of entries) {
      if (entry.possession === 'any') anyLists.push([...entry.patterns]);
      else ownActionGranted = true;
    }
    const hooks = hooksOf(definition);
    if (hooks === undefined) continue;
    let group = groups.find((candidate) => sameHooks(candidate.hooks, hooks));
    if (group === undefined) {
      group = { hooks, ownLists: [] };
      groups.push(group);
    }
    for (const entry of entries) if (entry.possession === 'own') group.ownLists.push([...entry.patterns]);
  }

  const anyGranted = listsKeepSomething(anyLists);
  const ownerAnswer = async (group: ReferenceGroup, resourceId: unknown): Promise<boolean> =>
    (await callHook(group.hooks.isOwner, ownership, { user, resourceId })) === true;
  const isOwn = async (resourceId: unknown): Promise<boolean> => {
    for (const group of groups) if (await ownerAnswer(group, resourceId)) return true;
    return false;
  };

  let granted: boolean;
  if (query.resourceId === undefined || query.resourceId === null) granted = anyGranted || ownActionGranted;
  else if (anyGranted) granted = true;
  else if (ownActionGranted) granted = await isOwn(query.resourceId);
  else granted = false;

  const pickOwnedBy = (item: object, owners: readonly ReferenceGroup[]): Record<string, unknown> => {
    if (!anyGranted && owners.length === 0) return {};
    return pickByLists([...anyLists, ...owners.flatMap((group) => group.ownLists)], item);
  };
  const idOf = (item: object): unknown => (item as Record<string, unknown>)['id'];

  return {
    granted,
    anyGranted,
    ownGranted: granted,
    anyAttributes: canonicalPatterns(anyLists),
    keepsAsAny: (key) => anyListKeeps(anyLists, key),
    groupCount: groups.length,
    listGroupCount: groups.filter((group) => group.hooks.listOwned !== undefined).length,
    isOwn,
    async pick(item) {
      const owners: ReferenceGroup[] = [];
      for (const group of groups) if (await ownerAnswer(group, idOf(item))) owners.push(group);
      return pickOwnedBy(item, owners);
    },
    async filterPick(items) {
      const listed = new Map<ReferenceGroup, readonly unknown[]>();
      for (const group of groups) {
        if (group.hooks.listOwned !== undefined) listed.set(group, (await callHook(group.hooks.listOwned, ownership, { user })) as unknown[]);
      }
      const out: Record<string, unknown>[] = [];
      for (const item of items) {
        const owners: ReferenceGroup[] = [];
        for (const group of groups) {
          const ids = listed.get(group);
          const owned = ids === undefined ? await ownerAnswer(group, idOf(item)) : ids.includes(idOf(item));
          if (owned) owners.push(group);
        }
        if (anyGranted || owners.length > 0) out.push(pickOwnedBy(item, owners));
      }
      return out;
    },
    async listOwn() {
      // With no ownership group nothing is owned: the list is empty. A group without listOwned cannot be listed.
      if (groups.some((group) => group.hooks.listOwned === undefined)) return { error: true };
      const ids: unknown[] = [];
      for (const group of groups) {
        for (const id of (await callHook(group.hooks.listOwned, ownership, { user })) as unknown[]) if (!ids.includes(id)) ids.push(id);
      }
      return { error: false, ids };
    },
    limitOwn() {
      if (groups.length === 0) return undefined;
      if (groups.length > 1 || groups.some((group) => group.hooks.limitOwned === undefined)) return { error: true };
      return { error: false, filter: callHook((groups[0] as ReferenceGroup).hooks.limitOwned, ownership, { user }) };
    },
  };
}
