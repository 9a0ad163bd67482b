/**
 * What the guard reads from a GraphQL schema at start — the id candidates among a field's arguments
 * (input objects flattened to dotted names, at most MAX_ID_ARGUMENT_DEPTH levels, recursive inputs bounded) and
 * the non-null fields of the type a guarded field returns — on schemas built by graphql-js itself.
 */
import { describe, expect, it } from '@jest/globals';
import * as graphql from 'graphql';
import { resolveResourceIdParam } from '../../runtime/integration/resource-id-param.js';
import {
  fieldArguments,
  MAX_ID_ARGUMENT_DEPTH,
  MAX_RETURNED_TYPE_DEPTH,
  nonNullReturnedFields,
  schemaFieldOf,
  type GraphQLSchemaLike,
  type GraphQLTypeTools,
} from '../../runtime/nest/graphql/graphql-schema.js';

const tools: GraphQLTypeTools = {
  isNonNullType: (type) => graphql.isNonNullType(type),
  isListType: (type) => graphql.isListType(type),
  isInputObjectType: (type) => graphql.isInputObjectType(type),
  isObjectType: (type) => graphql.isObjectType(type),
  getNullableType: (type) => graphql.getNullableType(type as graphql.GraphQLType),
  getNamedType: (type) => graphql.getNamedType(type as graphql.GraphQLType),
};

const schema = graphql.buildSchema(`
  type Document { id: Int title: String }
  type Strict { id: Int! title: String tags: [String!]! }
  type Address { city: String street: String! }
  type Located { id: Int address: Address parent: Located children: [Located] }
  type L1T { next: L2T }
  type L2T { next: L3T }
  type L3T { next: L4T }
  type L4T { deep: L5T bad: Int! }
  type L5T { worse: Int! }
  input L4 { id: Int! }
  input L3 { l4: L4! id: Int }
  input L2 { l3: L3 }
  input L1 { l2: L2! }
  input Tree { id: ID! parent: Tree }
  type Query {
    document(id: Int!): Document
    documents(first: Int, ids: [Int!]): [Document!]!
    deep(l1: L1!): Document
    tree(node: Tree!): Document
    strict(id: Int!): [Strict]
    located(id: Int!): Located
    chain: L1T
    count: Int!
  }
`) as unknown as GraphQLSchemaLike;

const field = (name: string) => {
  const found = schemaFieldOf(schema, { operation: 'Query', name });
  if (found === undefined) throw new Error(`no field ${name}`);
  return found;
};

describe('reading the schema of guarded resolvers', () => {
  idCandidatesAndNonNullFields();

  it('a field the schema does not have, or an operation type it lacks, is undefined', () => {
    expect(schemaFieldOf(schema, { operation: 'Query', name: 'missing' })).toBeUndefined();
    expect(schemaFieldOf(schema, { operation: 'Query', name: 'toString' })).toBeUndefined();
    expect(schemaFieldOf(schema, { operation: 'Mutation', name: 'document' })).toBeUndefined();
  });
});

function idCandidatesAndNonNullFields(): void {
  it('arguments in order, optional when nullable, lists never an id', () => {
    expect(fieldArguments(field('document'), tools)).toEqual([{ name: 'id', optional: false, wildcard: false }]);
    expect(fieldArguments(field('documents'), tools)).toEqual([
      { name: 'first', optional: true, wildcard: false },
      { name: 'ids', optional: true, wildcard: true },
    ]);
  });

  it(`input objects flatten to dotted names, up to ${MAX_ID_ARGUMENT_DEPTH} levels (the limit: l1.l2.l3.id is in, l1.l2.l3.l4.id is not)`, () => {
    expect(MAX_ID_ARGUMENT_DEPTH).toBe(4);
    expect(fieldArguments(field('deep'), tools)).toEqual([
      { name: 'l1', optional: false, wildcard: true },
      { name: 'l1.l2', optional: false, wildcard: true },
      { name: 'l1.l2.l3', optional: true, wildcard: true },
      { name: 'l1.l2.l3.l4', optional: true, wildcard: true },
      { name: 'l1.l2.l3.id', optional: true, wildcard: false },
    ]);
    const args = fieldArguments(field('deep'), tools);
    expect(resolveResourceIdParam([args], 'l1.l2.l3.id', 'handler', 'any')).toEqual({ kind: 'param', name: 'l1.l2.l3.id', optional: true });
    expect(resolveResourceIdParam([args], 'l1.l2.l3.l4.id', 'handler', 'any')).toEqual({
      problem:
        'takes the resource id from argument "l1.l2.l3.l4.id", which it does not declare ' +
        '(it declares "l1", "l1.l2", "l1.l2.l3", "l1.l2.l3.l4", "l1.l2.l3.id")',
      fix:
        'Set resourceIdParam to one of "l1", "l1.l2", "l1.l2.l3", "l1.l2.l3.l4", "l1.l2.l3.id", ' +
        'or opt out with resourceIdParam: null if this handler does not act on one record.',
    });
  });

  it('a recursive input object is followed to the depth limit, not forever', () => {
    expect(fieldArguments(field('tree'), tools).map((arg) => arg.name)).toEqual([
      'node',
      'node.id',
      'node.parent',
      'node.parent.id',
      'node.parent.parent',
      'node.parent.parent.id',
      'node.parent.parent.parent',
    ]);
  });

  it('the default id is an argument named id anywhere; arguments without one are a problem, and a list cannot be the id', () => {
    expect(resolveResourceIdParam([fieldArguments(field('document'), tools)], undefined, 'default', 'any')).toEqual({
      kind: 'param',
      name: 'id',
      optional: false,
    });
    expect(resolveResourceIdParam([fieldArguments(field('documents'), tools)], undefined, 'default', 'any')).toEqual({
      problem: 'declares the arguments "first", "ids" but none of them is the resource id: the default is an argument named "id" holding one id',
      fix:
        // "ids" is a list: never offered as the id.
        'Set resourceIdParam to the argument that holds the id of the record checked (one of "first"), ' +
        'or opt out with resourceIdParam: null if this handler does not act on one record.',
    });
    expect(resolveResourceIdParam([fieldArguments(field('documents'), tools)], 'ids', 'handler', 'any')).toEqual({
      problem: 'takes the resource id from the argument "ids", which is a list or an input object, not one id',
      fix: 'Take the id from an argument of a scalar type (Int, ID, String) or opt out with resourceIdParam: null if this handler does not act on one record.',
    });
    expect(resolveResourceIdParam([fieldArguments(field('count'), tools)], undefined, 'default', 'any')).toEqual({ kind: 'none' });
  });

  it('the non-null fields of the returned object type, through lists; none for scalars', () => {
    expect(nonNullReturnedFields(field('document'), tools)).toEqual([]);
    expect(nonNullReturnedFields(field('documents'), tools)).toEqual([]);
    expect(nonNullReturnedFields(field('strict'), tools)).toEqual(['Strict.id', 'Strict.tags']);
    expect(nonNullReturnedFields(field('count'), tools)).toEqual([]);
  });

  it('non-null fields of nested object types count too (a hidden address.street nulls the address); recursive types are visited once', () => {
    expect(nonNullReturnedFields(field('located'), tools)).toEqual(['Address.street']);
  });

  it(`nested object types are followed ${MAX_RETURNED_TYPE_DEPTH} levels deep (the limit: L4T.bad is reported, L5T.worse is not)`, () => {
    expect(MAX_RETURNED_TYPE_DEPTH).toBe(4);
    expect(nonNullReturnedFields(field('chain'), tools)).toEqual(['L4T.bad']);
  });
}
