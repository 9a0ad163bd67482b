/**
 * A hand-written shape check of precompiled grant tables, run by `Permissions.fromTables` before
 * anything is loaded. The tables come from the compiler, but they are data read at start (they may
 * be stale, hand-edited or from another version), and a bad index would otherwise surface later as
 * a wrong answer or a crash. Written by hand rather than with zod so that loading precompiled
 * tables stays free of it; linear in the size of the tables.
 */
import { attributeNameProblem } from '../definition/declared-attributes.js';
import { MAX_ATTRIBUTE_PATH_DEPTH } from '../definition/grant-syntax.js';
import type { GrantTables } from './grant-tables.js';
import { TENANT_ID_TYPES, USER_ATTRIBUTE_TYPES } from '../ownership-rules/ownership-rule.js';
import { formatRulePath, ruleNameProblem, ruleStructureProblem } from '../ownership-rules/rule-structure.js';

const HOOK_KINDS = new Set(['isOwner', 'listOwned', 'limitOwned', 'ownedAmong']);

class ShapeError extends Error {}

/**
 * Throws the shape error of `path`: what a check run by {@link partsCheck} throws, which becomes its problem.
 *
 * @example
 * ```ts
 * if (header['format'] !== 1) fail('format', 'is not 1');
 * ```
 */
export function fail(path: string, what: string): never {
  throw new ShapeError(`${path} ${what}`);
}

const isIndex = (value: unknown, length: number): value is number => Number.isInteger(value) && (value as number) >= 0 && (value as number) < length;

function array(value: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(value)) fail(path, 'is not an array');
  return value;
}

function names(value: unknown, path: string): readonly string[] {
  const list = array(value, path);
  list.forEach((name, i) => {
    if (typeof name !== 'string' || name.length === 0) fail(`${path}[${i}]`, 'is not a name');
  });
  return list as readonly string[];
}

function index(value: unknown, length: number, path: string): number {
  if (!isIndex(value, length)) fail(path, `is not an index below ${length}`);
  return value;
}

/** A list of indexes below `length`: checked item by item, a failing item's path made only then (the lists a large policy loads are long). */
function indexes(value: unknown, length: number, path: string): readonly number[] {
  const list = array(value, path);
  for (let k = 0; k < list.length; k++) if (!isIndex(list[k], length)) fail(`${path}[${k}]`, `is not an index below ${length}`);
  return list as readonly number[];
}

/** Plans nest one level per attribute path segment: walked with an explicit stack, depth bounded. */
function plan(value: unknown, path: string): void {
  const stack: [node: unknown, path: string, depth: number][] = [[value, path, 0]];
  while (stack.length > 0) {
    const [node, at, depth] = stack.pop() as [unknown, string, number];
    if (depth > MAX_ATTRIBUTE_PATH_DEPTH) fail(at, `nests deeper than ${MAX_ATTRIBUTE_PATH_DEPTH} levels`);
    const [all, children] = array(node, at);
    if (all !== 0 && all !== 1) fail(`${at}[0]`, 'is not 0 or 1');
    array(children, `${at}[1]`).forEach((child, i) => {
      const [key, nested] = array(child, `${at}[1][${i}]`);
      if (typeof key !== 'string') fail(`${at}[1][${i}][0]`, 'is not an attribute name');
      if (nested !== null) stack.push([nested, `${at}[1][${i}][1]`, depth + 1]);
    });
  }
}

/**
 * A rule's condition as the compiler wrote it: its structure as every evaluator reads it (see rule-structure.ts).
 * The compiler already told the author what was wrong; here the tables are only refused.
 */
function ruleCondition(value: unknown, path: string): void {
  const problem = ruleStructureProblem(value);
  if (problem !== undefined) fail(formatRulePath(path, problem.path), problem.what);
}

/** A record of names to values, each checked by `check`; its keys rule names unless `anyKeys` (resource names). */
function record(value: unknown, path: string, check: (entry: unknown, path: string) => void, anyKeys = false): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'is not an object');
  for (const [name, entry] of Object.entries(value)) {
    const problem = anyKeys ? undefined : ruleNameProblem(name);
    if (problem !== undefined) fail(`${path}.${JSON.stringify(name)}`, problem);
    check(entry, `${path}.${name}`);
  }
}

