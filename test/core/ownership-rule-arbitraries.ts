/**
 * fast-check generators of ownership rules, records and users over one small schema: documents whose creator is a
 * user, users whose manager is a user. Every rule they make is well formed and names only what the schema
 * declares, with values of each attribute's type — and nulls, dangling relations and hostile strings among them.
 */
import fc from 'fast-check';
import type { OwnershipContext } from '../../runtime/core/ownership-rules/ownership-context.js';
import type { OwnershipCondition, OwnershipLiteral, TenantIdType } from '../../runtime/core/ownership-rules/ownership-rule.js';

type Kind = 'number' | 'string' | 'boolean';

/** The declarations the rules are checked and evaluated with. */
export const RULE_CONTEXT: OwnershipContext = {
  resource: 'document',
  relations: new Map([
    ['document', { creator: { resource: 'user', on: 'creatorId' } }],
    ['user', { manager: { resource: 'user', on: 'managerId' } }],
  ]),
  userAttributes: { id: 'number', companyId: 'number', team: 'string', flag: 'boolean', ids: 'number[]', teams: 'string[]' },
};

/** The attributes of each resource, with their kinds (the columns of the test tables). */
export const DOCUMENT_ATTRIBUTES: Readonly<Record<string, Kind>> = { id: 'number', creatorId: 'number', status: 'string', personal: 'boolean' };
export const USER_ATTRIBUTES: Readonly<Record<string, Kind>> = { id: 'number', companyId: 'number', managerId: 'number', team: 'string', flag: 'boolean' };

/** Attribute paths and their kinds: the document's own, through its creator, and through the creator's manager. */
const PATHS: readonly (readonly [string, Kind])[] = [
  ...Object.entries(DOCUMENT_ATTRIBUTES),
  ...Object.entries(USER_ATTRIBUTES).map(([name, kind]) => [`creator.${name}`, kind] as const),
  ...Object.entries(USER_ATTRIBUTES).map(([name, kind]) => [`creator.manager.${name}`, kind] as const),
];
const USER_SCALARS: Readonly<Record<Kind, readonly string[]>> = { number: ['id', 'companyId'], string: ['team'], boolean: ['flag'] };
const USER_LISTS: Readonly<Record<Kind, readonly string[]>> = { number: ['ids'], string: ['teams'], boolean: [] };

/** Small values, so that rows match often; a quote and a placeholder-looking string among the strings. */
const NUMBERS = fc.integer({ min: 0, max: 6 });
const STRINGS = fc.constantFrom('a', 'b', "o'q", '$1', 'É');
const valueOf: Record<Kind, fc.Arbitrary<OwnershipLiteral>> = { number: NUMBERS, string: STRINGS, boolean: fc.boolean() };

function leafArb(tenantKind: Kind | undefined): fc.Arbitrary<OwnershipCondition> {
  return fc.constantFrom(...PATHS).chain(([attribute, kind]) => {
    const forms: fc.Arbitrary<OwnershipCondition>[] = [
      // The tenant's id only where the column holds ids of the tenant id type: a text id against an integer column is a type error.
      ...(kind === tenantKind ? [fc.constant<OwnershipCondition>({ attribute, equals: { tenant: 'id' } })] : []),
      fc.constantFrom(...(USER_SCALARS[kind] as string[])).map((user) => ({ attribute, equals: { user } })),
      fc.array(valueOf[kind], { maxLength: 4 }).map((list) => ({ attribute, in: list })),
    ];
    const lists = USER_LISTS[kind];
    if (lists.length > 0) forms.push(fc.constantFrom(...lists).map((user) => ({ attribute, in: { user } })));
    return fc.oneof(...forms);
  });
}

/** A rule: comparisons under `all` and `any`, three levels deep at most; with the tenant's id where `tenantKind` columns are compared. */
function ruleArbWith(tenantKind: Kind | undefined): fc.Arbitrary<OwnershipCondition> {
  return fc.letrec<{ rule: OwnershipCondition }>((tie) => ({
    rule: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leafArb(tenantKind),
      fc.array(tie('rule'), { minLength: 1, maxLength: 3 }).map((all) => ({ all })),
      fc.array(tie('rule'), { minLength: 1, maxLength: 3 }).map((any) => ({ any })),
    ),
  })).rule;
}

/** A rule: comparisons under `all` and `any`, three levels deep at most. */
export const ruleArb: fc.Arbitrary<OwnershipCondition> = ruleArbWith(undefined);

/** The context of rules that compare the tenant's id, for each tenant id type (a string when left out). */
export const TENANT_RULE_CONTEXTS: Readonly<Record<TenantIdType, OwnershipContext>> = {
  string: RULE_CONTEXT,
  number: { ...RULE_CONTEXT, tenantIdType: 'number' },
};

/** A rule that may compare the tenant's id with the columns of the tenant id type. */
export const tenantRuleArbs: Readonly<Record<TenantIdType, fc.Arbitrary<OwnershipCondition>>> = {
  string: ruleArbWith('string'),
  number: ruleArbWith('number'),
};

/**
 * The tenant of a question: none, the canonical text of a small number, text that reads as a number but is not
 * its canonical text (which selects no record of a number column), or one of the strings the records hold.
 */
export const tenantArb: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  NUMBERS.map(String),
  fc.constantFrom('012', '01', '1e0', ' 1', '1 ', '-0', '1.0', '+1', '0x1'),
  STRINGS,
);

const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null, freq: 4 });

/** The users table: ids 1 to 5 (a creator or manager 6 is dangling). */
export const userRowsArb = fc.tuple(
  ...[1, 2, 3, 4, 5].map((id) =>
    fc.record({
      id: fc.constant(id),
      companyId: nullable(NUMBERS),
      managerId: nullable(fc.integer({ min: 1, max: 6 })),
      team: nullable(STRINGS),
      flag: nullable(fc.boolean()),
    }),
  ),
);

/** The documents table: ids 1 to n. */
export const documentRowsArb = fc
  .array(fc.record({ creatorId: nullable(fc.integer({ min: 1, max: 6 })), status: nullable(STRINGS), personal: nullable(fc.boolean()) }), {
    minLength: 1,
    maxLength: 12,
  })
  .map((rows) => rows.map((row, i) => ({ id: i + 1, ...row })));

/** The user the permit is for, every declared attribute present (null where it has none). */
export const ruleUserArb = fc.record({
  id: nullable(NUMBERS),
  roles: fc.constant(['MEMBER']),
  companyId: nullable(NUMBERS),
  team: nullable(STRINGS),
  flag: nullable(fc.boolean()),
  ids: nullable(fc.array(NUMBERS, { maxLength: 4 })),
  teams: nullable(fc.array(STRINGS, { maxLength: 4 })),
});
