/**
 * An ownership rule source through the application's Prisma client: the filter is a Prisma `where` input (plain
 * data: values only ever sit where Prisma reads a value), and `ownedAmong` / `listOwned` are one `findMany` each.
 * Nothing of Prisma is imported: the client is the application's, generated for its schema, and is used through
 * the one method every model delegate has.
 */
import {
  checkedOwnershipIds,
  idsOfRows,
  writeOwnershipRule,
  type OwnershipAttributePath,
  type OwnershipQuestion,
  type OwnershipRuleSource,
  type OwnershipScoped,
} from '../ownership/index.js';
import { PermissionsUsageError } from '../permissions/precompiled.js';

/** A Prisma `where` input, as the adapter writes it: nested plain objects and arrays. */
export type PrismaOwnershipWhere = { readonly [field: string]: unknown };

/** What the adapter uses of a model delegate (`prisma.document`). */
export interface PrismaModelDelegate {
  findMany(args: { where: PrismaOwnershipWhere; select: Readonly<Record<string, true>> }): Promise<readonly object[]>;
}

/** The model delegates of each resource and how rules' names map to Prisma's fields. */
export interface PrismaOwnershipOptions {
  /** The model delegate name (`prisma.<name>`) of each resource the rules reach, by resource name. */
  readonly models: Readonly<Record<string, string>>;
  /** The Prisma field of an attribute; the attribute's own name when left out. */
  readonly field?: (resource: string, attribute: string) => string;
  /** The Prisma relation field of a rule's relation; the relation's own name when left out. */
  readonly relation?: (resource: string, relation: string) => string;
}

/** The Prisma source: an OwnershipRuleSource whose filters are `where` inputs, and `where(permit)`. */
export interface PrismaOwnershipSource extends OwnershipRuleSource<PrismaOwnershipWhere> {
  /** The `where` input selecting the records `permit` may list. */
  where(permit: OwnershipScoped): PrismaOwnershipWhere;
}

/** One own property: a computed key is an own data property even for a name such as `__proto__`. */
const field = (name: string, value: unknown): PrismaOwnershipWhere => ({ [name]: value });

/**
 * The most values one ownership condition sends through Prisma. Prisma sends every value of a list as a parameter
 * of its own and binds at most 32,766 in one PostgreSQL statement (half of PostgreSQL's 65,535): past it Prisma
 * splits a `findMany` into several statements, which answer an id once per statement, or refuses the query (with
 * `take`, say) with its own error. 30,000 leaves 2,766 parameters to the application's own conditions, ordering and
 * paging beside `where(permit)`.
 */
export const PRISMA_MAX_CONDITION_VALUES = 30_000;

/** Refuses a condition of `count` values, past what one statement can carry. */
function checkValueCount(count: number, resource: string): void {
  if (count > PRISMA_MAX_CONDITION_VALUES)
    throw new PermissionsUsageError(
      `The ownership condition on resource ${JSON.stringify(resource)} sends ${count} values through Prisma, more than the ` +
        `${PRISMA_MAX_CONDITION_VALUES} it may (Prisma sends each as a parameter and binds at most 32,766 in one PostgreSQL ` +
        "statement; the rest is left to the application's own conditions): shorten the lists of user attributes the rules " +
        'read, or ask about fewer ids at once.',
    );
}

function optionsChecked(client: unknown, options: PrismaOwnershipOptions): void {
  if (typeof client !== 'object' || client === null)
    throw new PermissionsUsageError("prismaOwnership() needs the application's PrismaClient as its first argument.");
  if (typeof options !== 'object' || options === null || typeof options.models !== 'object' || options.models === null)
    throw new PermissionsUsageError('prismaOwnership() needs options { models }: the model delegate name of each resource the rules reach.');
  for (const name of ['field', 'relation'] as const)
    if (options[name] !== undefined && typeof options[name] !== 'function')
      throw new PermissionsUsageError(`Option "${name}" of prismaOwnership() must be a function (resource, name) => Prisma field.`);
}

/**
 * An ownership rule source over Prisma: `filter(question)` is a `where` input — `{ creatorId: { equals: 3 } }`,
 * `{ creatorId: { in: [2, 5] } }` (an OR of equalities for booleans, which Prisma cannot filter with `in`),
 * `AND` / `OR`, a path as relation filters (`{ creator: { is: { companyId: { equals: 1 } } } }`). A null user
 * value, an empty list and 'nothing' select no record (`{ id: { in: [] } }`), never `{ field: null }`, which Prisma
 * reads as IS NULL; 'everything' is `{ id: { notIn: [] } }`. `ownedAmong(question, ids)` is one `findMany` of the
 * ids among `ids` (none for no ids, or for 'nothing'), `listOwned(question)` one `findMany` of every selected id.
 *
 * @example
 * ```ts
 * const ownership = prismaOwnership(prisma, { models: { document: 'document', user: 'user' } });
 * const drafts = await prisma.document.findMany({ where: { AND: [{ status: 'draft' }, ownership.where(permit)] } });
 * ```
 */