/**
 * The ownership rules of the tables: each with a resource of the tables, a name, a condition of the rules' own
 * shape and typed user attributes; relations `{ resource, on }` by name; the id types of resources only relations
 * reach. Returns each rule's resource (an index).
 */
function ownershipRules(value: unknown, resources: readonly string[]): readonly number[] {
  if (value === undefined) return [];
  const { rules, relations, relatedIdTypes } = value as { rules?: unknown; relations?: unknown; relatedIdTypes?: unknown };
  if (relatedIdTypes !== undefined)
    record(
      relatedIdTypes,
      'ownershipRules.relatedIdTypes',
      (type, path) => {
        if (type !== 'number' && type !== 'string') fail(path, 'is not "number" or "string"');
      },
      true,
    );
  record(
    relations,
    'ownershipRules.relations',
    (byName, path) =>
      record(byName, path, (relation, at) => {
        const { resource, on } = (relation ?? {}) as { resource?: unknown; on?: unknown };
        if (typeof resource !== 'string' || typeof on !== 'string') fail(at, 'is not a relation { resource, on }');
      }),
    true,
  );
  return array(rules, 'ownershipRules.rules').map((rule, i) => {
    const at = `ownershipRules.rules[${i}]`;
    const { resource, name, condition, userAttributes, tenantIdType } = (rule ?? {}) as Record<string, unknown>;
    const resourceIndex = resources.indexOf(resource as string);
    if (resourceIndex === -1) fail(`${at}.resource`, 'is not a resource of the tables');
    if (typeof name !== 'string' || ruleNameProblem(name) !== undefined) fail(`${at}.name`, 'is not a rule name');
    ruleCondition(condition, `${at}.condition`);
    record(userAttributes, `${at}.userAttributes`, (type, path) => {
      if (!(USER_ATTRIBUTE_TYPES as readonly unknown[]).includes(type)) fail(path, `is not one of ${USER_ATTRIBUTE_TYPES.join(', ')}`);
    });
    if (tenantIdType !== undefined && !(TENANT_ID_TYPES as readonly unknown[]).includes(tenantIdType))
      fail(`${at}.tenantIdType`, `is not one of ${TENANT_ID_TYPES.join(', ')}`);
    return resourceIndex;
  });
}

/** Checks one cell (its path given); throws a ShapeError at the first problem. */
export type CellCheck = (cell: unknown, path: string) => void;

/** What cells are checked against besides roles, plans and definitions: the names and ownership of the tables. */
export interface CellVocabulary {
  readonly resources: number;
  readonly actions: number;
  readonly owners: readonly unknown[];
  /** Per resource, the actions it declares, or undefined when it declares none. */
  readonly declaredSets: readonly (ReadonlySet<number> | undefined)[] | undefined;
  /** Whether ownership group `group` can decide ownership of a record of resource `resource`. */
  readonly decidable: (group: number, resource: number) => boolean;
}

/**
 * Checks the names and ownership of tables (everything but their roles, plans, cells and definitions, and the
 * definitions each ownership group names), and returns what their cells are checked against.
 */
