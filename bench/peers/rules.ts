/**
 * The scenario's definitions as flat rules (role, resource, action, possession, attributes), the
 * common input from which each peer library builds its own model.
 */
import type { PermissionDefinitionJson } from '../../runtime/permissions/index.js';
import { CRUD_ACTIONS } from '../scenario.js';

/** One grant of one role. `resource` and `action` may be `'*'` unless expanded. */
export interface PeerRule {
  readonly role: string;
  readonly resource: string;
  readonly action: string;
  readonly possession: 'any' | 'own';
  readonly attributes: readonly string[];
  /**
   * For own rules, the hook whose meaning the peers model as a condition: the definition's isOwner,
   * else its limitOwned (isOwner is optional where ownership can be computed), else its listOwned.
   */
  readonly ownershipHook?: string;
}

/** The known names, as the library computes them: roles and resources named anywhere, CRUD plus every action granted. */
export interface Universe {
  readonly roles: readonly string[];
  readonly resources: readonly string[];
  readonly actions: readonly string[];
}

function rolesOf(definition: PermissionDefinitionJson): readonly string[] {
  return typeof definition.roles === 'string' ? [definition.roles] : definition.roles;
}

function entriesOf(definition: PermissionDefinitionJson): [key: string, attributes: readonly string[]][] {
  if (Array.isArray(definition.grant)) return (definition.grant as readonly string[]).map((key) => [key, ['*']]);
  return Object.entries(definition.grant as Readonly<Record<string, readonly string[]>>);
}

function parseKey(key: string, fallback: 'any' | 'own'): { action: string; possession: 'any' | 'own' } {
  const colon = key.lastIndexOf(':');
  if (colon === -1) return { action: key, possession: fallback };
  return { action: key.slice(0, colon), possession: key.slice(colon + 1) === 'own' ? 'own' : 'any' };
}

/** The name of the hook that decides ownership for a definition's own grants, whichever kind it is. */
function ownershipHookOf(definition: PermissionDefinitionJson): string | undefined {
  return definition.isOwner ?? definition.limitOwned ?? definition.listOwned;
}

/**
 * The known universe of a set of definitions.
 *
 * @example
 * ```ts
 * universeOf(scenario.definitions).actions; // ['approve', 'archive', …, 'create', 'delete', 'list', …]
 * ```
 */
export function universeOf(definitions: readonly PermissionDefinitionJson[]): Universe {
  const roles = new Set<string>();
  const resources = new Set<string>();
  const actions = new Set<string>(CRUD_ACTIONS);
  for (const definition of definitions) {
    for (const role of rolesOf(definition)) if (role !== '*') roles.add(role);
    if (definition.resource !== '*') resources.add(definition.resource);
    for (const [key] of entriesOf(definition)) {
      const { action } = parseKey(key, 'any');
      if (action !== '*') actions.add(action);
    }
  }
  return { roles: [...roles].sort(), resources: [...resources].sort(), actions: [...actions].sort() };
}

/**
 * Flattens definitions into rules. With `expand`, `'*'` roles, resources and actions become every
 * known one (for peers without wildcards); without it, `'*'` resources and actions stay.
 *
 * @example
 * ```ts
 * flattenRules(scenario.definitions, { expand: true }).filter((rule) => rule.role === 'SUPER_ADMIN').length; // resources × actions
 * ```
 */
export function flattenRules(definitions: readonly PermissionDefinitionJson[], options: { readonly expand: boolean }): PeerRule[] {
  const universe = universeOf(definitions);
  const rules: PeerRule[] = [];
  for (const definition of definitions) {
    const roles = rolesOf(definition).flatMap((role) => (role === '*' ? universe.roles : [role]));
    const resources = options.expand && definition.resource === '*' ? universe.resources : [definition.resource];
    const ownershipHook = ownershipHookOf(definition);
    for (const [key, attributes] of entriesOf(definition)) {
      const parsed = parseKey(key, definition.possession ?? 'any');
      const actions = options.expand && parsed.action === '*' ? universe.actions : [parsed.action];
      for (const role of roles) {
        for (const resource of resources) {
          for (const action of actions) {
            const rule: PeerRule = { role, resource, action, possession: parsed.possession, attributes };
            rules.push(parsed.possession === 'own' && ownershipHook !== undefined ? { ...rule, ownershipHook } : rule);
          }
        }
      }
    }
  }
  return rules;
}
