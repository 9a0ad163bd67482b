/**
 * What one set of roles may do, in one policy version, as remote permissions decide it: the combinations the
 * embedded engine would look up — read from the role set's slice (the same plans and groups `grantPermit`
 * decides with) — with each ownership group's methods bound to the application's own ownership service, and each
 * group decided by an ownership rule bound to the application's rule source, as the embedded engine binds it. A
 * Permit made from it is the engine's own Permit class, so every method behaves as it does embedded.
 */
import type { LimitOwnReducer } from '../core/definition/definition-types.js';
import { readSlice, type PermissionSlice } from '../core/decision/permission-slice.js';
import type { PermitContext } from '../core/decision/permit.js';
import type { RefusalReason } from '../core/decision/permit-reason.js';
import { resolveMethod } from '../core/table-building/ownership-methods.js';
import { type BoundHook, NO_GRANT, type Combination, type LoadedOwner, type OwnGrant } from '../core/tables/table-loader.js';
import { PermissionsUsageError } from '../core/common/errors.js';
import { ownershipLabel, type ResourceIdType } from '../core/tables/grant-tables.js';
import type { GroupMethods } from './service-client.js';
import { bindRule } from '../core/decision/bind-rules.js';
import type { OwnershipRuleSource } from '../core/ownership-rules/ownership-rule-source.js';
import type { OwnershipRulesTable } from '../core/tables/grant-tables.js';
import { PermissionsServiceError } from './service-error.js';

/** What remote permits take from the remote permissions' options. */
export interface RemotePermitSettings {
  readonly ownership: object;
  readonly ownershipRules: OwnershipRuleSource | undefined;
  readonly limitOwnReduce: LimitOwnReducer | undefined;
  readonly getResourceId: ((args: { resource: string; item: object }) => unknown) | undefined;
  readonly hookTimeoutMs: number;
  readonly compileProjections: boolean;
}

/** The `[resource, action]` pairs of a slice whose answers name ownership groups: the ones whose methods are asked. */
export function actionsWithGroups(slice: PermissionSlice): [resource: string, action: string][] {
  const asked: [string, string][] = [];
  for (const [resource, actions] of readSlice(slice))
    for (const [action, { own, owners }] of actions) if (own.size > 0 || owners.length > 0) asked.push([resource, action]);
  return asked;
}

/** The application's method `name`, bound; a method the service lacks is a PermissionsUsageError naming it. */
function bound(ownership: object, name: string | undefined, kind: string): BoundHook | undefined {
  if (name === undefined) return undefined;
  const call = resolveMethod(ownership, name);
  if (call === undefined)
    throw new PermissionsUsageError(
      `The policy of the decision service names the ${kind} method ${JSON.stringify(name)}, which the ownership service given to ` +
        'createRemotePermissions does not have: add it (the methods run in this application, never in the service).',
    );
  return { name, call };
}

/** Group `group` on `resource`, decided by the rule `name` of `rules`, bound to the application's rule source. */
function ruleOwner(group: number, resource: string, name: string, rules: OwnershipRulesTable, source: OwnershipRuleSource | undefined): LoadedOwner {
  const rule = rules.rules.find((one) => one.resource === resource && one.name === name);
  if (rule === undefined)
    throw new PermissionsServiceError(
      `The decision service decides ownership group ${group} on ${resource} by the rule ${JSON.stringify(name)}, which its policy does not list; ` +
        'nothing is granted.',
    );
  if (source === undefined)
    throw new PermissionsUsageError(
      `The policy of the decision service decides ownership of ${resource} by the ownership rule ${JSON.stringify(name)}: give createRemotePermissions ` +
        'ownershipRules, the source of the records its rules read (kyselyOwnership(db, { tables }), memoryOwnership(records)).',
    );
  const relations = new Map(Object.entries(rules.relations));
  const context =
    rule.tenantIdType === undefined
      ? { resource, relations, userAttributes: rule.userAttributes }
      : { resource, relations, userAttributes: rule.userAttributes, tenantIdType: rule.tenantIdType };
  const bound = bindRule(source, rule, context);
  const { isOwner, listOwned, limitOwned, ownedAmong } = bound;
  return Object.freeze({ id: group, isOwner, listOwned, limitOwned, ownedAmong, label: ownershipLabel({ rule: name }), rule: bound });
}

/** What remote permissions know of the service's policy's names, as last asked. */
export interface RoleSetVocabulary {
  /** 'unknown-resource' or 'unknown-action' for a name the policy does not have, else undefined. */
  unknownName(resource: string, action: string): RefusalReason | undefined;
  /** The resource's declared id type (undefined: ids of either type). */
  idTypeOf(resource: string): ResourceIdType | undefined;
}

/** A vocabulary that knows nothing: every name known, every id type open. */
const NO_VOCABULARY: RoleSetVocabulary = { unknownName: () => undefined, idTypeOf: () => undefined };

/**
 * The permit context and combinations of one role set in one policy version; `rules` are that version's ownership rules.
 *
 * @example
 * ```ts
 * const policy = new RoleSetPolicy(slice, [['document', 'read']], [[{ group: 0, limitOwned: 'limitToCreator' }]], settings, rules, undefined);
 * new Permit(user, 'document', 'read', undefined, true, true, policy.combination('document', 'read'), policy, undefined);
 * ```
 */
