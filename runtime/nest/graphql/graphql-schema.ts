/**
 * What the permissions guard reads from an application's GraphQL schema at start: the arguments of each
 * guarded root field (where the record id comes from) and the fields of the object type it returns
 * (which must be nullable, since attributes a permit does not allow resolve to `null`).
 *
 * `graphql` and `@nestjs/graphql` are optional peers: they are imported only when an application has
 * guarded resolvers, and the declarations below describe the few members read, so that the package's
 * types never require them.
 */
import type { DeclaredParam } from '../../integration/index.js';
import type { GraphQLOperation, GraphQLRootField } from './resolver-methods.js';

/** A GraphQL type, as far as it is read here. */
type GraphQLTypeLike = object;

interface GraphQLArgumentLike {
  readonly name: string;
  readonly type: GraphQLTypeLike;
}

interface GraphQLFieldLike {
  readonly name: string;
  readonly args: readonly GraphQLArgumentLike[];
  readonly type: GraphQLTypeLike;
}

interface GraphQLFieldsHolder {
  readonly name: string;
  getFields(): Readonly<Record<string, { readonly name: string; readonly type: GraphQLTypeLike }>>;
}

interface GraphQLObjectTypeLike extends GraphQLFieldsHolder {
  getFields(): Readonly<Record<string, GraphQLFieldLike>>;
}

/** A built GraphQL schema (graphql-js `GraphQLSchema`), as far as it is read here. */
export interface GraphQLSchemaLike {
  getQueryType(): GraphQLObjectTypeLike | null | undefined;
  getMutationType(): GraphQLObjectTypeLike | null | undefined;
  getSubscriptionType(): GraphQLObjectTypeLike | null | undefined;
}

/** graphql-js's type predicates, from the application's own copy of `graphql`. */
export interface GraphQLTypeTools {
  readonly isNonNullType: (type: unknown) => boolean;
  readonly isListType: (type: unknown) => boolean;
  readonly isInputObjectType: (type: unknown) => boolean;
  readonly isObjectType: (type: unknown) => boolean;
  readonly getNullableType: (type: unknown) => unknown;
  readonly getNamedType: (type: unknown) => unknown;
}

/** The schema an application serves and the tools to read it. */
export interface GraphQLSchemaReader {
  readonly schema: GraphQLSchemaLike;
  readonly tools: GraphQLTypeTools;
}

/** How deep input objects are followed for dotted id paths (`input.document.id`): they may be recursive. */
export const MAX_ID_ARGUMENT_DEPTH = 4;

/**
 * The arguments of a root field as the id resolution sees them: each argument in order, then the fields
 * of input-object arguments under dotted names (`input.id`), up to {@link MAX_ID_ARGUMENT_DEPTH} levels.
 * A list or an input object can never be one record's id (`wildcard`); an argument is optional when it,
 * or an input object holding it, is nullable.
 *
 * @example
 * ```ts
 * fieldArguments(schema.getMutationType().getFields().updateDocument, tools);
 * // [{ name: 'input', optional: false, wildcard: true }, { name: 'input.id', optional: false, wildcard: false }, …]
 * ```
 */
export function fieldArguments(field: GraphQLFieldLike, tools: GraphQLTypeTools): DeclaredParam[] {
  const params: DeclaredParam[] = [];
  const visit = (name: string, type: GraphQLTypeLike, optionalAbove: boolean, depth: number): void => {
    const optional = optionalAbove || !tools.isNonNullType(type);
    const inner = tools.getNullableType(type);
    const isInputObject = tools.isInputObjectType(inner);
    params.push({ name, optional, wildcard: tools.isListType(inner) || isInputObject });
    if (!isInputObject || depth >= MAX_ID_ARGUMENT_DEPTH) return;
    for (const child of Object.values((inner as GraphQLFieldsHolder).getFields())) visit(`${name}.${child.name}`, child.type, optional, depth + 1);
  };
  for (const arg of field.args) visit(arg.name, arg.type, false, 1);
  return params;
}

