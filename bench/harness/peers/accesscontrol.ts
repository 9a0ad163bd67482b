/**
 * accesscontrol 3 (custom actions via `.do()`) and accesscontrol 2.2.1 (CRUD only: its grants reject
 * any other action, so its model drops the custom grants and it answers CRUD queries only).
 * Neither has a `'*'` resource or action: those are expanded to the known names.
 * Possession: a decision "in some possession" is asked as `:own`, which accesscontrol grants when
 * either an own or an any grant exists (no ownership resolver is configured, as in v2).
 */
import { AccessControl, type IGrantsListItem } from 'accesscontrol';
import AccessControl2Module from 'accesscontrol-2';
import { CRUD_ACTIONS, type FillerRecord } from '../scenario.js';
import type { CountingOwnership } from './counting-ownership.js';
import type { Decider, DecisionQuery, FilterPicker, Picker } from './peer.js';
import type { PeerRule } from './rules.js';

const AccessControl2 = AccessControl2Module.AccessControl;
type AccessControl2 = InstanceType<typeof AccessControl2>;

const crud: ReadonlySet<string> = new Set(CRUD_ACTIONS);

/**
 * An accesscontrol 3 instance from expanded rules, as a grants list.
 *
 * @example
 * ```ts
 * createAccessControl3(flattenRules(scenario.definitions, { expand: true })).can(['EMPLOYEE']).do('read:own', 'document').granted;
 * ```
 */
export function createAccessControl3(rules: readonly PeerRule[]): AccessControl {
  const rows: IGrantsListItem[] = rules.map((rule) => ({
    role: rule.role,
    resource: rule.resource,
    action: `${rule.action}:${rule.possession}`,
    attributes: [...rule.attributes],
  }));
  return new AccessControl(rows);
}

/**
 * An accesscontrol 2 instance from expanded rules, as its grants object; custom actions are dropped.
 *
 * @example
 * ```ts
 * createAccessControl2(rules).permission({ role: ['EMPLOYEE'], resource: 'document', action: 'read', possession: 'own' }).granted;
 * ```
 */
export function createAccessControl2(rules: readonly PeerRule[]): AccessControl2 {
  const grants: Record<string, Record<string, Record<string, string[]>>> = {};
  for (const rule of rules) {
    if (!crud.has(rule.action)) continue;
    ((grants[rule.role] ??= {})[rule.resource] ??= {})[`${rule.action}:${rule.possession}`] = [...rule.attributes];
  }
  return new AccessControl2(grants);
}

/**
 * `ac.can(roles).do('<action>:own', resource).granted` (accesscontrol 3).
 *
 * @example
 * ```ts
 * const check = await accessControl3Decider(createAccessControl3(expandedRules)).prepare(queries);
 * check(0); // query 0 granted?
 * ```
 */
export function accessControl3Decider(ac: AccessControl): Decider {
  return {
    name: 'accesscontrol 3 can().do()',
    crudOnly: false,
    prepare: (queries) =>
      Promise.resolve((i: number) => {
        const { user, resource, action } = queries[i] as DecisionQuery;
        return ac.can(user.roles as string[]).do(`${action}:own`, resource).granted;
      }),
  };
}

/**
 * `ac.permission({ role, resource, action, possession: 'own' }).granted` (accesscontrol 2, CRUD only).
 *
 * @example
 * ```ts
 * const check = await accessControl2Decider(createAccessControl2(expandedRules)).prepare(crudQueries);
 * check(0); // query 0 granted?
 * ```
 */
export function accessControl2Decider(ac: AccessControl2): Decider {
  return {
    name: 'accesscontrol 2 permission()',
    crudOnly: true,
    prepare: (queries) =>
      Promise.resolve((i: number) => {
        const { user, resource, action } = queries[i] as DecisionQuery;
        return ac.permission({ role: user.roles as string[], resource, action, possession: 'own' }).granted;
      }),
  };
}

/**
 * `permission.filter(item)`, the permission resolved once (per request).
 *
 * @example
 * ```ts
 * const [ac3, ac2] = accessControlPickers(subjects.accessControl3, subjects.accessControl2);
 * (await ac3.prepare(pickCase))(record); // the record with the allowed attributes
 * ```
 */
export function accessControlPickers(ac3: AccessControl, ac2: AccessControl2): Picker[] {
  return [
    {
      name: 'accesscontrol 3 filter',
      prepare: ({ user, resource }) => {
        const permission = ac3.can(user.roles as string[]).readAny(resource);
        return Promise.resolve((item: FillerRecord) => permission.filter(item));
      },
    },
    {
      name: 'accesscontrol 2 filter',
      prepare: ({ user, resource }) => {
        // accesscontrol 2 declares filter(data: any): any; it returns the filtered copy of the record.
        const permission: { filter(data: FillerRecord): unknown } = ac2.can(user.roles as string[]).readAny(resource);
        return Promise.resolve((item: FillerRecord) => permission.filter(item) as object);
      },
    },
  ];
}

/**
 * The list with accesscontrol 3: resolve the any and own permissions, list the owned ids once (the
 * application's query), keep what is owned or readable as any, filter each item.
 *
 * @example
 * ```ts
 * const filterPick = await accessControl3FilterPicker(subjects.accessControl3, subjects.ownership).prepare(pickCase);
 * await filterPick(records); // the visible records, each filtered
 * ```
 */
export function accessControl3FilterPicker(ac: AccessControl, ownership: CountingOwnership): FilterPicker {
  return {
    name: 'accesscontrol 3 filter',
    prepare: ({ user, resource }) =>
      Promise.resolve((items: readonly FillerRecord[]) => {
        const roles = user.roles as string[];
        const any = ac.can(roles).readAny(resource);
        const own = ac.can(roles).readOwn(resource);
        const owned = new Set(ownership.listOwnedRecords({ user }));
        const out: object[] = [];
        for (const item of items) {
          if (own.granted && owned.has(item.id)) out.push(own.filter(item));
          else if (any.granted) out.push(any.filter(item));
        }
        return out;
      }),
  };
}
