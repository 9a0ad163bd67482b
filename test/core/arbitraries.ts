/**
 * fast-check generators shared by the property tests (engine ≡ reference, client ≡ server, compiled pick,
 * definition and compiler fuzzing). Each is the generator its users used to write out, parameterised by
 * the vocabulary a test draws from (repeat a name in a list to draw it more often).
 *
 * Kept in their own files because they model different things:
 * - the attribute pattern lists of differential.property.test.ts (any mix, filtered to lists that keep
 *   something) and of client-differential.property.test.ts (built to keep something, nested paths);
 * - the hostile values of definition-fuzz (any value, functions included), grant-query-fuzz (flat
 *   JSON-ish query parts) and compile-model.property (JSON only, as it can be written to a file);
 * - the seeded example documents, users and cases of test/example/ownership-differential.property.test.ts.
 */
import fc from 'fast-check';

/** The fields of a definition, as a definition author writes them. */
export const DEFINITION_FIELDS = ['roles', 'resource', 'descr', 'possession', 'grant', 'isOwner', 'listOwned', 'limitOwned'] as const;

/** A definition's `roles`: one name, or a list of one to three different names; each from `roles` or '*'. */
export function definitionRolesArb(roles: readonly string[]): fc.Arbitrary<string | string[]> {
  return fc.oneof(fc.constantFrom<string>(...roles, '*'), fc.uniqueArray(fc.constantFrom<string>(...roles, '*'), { minLength: 1, maxLength: 3 }));
}

/** A grant key: an action from `actions`, bare (twice as often) or with ':any' or ':own'. */
export function grantKeyArb(actions: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom<string>(...actions), fc.constantFrom('', '', ':any', ':own')).map(([action, suffix]) => action + suffix);
}

/** A definition's `grant`: one to three keys as an array, or one to three keys each with its attribute patterns. */
export function grantArb<P>(keys: fc.Arbitrary<string>, patterns: fc.Arbitrary<P>): fc.Arbitrary<string[] | Record<string, P>> {
  return fc.oneof(
    fc.array(keys, { minLength: 1, maxLength: 3 }),
    fc.array(fc.tuple(keys, patterns), { minLength: 1, maxLength: 3 }).map((entries) => Object.fromEntries(entries)),
  );
}

/** What a generated definition may draw its fields from. */
export interface DefinitionVocabulary<P> {
  readonly roles: readonly string[];
  readonly resources: readonly string[];
  readonly possessions: readonly ('own' | 'any' | undefined)[];
  readonly actions: readonly string[];
  readonly patterns: fc.Arbitrary<P>;
}

/** The arbitraries of a definition's roles, resource, possession and grant, to spread into an `fc.record` beside a test's own hook fields. */
export function definitionFieldArbs<P>({ roles, resources, possessions, actions, patterns }: DefinitionVocabulary<P>) {
  return {
    roles: definitionRolesArb(roles),
    resource: fc.constantFrom<string>(...resources),
    possession: fc.constantFrom<'own' | 'any' | undefined>(...possessions),
    grant: grantArb(grantKeyArb(actions), patterns),
  };
}

/** Whether a definition grants an action as own: a key ending in ':own', or a bare key with possession 'own'. */
export function grantsOwn(definition: {
  readonly grant: readonly string[] | Readonly<Record<string, unknown>>;
  readonly possession?: 'own' | 'any' | undefined;
}): boolean {
  const keys = Array.isArray(definition.grant) ? (definition.grant as readonly string[]) : Object.keys(definition.grant);
  return keys.some((key) => key.endsWith(':own') || (!key.includes(':') && definition.possession === 'own'));
}

/** A user `{ id, roles }`: an id from `ids`, roles drawn (with repeats) from `roles`, as many as `length` allows. */
export function userArb<Id>(ids: readonly Id[], roles: readonly string[], length: fc.ArrayConstraints): fc.Arbitrary<{ id: Id; roles: string[] }> {
  return fc.record({ id: fc.constantFrom(...ids), roles: fc.array(fc.constantFrom<string>(...roles), length) });
}

/**
 * The items of `items`, half of them with an own, enumerable data property named '__proto__' — as
 * JSON.parse makes it — which a pick must treat as data and never as the prototype.
 */
export function withOwnProtoKeyArb<T extends Record<string, unknown>>(items: fc.Arbitrary<T>): fc.Arbitrary<Record<string, unknown>> {
  return items
    .chain((item) => fc.boolean().map((withProtoKey) => ({ item, withProtoKey })))
    .map(({ item, withProtoKey }) => {
      const copy: Record<string, unknown> = { ...item };
      if (withProtoKey) Object.defineProperty(copy, '__proto__', { value: 'proto data', enumerable: true, writable: true, configurable: true });
      return copy;
    });
}

/** An attribute pattern over the names `names` draws: '*', a name, or a name excluded ('!name'). */
export function attributePatternArb(names: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant('*'),
    names,
    names.map((name) => `!${name}`),
  );
}