export function checkedVocabulary(tables: Partial<Record<keyof GrantTables, unknown>>): CellVocabulary {
  const resources = names(tables.resources, 'resources');
  const actions = names(tables.actions, 'actions');
  const hooks = array(tables.hooks, 'hooks');
  hooks.forEach((hook, i) => {
    const { kind, name } = (hook ?? {}) as { kind?: unknown; name?: unknown };
    if (typeof kind !== 'string' || !HOOK_KINDS.has(kind)) fail(`hooks[${i}].kind`, 'is not isOwner, listOwned, limitOwned or ownedAmong');
    if (typeof name !== 'string' || name.length === 0) fail(`hooks[${i}].name`, 'is not a name');
  });
  const hookOfKind = (value: unknown, kind: string, path: string) => {
    const at = index(value, hooks.length, path);
    if ((hooks[at] as { kind: string }).kind !== kind) fail(path, `is not a ${kind} hook`);
  };
  const ruleResources = ownershipRules(tables.ownershipRules, resources);
  const owners = array(tables.owners, 'owners');
  owners.forEach((owner, i) => {
    const group = (owner ?? {}) as { isOwner?: unknown; listOwned?: unknown; limitOwned?: unknown; rule?: unknown };
    if (group.rule !== undefined) {
      index(group.rule, ruleResources.length, `owners[${i}].rule`);
      if (group.isOwner !== undefined || group.listOwned !== undefined || group.limitOwned !== undefined) fail(`owners[${i}]`, 'has both a rule and hooks');
    } else if (group.isOwner === undefined && group.listOwned === undefined && group.limitOwned === undefined) fail(`owners[${i}]`, 'has no ownership hook');
    if (group.isOwner !== undefined) hookOfKind(group.isOwner, 'isOwner', `owners[${i}].isOwner`);
    if (group.listOwned !== undefined) hookOfKind(group.listOwned, 'listOwned', `owners[${i}].listOwned`);
    if (group.limitOwned !== undefined) hookOfKind(group.limitOwned, 'limitOwned', `owners[${i}].limitOwned`);
  });
  // The optional lists of one entry per resource.
  const perResource = (value: unknown, path: string): readonly unknown[] | undefined => {
    if (value === undefined) return undefined;
    const list = array(value, path);
    if (list.length !== resources.length) fail(path, 'does not have one entry per resource');
    return list;
  };
  const executors = perResource(tables.ownedAmong, 'ownedAmong');
  executors?.forEach((hook, i) => {
    if (hook !== -1) hookOfKind(hook, 'ownedAmong', `ownedAmong[${i}]`);
  });
  perResource(tables.idTypes, 'idTypes')?.forEach((type, i) => {
    if (type !== null && type !== 'number' && type !== 'string') fail(`idTypes[${i}]`, 'is not "number", "string" or null');
  });
  // Each entry null (declares none) or its actions' indexes, ascending: each greater than the one before, -1 at first.
  const declaredSets = perResource(tables.declaredActions, 'declaredActions')?.map((list, i) => {
    if (list === null) return undefined;
    const indexes = array(list, `declaredActions[${i}]`);
    if (indexes.length === 0) fail(`declaredActions[${i}]`, 'is empty');
    indexes.forEach(
      (value, k) =>
        index(value, actions.length, `declaredActions[${i}][${k}]`) > ((indexes[k - 1] as number | undefined) ?? -1) ||
        fail(`declaredActions[${i}][${k}]`, 'is not ascending'),
    );
    return new Set(indexes as readonly number[]);
  });
  // Each entry null (declares none) or attribute names, ascending: each after the one before, so sorted and each once.
  // Resources that declare the same attributes share one list in packed tables: each list is checked once.
  const checkedLists = new Set<unknown>();
  perResource(tables.attributes, 'attributes')?.forEach((list, i) => {
    if (list === null || checkedLists.has(list)) return;
    checkedLists.add(list);
    const attributes = array(list, `attributes[${i}]`);
    attributes.forEach((name, k) => {
      if (typeof name !== 'string' || attributeNameProblem(name) !== undefined) fail(`attributes[${i}][${k}]`, 'is not an attribute name');
      if (k > 0 && !((attributes[k - 1] as string) < name)) fail(`attributes[${i}][${k}]`, 'is not after the one before it (sorted, each once)');
    });
  });
  // A group without isOwner or listOwned decides one record only through the resource's executor.
  // A rule decides on its own resource only (its conditions name that resource's attributes).
  const decidable = (group: number, resource: number) => {
    const { isOwner, listOwned, rule } = owners[group] as { isOwner?: unknown; listOwned?: unknown; rule?: number };
    if (rule !== undefined) return ruleResources[rule] === resource;
    return isOwner !== undefined || listOwned !== undefined || (executors?.[resource] ?? -1) !== -1;
  };
  return { resources: resources.length, actions: actions.length, owners, declaredSets, decidable };
}