export class RoleSetPolicy implements PermitContext {
  readonly version: string;
  /** The tenant the role set was asked in (its custom roles are the service's to know); undefined for none. */
  readonly tenant: string | undefined;
  /** None: the service sends no definitions, so remote permits cannot explain themselves. */
  readonly tables = undefined;
  readonly limitOwnReduce: LimitOwnReducer | undefined;
  readonly ownershipRules: OwnershipRuleSource | undefined;
  readonly getResourceId: RemotePermitSettings['getResourceId'];
  readonly hookTimeoutMs: number;
  readonly compileProjections: boolean;
  private readonly combinations = new Map<string, Map<string, Combination>>();
  /** Why this role set is refused what the slice does not grant, on known resources and actions (the service's word). */
  private readonly refusal: RefusalReason;
  private readonly owners = new Map<string, readonly LoadedOwner[]>();

  constructor(
    slice: PermissionSlice,
    asked: readonly (readonly [resource: string, action: string])[],
    methods: readonly (readonly GroupMethods[])[],
    settings: RemotePermitSettings,
    rules: OwnershipRulesTable,
    tenant: string | undefined,
    /** What the service's policy, as last asked, says of names: an unknown resource or action, and a resource's id type. */
    private readonly vocabulary: RoleSetVocabulary = NO_VOCABULARY,
  ) {
    this.refusal = slice.refusal ?? 'no-grant';
    this.version = slice.version;
    this.tenant = tenant;
    this.limitOwnReduce = settings.limitOwnReduce;
    this.ownershipRules = settings.ownershipRules;
    this.getResourceId = settings.getResourceId;
    this.hookTimeoutMs = settings.hookTimeoutMs;
    this.compileProjections = settings.compileProjections;
    const loaded = this.loadOwners(asked, methods, settings, rules);
    for (const [resource, actions] of readSlice(slice)) {
      const byAction = new Map<string, Combination>();
      const onResource = new Map<number, LoadedOwner>();
      for (const [action, { any, ownGranted, own, owners }] of actions) {
        const ownerOf = (group: number): LoadedOwner => {
          const owner = loaded.get(`${group}/${resource}`);
          // The service's answers disagree with each other: a bad answer, refused like every other one (nothing is granted).
          if (owner === undefined)
            throw new PermissionsServiceError(`The decision service named ownership group ${group} on ${resource} without its methods; nothing is granted.`);
          onResource.set(group, owner);
          return owner;
        };
        const ownBeyondAny: OwnGrant[] = [];
        for (const [group, plan] of own) {
          const owner = ownerOf(group);
          ownBeyondAny.push({ owner, plan, ownersOnly: Object.freeze([owner]) });
        }
        byAction.set(
          action,
          Object.freeze({
            id: -1,
            anyPlan: any ?? NO_GRANT.anyPlan,
            anyGranted: any !== undefined,
            ownActionGranted: ownGranted,
            ownBeyondAny: Object.freeze(ownBeyondAny),
            owners: Object.freeze(owners.map(ownerOf)),
          }),
        );
      }
      this.combinations.set(resource, byAction);
      this.owners.set(resource, Object.freeze([...onResource.values()].sort((a, b) => a.id - b.id)));
    }
  }

  /** One loaded owner per group and resource: its rule bound to the rule source, or its methods to the ownership service. */
  private loadOwners(
    asked: readonly (readonly [string, string])[],
    methods: readonly (readonly GroupMethods[])[],
    { ownership, ownershipRules }: RemotePermitSettings,
    rules: OwnershipRulesTable,
  ): Map<string, LoadedOwner> {
    const loaded = new Map<string, LoadedOwner>();
    asked.forEach(([resource], i) => {
      for (const group of methods[i] ?? []) {
        const key = `${group.group}/${resource}`;
        if (loaded.has(key)) continue;
        if (group.rule !== undefined) {
          loaded.set(key, ruleOwner(group.group, resource, group.rule, rules, ownershipRules));
          continue;
        }
        const isOwner = bound(ownership, group.isOwner, 'isOwner');
        const listOwned = bound(ownership, group.listOwned, 'listOwned');
        const limitOwned = bound(ownership, group.limitOwned, 'limitOwned');
        const ownedAmong = bound(ownership, group.ownedAmong, 'ownedAmong');
        const label = ownershipLabel({ isOwner: group.isOwner, listOwned: group.listOwned, limitOwned: group.limitOwned, ownedAmong: group.ownedAmong });
        loaded.set(key, Object.freeze({ id: group.group, isOwner, listOwned, limitOwned, ownedAmong, label, rule: undefined }));
      }
    });
    return loaded;
  }

  /** What the role set may do with `action` on `resource` (nothing, when the slice does not grant it). */
  combination(resource: string, action: string): Combination {
    return this.combinations.get(resource)?.get(action) ?? NO_GRANT;
  }

  /** See PermitContext.refusalOf: the vocabulary's word first, then the slice's (every role unknown), else no grant. */
  refusalOf(_combination: Combination, _roles: readonly string[], resource: string, action: string): RefusalReason {
    return this.vocabulary.unknownName(resource, action) ?? this.refusal;
  }

  /** See PermitContext.idTypeOf: the resource's id type in the service's policy. */
  idTypeOf(resource: string): ResourceIdType | undefined {
    return this.vocabulary.idTypeOf(resource);
  }

  /** The role set's ownership groups on `resource`, over every action (the roles are the role set's). */
  ownersOnResource(_roles: readonly string[], resource: string): readonly LoadedOwner[] {
    return this.owners.get(resource) ?? NO_GRANT.owners;
  }
}
