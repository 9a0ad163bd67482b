/**
 * casbin 5, in memory: an RBAC model (users are assigned roles with `g`, roles get `p` lines),
 * loaded with `newModelFromString` and a `StringAdapter`, checked with `enforceSync`. A `'*'`
 * resource or action stays one line, matched by the matcher. casbin has no possession and no
 * attributes: a decision "in some possession" is one `p` line per role, resource and action.
 */
import { newEnforcer, newModelFromString, StringAdapter, type Enforcer } from 'casbin';
import type { BenchUser, Decider } from './peer.js';
import type { PeerRule } from './rules.js';

/** The RBAC model with wildcards for the super-admin line. */
export const CASBIN_MODEL = `
[request_definition]
r = sub, obj, act

[policy_definition]
p = sub, obj, act

[role_definition]
g = _, _

[policy_effect]
e = some(where (p.eft == allow))

[matchers]
m = g(r.sub, p.sub) && (p.obj == "*" || r.obj == p.obj) && (p.act == "*" || r.act == p.act)
`;

/**
 * The casbin subject of a bench user.
 *
 * @example
 * ```ts
 * casbinSubject({ id: 7, roles: ['EMPLOYEE'] }); // 'user_7'
 * ```
 */
export const casbinSubject = (user: BenchUser): string => `user_${user.id}`;

/**
 * The `p` lines of the rules (one per role, resource and action), sorted.
 *
 * @example
 * ```ts
 * casbinPolicyLines(rules)[0]; // 'p, COMPANY_ADMIN, document, read'
 * ```
 */
export function casbinPolicyLines(rules: readonly PeerRule[]): string[] {
  return [...new Set(rules.map((rule) => `p, ${rule.role}, ${rule.resource}, ${rule.action}`))].sort();
}

/**
 * An enforcer for the given policy lines and users (one `g` line per user and role).
 *
 * @example
 * ```ts
 * const enforcer = await createCasbinEnforcer(casbinPolicyLines(rules), [{ id: 1, roles: ['EMPLOYEE'] }]);
 * enforcer.enforceSync('user_1', 'document', 'read'); // true
 * ```
 */
export async function createCasbinEnforcer(policyLines: readonly string[], users: readonly BenchUser[]): Promise<Enforcer> {
  const groupings = new Set<string>();
  for (const user of users) for (const role of user.roles) groupings.add(`g, ${casbinSubject(user)}, ${role}`);
  return newEnforcer(newModelFromString(CASBIN_MODEL), new StringAdapter([...policyLines, ...groupings].join('\n')));
}

/**
 * `enforcer.enforceSync(user, resource, action)`, the users of the queries assigned their roles.
 *
 * @example
 * ```ts
 * const check = await casbinDecider(rules).prepare(queries);
 * check(0); // query 0 granted?
 * ```
 */
export function casbinDecider(rules: readonly PeerRule[]): Decider {
  const policyLines = casbinPolicyLines(rules);
  return {
    name: 'casbin enforceSync',
    crudOnly: false,
    prepare: async (queries) => {
      const enforcer = await createCasbinEnforcer(
        policyLines,
        queries.map((query) => query.user),
      );
      const prepared = queries.map((query) => [casbinSubject(query.user), query.resource, query.action] as const);
      return (i) => {
        const [subject, resource, action] = prepared[i] as (typeof prepared)[number];
        return enforcer.enforceSync(subject, resource, action);
      };
    },
  };
}