/** What cells are checked against: the vocabulary, and how many roles, plans and definitions the tables have. */
export interface CellRules {
  readonly vocabulary: CellVocabulary;
  readonly counts: { readonly roles: number; readonly plans: number; readonly definitions: number };
}

/** The check of one cell of tables with these rules. */
function cellCheckOf({ vocabulary, counts }: CellRules): CellCheck {
  const { resources, actions, owners, declaredSets, decidable } = vocabulary;
  return (entry, at) => {
    const cell = array(entry, at);
    if (cell.length !== 7) fail(at, 'does not have 7 fields');
    const [resource, action, role, anyPlan, own, cellOwners, sources] = cell;
    index(resource, resources, `${at}[0]`);
    index(action, actions, `${at}[1]`);
    if (declaredSets?.[resource as number]?.has(action as number) === false) fail(`${at}[1]`, 'is not an action its resource declares');
    index(role, counts.roles, `${at}[2]`);
    if (anyPlan !== -1) index(anyPlan, counts.plans, `${at}[3]`);
    const ownList = array(own, `${at}[4]`);
    if (ownList.length % 2 !== 0) fail(`${at}[4]`, 'is not a list of (ownership group, plan) pairs');
    ownList.forEach((value, k) => index(value, k % 2 === 0 ? owners.length : counts.plans, `${at}[4][${k}]`));
    array(cellOwners, `${at}[5]`).forEach((value, k) => {
      const group = index(value, owners.length, `${at}[5][${k}]`);
      if (!decidable(group, resource as number))
        fail(
          `${at}[5][${k}]`,
          'names an ownership group that cannot decide ownership of this resource (no isOwner, no listOwned, no ownedAmong, no rule of it)',
        );
    });
    array(sources, `${at}[6]`).forEach((value, k) => index(value, counts.definitions * 2, `${at}[6][${k}]`));
  };
}

/** The roles and plans of tables, checked: their counts. */
export function checkedRolesAndPlans(tables: { readonly roles?: unknown; readonly plans?: unknown }): { readonly roles: number; readonly plans: number } {
  const roles = names(tables.roles, 'roles');
  const plans = array(tables.plans, 'plans');
  plans.forEach((entry, i) => plan(entry, `plans[${i}]`));
  return { roles: roles.length, plans: plans.length };
}

/**
 * Checks everything of tables but their cells, and returns the check of one cell. The definitions are checked
 * here too, unless only their count is known (`definitionCount`: packed tables decode them when first read).
 */
function checkedHeader(tables: Partial<Record<keyof GrantTables, unknown>>, definitionCount?: number): CellRules {
  if (tables.format !== 1) fail('format', 'is not 1');
  const { roles, plans } = checkedRolesAndPlans(tables);
  const vocabulary = checkedVocabulary(tables);
  const definitions = definitionCount ?? checkDefinitions(tables.definitions, 'definitions').length;
  vocabulary.owners.forEach((owner, i) => indexes((owner as { definitions?: unknown }).definitions, definitions, `owners[${i}].definitions`));
  return { vocabulary, counts: { roles, plans, definitions } };
}

function checkDefinitions(value: unknown, path: string): readonly unknown[] {
  const definitions = array(value, path);
  definitions.forEach((definition, i) => {
    const { index: at, source, descr } = (definition ?? {}) as { index?: unknown; source?: unknown; descr?: unknown };
    if (!Number.isInteger(at)) fail(`${path}[${i}].index`, 'is not an integer');
    if (source !== undefined && typeof source !== 'string') fail(`${path}[${i}].source`, 'is not a string');
    if (descr !== undefined && typeof descr !== 'string') fail(`${path}[${i}].descr`, 'is not a string');
  });
  return definitions;
}