export function prismaOwnership(client: object, options: PrismaOwnershipOptions): PrismaOwnershipSource {
  optionsChecked(client, options);
  const nameOf = (kind: 'field' | 'relation', resource: string, name: string): string => {
    const mapped = options[kind]?.(resource, name) ?? name;
    if (typeof mapped !== 'string' || mapped.length === 0)
      throw new PermissionsUsageError(
        `Option "${kind}" of prismaOwnership() gave no name for ${JSON.stringify(name)} of resource ${JSON.stringify(resource)}.`,
      );
    return mapped;
  };
  const delegate = (resource: string): PrismaModelDelegate => {
    const model = Object.hasOwn(options.models, resource) ? options.models[resource] : undefined;
    if (typeof model !== 'string') throw new PermissionsUsageError(`No model is given for resource ${JSON.stringify(resource)}: add it to "models".`);
    // A generated client's delegates are properties of the client (not necessarily its own): read as Prisma does.
    const found: unknown = (client as Record<string, unknown>)[model];
    if (typeof found !== 'object' || found === null || typeof (found as { findMany?: unknown }).findMany !== 'function')
      throw new PermissionsUsageError(
        `The Prisma client has no model ${JSON.stringify(model)} (prisma.${model}.findMany) for resource ${JSON.stringify(resource)}.`,
      );
    return found as PrismaModelDelegate;
  };
  /** `where` (a filter of the resource at the end of `path`) inside one relation filter (`is`) per relation. */
  const throughRelations = (path: OwnershipAttributePath, where: PrismaOwnershipWhere): PrismaOwnershipWhere =>
    path.steps.reduceRight<PrismaOwnershipWhere>((inner, step) => field(nameOf('relation', step.from, step.name), { is: inner }), where);
  /** `filter` (a field filter such as `{ equals: 1 }`) on the attribute at the end of `path`. */
  const alongPath = (path: OwnershipAttributePath, filter: PrismaOwnershipWhere): PrismaOwnershipWhere =>
    throughRelations(path, field(nameOf('field', path.resource, path.attribute), filter));
  /** The condition of `question`, and how many values it sends. */
  const condition = (question: OwnershipQuestion): { where: PrismaOwnershipWhere; values: number } => {
    let values = 0;
    const counted = <T extends readonly unknown[]>(list: T): T => {
      values += list.length;
      return list;
    };
    const id = nameOf('field', question.context.resource, 'id');
    // Every record and no record, as conditions on the id that Prisma keeps wherever they are nested (1=1 and 1=0).
    // Prisma drops an empty object or an empty OR nested in AND / OR instead, which would turn "nothing" into
    // "everything" (`{ AND: [{ OR: [] }] }` selects every record) and "everything" into "nothing".
    const nothing = field(id, { in: [] });
    const where = writeOwnershipRule<PrismaOwnershipWhere>(
      question.scope,
      question.context,
      question.user,
      {
        everything: () => field(id, { notIn: [] }),
        nothing: () => nothing,
        all: (parts) => ({ AND: [...parts] }),
        any: (parts) => ({ OR: [...parts] }),
        // Null equals nothing, as in SQL (a tenant condition without a tenant is null too); `{ equals: null }` would
        // select the records whose attribute IS NULL.
        equals: (path, value) => (value === null ? nothing : alongPath(path, { equals: counted([value])[0] })),
        // Prisma's Boolean filter has no `in`: a list of booleans is an OR of equalities (at most the two of them).
        inLiterals: (path, literals) =>
          typeof literals[0] === 'boolean'
            ? throughRelations(path, { OR: counted(literals).map((literal) => field(nameOf('field', path.resource, path.attribute), { equals: literal })) })
            : alongPath(path, { in: [...counted(literals)] }),
        // Prisma writes an empty `in` as `1=0`: an empty list selects nothing.
        inUserList: (path, list) => alongPath(path, { in: [...counted(list)] }),
      },
      question.tenant,
    );
    return { where, values };
  };
  const filter = (question: OwnershipQuestion): PrismaOwnershipWhere => {
    const { where, values } = condition(question);
    checkValueCount(values, question.context.resource);
    return where;
  };
  /**
   * One findMany of the ids of the records `where` selects, read back from the id's field, each once: a query Prisma
   * split into several statements (past its bind limit, which the value cap keeps it under) answers an id once per
   * statement.
   */
  const idsWhere = async (question: OwnershipQuestion, where: PrismaOwnershipWhere): Promise<readonly unknown[]> => {
    const { resource } = question.context;
    const id = nameOf('field', resource, 'id');
    const rows: unknown = await delegate(resource).findMany({ where, select: field(id, true) as Readonly<Record<string, true>> });
    const ids = idsOfRows(
      Array.isArray(rows) ? rows.map((row: unknown) => (typeof row === 'object' && row !== null ? { id: (row as Record<string, unknown>)[id] } : row)) : rows,
    );
    return [...new Set(ids)];
  };
  return {
    filter,
    where: (permit) => filter(permit.ownershipScope()),
    async ownedAmong(question, ids) {
      const asked = checkedOwnershipIds(ids);
      if (asked.length === 0 || question.scope === 'nothing') return [];
      const id = nameOf('field', question.context.resource, 'id');
      const { where, values } = condition(question);
      checkValueCount(values + asked.length, question.context.resource);
      return idsWhere(question, { AND: [field(id, { in: [...asked] }), where] });
    },
    async listOwned(question) {
      if (question.scope === 'nothing') return [];
      return idsWhere(question, filter(question));
    },
  };
}
