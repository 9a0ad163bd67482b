/**
 * CASL (@casl/ability 7): one ability per user, built once from the rules of the user's roles.
 * `'*'` actions and resources map to CASL's `manage` and `all`; `['*', '!x']` becomes a rule plus an
 * inverted rule on field `x`; own grants carry the ownership condition as a MongoDB query on the
 * record (`ownerId`, `creatorId`). Fields: `permittedFieldsOf` + a simple pick.
 * Caveat: CASL resolves inverted field rules by rule order, not as a union across roles; the
 * attribute cases use single-role users, where the two agree.
 */
import { createMongoAbility, subject as tagSubject, type MongoAbility, type MongoQuery, type RawRuleFrom, type AbilityTuple } from '@casl/ability';
import { permittedFieldsOf } from '@casl/ability/extra';
import { DOCUMENT_FIELDS, FILLER_FIELDS, FILLER_HOOKS, type FillerRecord } from '../scenario.js';
import { companyColleagues, selfAndManaged } from './counting-ownership.js';
import type { BenchUser, Decider, FilterPicker, Picker } from './peer.js';
import type { PeerRule } from './rules.js';

type CaslRule = RawRuleFrom<AbilityTuple, MongoQuery>;

/**
 * The condition of an own rule, from the hook that decides ownership: the isOwner hook, or (where
 * ownership is computed, without isOwner) the limitOwned or listOwned hook of the same meaning.
 */
function ownershipCondition(hook: string | undefined, user: BenchUser): MongoQuery | undefined {
  switch (hook) {
    case undefined:
      return undefined;
    case FILLER_HOOKS.isOwner:
    case FILLER_HOOKS.limitOwned:
    case FILLER_HOOKS.listOwned:
      return { ownerId: user.id };
    case 'isCreator':
    case 'limitToCreator':
      return { creatorId: user.id };
    case 'isCreatorOrManagerOfCreator':
    case 'limitToCreatorOrManagedCreators':
      return { creatorId: { $in: selfAndManaged(user.id) } };
    case 'isCreatedInSameCompany':
    case 'listCreatedInSameCompany':
      return { creatorId: { $in: companyColleagues(user.id) } };
    default:
      throw new Error(`CASL model: no condition for ownership hook ${hook}`);
  }
}

/**
 * The ability of one user: the unexpanded rules of its roles.
 *
 * @example
 * ```ts
 * createCaslAbility(flattenRules(scenario.definitions, { expand: false }), { id: 1, roles: ['EMPLOYEE'] }).can('read', 'document'); // true
 * ```
 */
export function createCaslAbility(rules: readonly PeerRule[], user: BenchUser): MongoAbility {
  const caslRules: CaslRule[] = [];
  for (const rule of rules) {
    if (!user.roles.includes(rule.role)) continue;
    const action = rule.action === '*' ? 'manage' : rule.action;
    const subject = rule.resource === '*' ? 'all' : rule.resource;
    const conditions = rule.possession === 'own' ? ownershipCondition(rule.ownershipHook, user) : undefined;
    const withConditions = conditions === undefined ? {} : { conditions };
    const included = rule.attributes.filter((pattern) => pattern !== '*' && !pattern.startsWith('!'));
    const excluded = rule.attributes.filter((pattern) => pattern.startsWith('!')).map((pattern) => pattern.slice(1));
    if (rule.attributes.includes('*')) {
      caslRules.push({ action, subject, ...withConditions });
      if (excluded.length > 0) caslRules.push({ action, subject, fields: excluded, inverted: true, ...withConditions });
    } else {
      caslRules.push({ action, subject, fields: included, ...withConditions });
    }
  }
  return createMongoAbility(caslRules);
}

/** Abilities per user id, built once. */
function abilityCache(rules: readonly PeerRule[]): (user: BenchUser) => MongoAbility {
  const abilities = new Map<number, MongoAbility>();
  return (user) => {
    let ability = abilities.get(user.id);
    if (ability === undefined) abilities.set(user.id, (ability = createCaslAbility(rules, user)));
    return ability;
  };
}

/**
 * `ability.can(action, resource)` with the user's prebuilt ability.
 *
 * @example
 * ```ts
 * const check = await caslDecider(flattenRules(scenario.definitions, { expand: false })).prepare(queries);
 * check(0); // query 0 granted?
 * ```
 */
export function caslDecider(rules: readonly PeerRule[]): Decider {
  const abilityOf = abilityCache(rules);
  return {
    name: 'CASL ability.can',
    crudOnly: false,
    prepare: (queries) => {
      const prepared = queries.map((query) => ({ ability: abilityOf(query.user), resource: query.resource, action: query.action }));
      return Promise.resolve((i: number) => {
        const { ability, action, resource } = prepared[i] as (typeof prepared)[number];
        return ability.can(action, resource);
      });
    },
  };
}

function allFieldsOf(resource: string): readonly string[] {
  return resource === 'document' ? DOCUMENT_FIELDS : FILLER_FIELDS;
}

/** The fields CASL permits, picked from the item. */
function permittedPick(ability: MongoAbility, action: string, resource: string, item: object): Record<string, unknown> {
  const all = allFieldsOf(resource);
  const fields = permittedFieldsOf(ability, action, tagSubject(resource, item), { fieldsFrom: (rule) => rule.fields ?? [...all] });
  const source = item as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of fields) if (Object.hasOwn(source, field)) out[field] = source[field];
  return out;
}

/**
 * `permittedFieldsOf` + pick, per item (the item tagged with its subject type). Any record works:
 * own rules carry their ownership condition, so an example document is picked by whether the user owns it.
 *
 * @example
 * ```ts
 * const pick = await caslPicker(rules).prepare({ user: { id: 1, roles: ['EMPLOYEE'] }, resource: 'document', action: 'read' });
 * pick({ ...document }); // without confidential when user 1 created it
 * ```
 */
export function caslPicker(rules: readonly PeerRule[]): Picker<object> {
  const abilityOf = abilityCache(rules);
  return {
    name: 'CASL permittedFieldsOf + pick',
    prepare: ({ user, resource, action }) => {
      const ability = abilityOf(user);
      return Promise.resolve((item: object) => permittedPick(ability, action, resource, item));
    },
  };
}

/**
 * `ability.can(action, item)` to keep an item (ownership by condition), then permittedFieldsOf + pick.
 *
 * @example
 * ```ts
 * const filterPick = await caslFilterPicker(rules).prepare(pickCase);
 * filterPick(records); // the records the user may read, each picked
 * ```
 */
export function caslFilterPicker(rules: readonly PeerRule[]): FilterPicker {
  const abilityOf = abilityCache(rules);
  return {
    name: 'CASL can + permittedFieldsOf + pick',
    prepare: ({ user, resource, action }) => {
      const ability = abilityOf(user);
      return Promise.resolve((items: readonly FillerRecord[]) => {
        const out: object[] = [];
        for (const item of items) {
          if (ability.can(action, tagSubject(resource, item))) out.push(permittedPick(ability, action, resource, item));
        }
        return out;
      });
    },
  };
}