/** Cells come sorted by (resource, action, role), each once: readers find a resource's cells by that order. */
function checkOrder(cells: readonly unknown[], path: (i: number) => string): void {
  for (let i = 1; i < cells.length; i++) {
    const a = cells[i - 1] as readonly number[];
    const b = cells[i] as readonly number[];
    if (((b[0] as number) - (a[0] as number) || (b[1] as number) - (a[1] as number) || (b[2] as number) - (a[2] as number)) <= 0)
      fail(path(i), 'does not come after the cell before it (cells are sorted by resource, action and role, each once)');
  }
}

function problemOf(check: () => void): string | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (error instanceof ShapeError) return error.message;
    throw error;
  }
}

/**
 * Checks that `value` has the shape of {@link GrantTables} (format 1) with every index in range and the cells in
 * order, and returns it typed; otherwise says where it is wrong.
 *
 * @example
 * ```ts
 * const problem = grantTablesProblem(JSON.parse(text));
 * if (problem !== undefined) throw new Error(problem); // 'cells[3][2] is not an index below 4'
 * ```
 */
export function grantTablesProblem(value: unknown): string | undefined {
  return problemOf(() => {
    if (typeof value !== 'object' || value === null) fail('the tables', 'are not an object');
    const tables = value as Partial<Record<keyof GrantTables, unknown>>;
    const checkCell = cellCheckOf(checkedHeader(tables));
    const cells = array(tables.cells, 'cells');
    cells.forEach((entry, i) => checkCell(entry, `cells[${i}]`));
    checkOrder(cells, (i) => `cells[${i}]`);
  });
}

/** The checks of packed tables' parts: the header's problem (when loaded), then a resource's cells and the definitions (when decoded). */
export interface PackedTablesCheck {
  readonly header: string | undefined;
  cellsProblem(cells: unknown, name: string): string | undefined;
  definitionsProblem(definitions: unknown): string | undefined;
}

/**
 * The checks of a packed header whose counts are checked here and the rest by `checkRest` (which throws with
 * {@link fail}, and returns the rules of the cells): packed tables' header, or a tenant's (tenant-tables-check.ts).
 *
 * @example
 * ```ts
 * const check = partsCheck(header, checkedHeader);
 * ```
 */
export function partsCheck(header: unknown, checkRest: (header: Record<string, unknown>, definitionCount: number) => CellRules): PackedTablesCheck {
  let checkCell: CellCheck | undefined;
  let definitionCount = 0;
  const headerProblem = problemOf(() => {
    if (typeof header !== 'object' || header === null) fail('the tables', 'are not an object');
    const { cells, definitions } = header as { cells?: unknown; definitions?: unknown };
    if (!isIndex(cells, Number.MAX_SAFE_INTEGER)) fail('cells', 'is not a count of cells');
    if (!isIndex(definitions, Number.MAX_SAFE_INTEGER)) fail('definitions', 'is not a count of definitions');
    definitionCount = definitions;
    checkCell = cellCheckOf(checkRest(header as Record<string, unknown>, definitionCount));
  });
  return {
    header: headerProblem,
    cellsProblem: (cells, name) =>
      headerProblem ??
      problemOf(() => {
        const at = `cells of ${JSON.stringify(name)}`;
        const list = array(cells, at);
        list.forEach((entry, i) => (checkCell as CellCheck)(entry, `${at}[${i}]`));
        checkOrder(list, (i) => `${at}[${i}]`);
      }),
    definitionsProblem: (definitions) =>
      headerProblem ??
      problemOf(() => {
        if (checkDefinitions(definitions, 'definitions').length !== definitionCount) fail('definitions', `do not number ${definitionCount}`);
      }),
  };
}

/**
 * The check of packed tables' parts (what generated code holds): their header at load, each resource's cells
 * and the definitions when first decoded. Each says where the part is wrong, as {@link grantTablesProblem} does.
 *
 * @example
 * ```ts
 * const parts = packedTablesCheck(JSON.parse(headerText)); // its cells and definitions are counts
 * parts.header; // undefined when the header is well formed
 * parts.cellsProblem(cells, 'resource_0004'); // 'cells of "resource_0004"[2][2] is not an index below 4'
 * ```
 */
export function packedTablesCheck(header: unknown): PackedTablesCheck {
  return partsCheck(header, checkedHeader);
}