/**
 * The schema field a root field names, or `undefined` when the schema has none (the resolver is not
 * served, for example because its module is not part of the GraphQL schema).
 *
 * @example
 * ```ts
 * schemaFieldOf(schema, { operation: 'Query', name: 'document' })?.args.map((arg) => arg.name); // ['id']
 * ```
 */
export function schemaFieldOf(schema: GraphQLSchemaLike, field: GraphQLRootField): GraphQLFieldLike | undefined {
  const rootTypes: Record<GraphQLOperation, GraphQLObjectTypeLike | null | undefined> = {
    Query: schema.getQueryType(),
    Mutation: schema.getMutationType(),
    Subscription: schema.getSubscriptionType(),
  };
  const fields = rootTypes[field.operation]?.getFields();
  return fields !== undefined && Object.hasOwn(fields, field.name) ? fields[field.name] : undefined;
}

/** How deep {@link nonNullReturnedFields} follows object fields: attributes nest like the objects that hold them. */
export const MAX_RETURNED_TYPE_DEPTH = 4;

/**
 * The non-null fields of the object type a root field returns, and of the object types its fields hold
 * (through lists and non-null wrappers, up to {@link MAX_RETURNED_TYPE_DEPTH} levels, each type once):
 * attributes a permit does not allow are left out of the picked object and resolve to `null`, which a
 * non-null field turns into an error that nulls its parent. `[]` for scalars and for nullable fields.
 *
 * @example
 * ```ts
 * nonNullReturnedFields(schema.getQueryType().getFields().document, tools); // ['Document.id', 'Address.street'] when both are non-null
 * ```
 */
export function nonNullReturnedFields(field: GraphQLFieldLike, tools: GraphQLTypeTools): string[] {
  const found: string[] = [];
  const seen = new Set<unknown>();
  const visit = (type: GraphQLTypeLike, depth: number): void => {
    const named = tools.getNamedType(type);
    if (!tools.isObjectType(named) || seen.has(named) || depth > MAX_RETURNED_TYPE_DEPTH) return;
    seen.add(named);
    const object = named as GraphQLObjectTypeLike;
    for (const child of Object.values(object.getFields())) {
      if (child.name.startsWith('__')) continue;
      if (tools.isNonNullType(child.type)) found.push(`${object.name}.${child.name}`);
      visit(child.type, depth + 1);
    }
  };
  visit(field.type, 1);
  return found;
}

/**
 * Loads the schema an application serves from `@nestjs/graphql`'s `GraphQLSchemaHost`, or `undefined`
 * when the application does not serve GraphQL (no GraphQL module, or `@nestjs/graphql` not installed).
 * `get` is the application's `ModuleRef.get` (non-strict).
 *
 * @example
 * ```ts
 * const reader = await loadGraphQLSchema((token) => moduleRef.get(token, { strict: false }));
 * ```
 */
export async function loadGraphQLSchema(get: (token: unknown) => unknown): Promise<GraphQLSchemaReader | undefined> {
  let nestGraphQL: typeof import('@nestjs/graphql');
  let graphql: typeof import('graphql');
  try {
    nestGraphQL = await import('@nestjs/graphql');
    graphql = await import('graphql');
  } catch {
    return undefined;
  }
  let schema: unknown;
  try {
    // Throws when the application has no GraphQL module (no host), or while no schema has been built.
    schema = (get(nestGraphQL.GraphQLSchemaHost) as { schema?: unknown } | undefined)?.schema;
  } catch {
    return undefined;
  }
  if (typeof schema !== 'object' || schema === null) return undefined;
  const tools: GraphQLTypeTools = {
    isNonNullType: (type) => graphql.isNonNullType(type),
    isListType: (type) => graphql.isListType(type),
    isInputObjectType: (type) => graphql.isInputObjectType(type),
    isObjectType: (type) => graphql.isObjectType(type),
    getNullableType: (type) => graphql.getNullableType(type as Parameters<typeof graphql.getNullableType>[0]),
    getNamedType: (type) => graphql.getNamedType(type as Parameters<typeof graphql.getNamedType>[0]),
  };
  return { schema: schema as GraphQLSchemaLike, tools };
}
