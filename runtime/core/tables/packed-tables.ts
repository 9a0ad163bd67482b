/**
 * Grant tables packed for loading on demand, the form the generated code holds: a small header (names, plans,
 * hooks, ownership groups), each resource's cells as a text of packed numbers (packed-cells.ts), where each
 * definition comes from as JSON, and the definitions' descriptions as a last one, which the generated code keeps in
 * a module of its own, imported only when an explanation first needs them. Importing the generated code parses the
 * header only; an engine decodes a resource's cells the first time a decision needs them, and checks them then, so
 * loading does not grow with the policy beyond reading the module's text (which the packed cells keep short).
 */
import { PermissionsUsageError } from '../common/errors.js';
import type { DefinitionSummary, GrantCell, GrantTables } from './grant-tables.js';
import { packCells, unpackCells, type CellBody } from './packed-cells.js';
import { PackedTextError } from './packed-numbers.js';
import { packedTablesCheck, type PackedTablesCheck } from './table-shape.js';

/**
 * What the compiler emits for {@link unpackGrantTables}: JSON texts, compact because parsing the module that holds
 * them costs in proportion to their length.
 */
export interface PackedGrantTables {
  /**
   * The tables' JSON with `cells` and `definitions` replaced by their counts (in the same place, so key order is
   * kept), and `attributes`, when the tables declare any, by `{ lists, numbers }`: the distinct lists of declared
   * attributes and, per resource, the number of its list (-1: none) — resources of a large policy often declare the
   * same attributes, which are then written, and checked, once.
   */
  readonly header: string;
  /**
   * Where each definition comes from: `[sources, runs]`, the distinct source names and the definitions in runs of
   * three entries: the number of their source in `sources` (-1: none), the index of the first, and how many
   * follow it with consecutive indexes from the same source.
   */
  readonly definitions: string;
  /** Per definition, in the same order, its description or null: a JSON list. */
  readonly descriptions: string;
  /**
   * Per resource (same order as `resources`), its cells as packed numbers (see `packNumbers`): the count of the
   * distinct bodies `[anyPlan, own, owners, sources]` of its cells, each body (`anyPlan + 1`; each list as its
   * length and its numbers, the sources as differences from the source before, zigzag-signed), then the count of
   * cells and, per cell in the tables' order, its action as the difference from the action before, its role (the
   * difference from the role before when the action is the same), and the number of its body.
   */
  readonly cells: readonly string[];
}

/** A resource's cells: `cells[start]` to `cells[end - 1]`. */
export interface CellRange {
  readonly cells: readonly GrantCell[];
  readonly start: number;
  readonly end: number;
}

/**
 * Where packed tables' descriptions come from: their text, or the generated code's import of the module that
 * holds it (so that importing the tables does not parse it). Not exported: the one public signature that takes
 * it spells it out.
 */
type PackedDescriptions = string | (() => Promise<{ readonly definitionDescriptions: unknown }>);

interface PackedParts {
  readonly header: Record<string, unknown>;
  readonly cells: readonly string[];
  readonly check: PackedTablesCheck;
  readonly definitions: string;
  descriptions: PackedDescriptions;
  /** The tables' version as the compiler computed it, when given: computing it would need the descriptions. */
  readonly version: string | undefined;
  /** Decoded on first need: each definition's index and source, then (once loaded) with its description. */
  places?: readonly DefinitionSummary[];
  summaries?: readonly DefinitionSummary[];
  loading?: Promise<void>;
}

/** Tables made by unpackGrantTables, and their packed parts; a WeakMap, so the tables' type stays GrantTables. */
const packedParts = new WeakMap<object, PackedParts>();

/**
 * The error of tables that are not what this version loads: they come from the compiler, so compiling again is
 * the fix.
 *
 * @example
 * ```ts
 * throw notGrantTablesError('cells[3][2] is not an index below 4');
 * ```
 */
export function notGrantTablesError(problem: string): PermissionsUsageError {
  const error = new PermissionsUsageError(
    `These are not grant tables of this version of typed-permissions (${problem}); run \`npx typed-permissions compile\` again.`,
  );
  problemOfError.set(error, problem);
  return error;
}

/** The problem each error of {@link notGrantTablesError} names, for {@link notGrantTablesProblem}. */
const problemOfError = new WeakMap<object, string>();

/**
 * The problem `error` names when it is an error of {@link notGrantTablesError} (the part that is wrong, without the
 * advice to compile again), else undefined.
 *
 * @example
 * ```ts
 * notGrantTablesProblem(notGrantTablesError('cells[3][2] is not an index below 4')); // 'cells[3][2] is not an index below 4'
 * ```
 */
export function notGrantTablesProblem(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? problemOfError.get(error) : undefined;
}

/**
 * Packs tables for the generated code: one JSON text per resource's cells. The cells stay in their order
 * (sorted by resource, action and role), so unpacking gives tables equal to these, key for key.
 *
 * @example
 * ```ts
 * const packed = packGrantTables(tables);
 * packed.header; // '{"format":1,…,"cells":25,"definitions":12}'
 * packed.cells[0]; // '210020G100102240141': two bodies, then (action, role, body) for each of the two cells
 * packed.definitions; // '[["a.permissions.json"],[0,0,12]]': 12 definitions of a.permissions.json, indexes 0 to 11
 * packed.descriptions; // '["Employees read their own documents.",null,…]'
 * ```
 */
export function packGrantTables(tables: GrantTables): PackedGrantTables {
  const header = Object.fromEntries(
    Object.entries(tables).map(([key, value]) => [
      key,
      key === 'cells' || key === 'definitions'
        ? (value as readonly unknown[]).length
        : key === 'attributes'
          ? packedAttributes(tables.attributes ?? [])
          : value,
    ]),
  );
  return {
    header: JSON.stringify(header),
    definitions: packedDefinitionPlaces(tables.definitions),
    descriptions: JSON.stringify(tables.definitions.map(({ descr }) => descr ?? null)),
    cells: packedResourceCells(tables),
  };
}

/**
 * Each resource's cells as {@link PackedGrantTables}' `cells` holds them (a resource without cells has a text too).
 *
 * @example
 * ```ts
 * packedResourceCells(tables)[0]; // '210020G100102240141'
 * ```
 */
export function packedResourceCells(tables: GrantTables): string[] {
  const byResource = tables.resources.map(() => ({ numbers: new Map<string, number>(), bodies: [] as CellBody[], entries: [] as number[] }));
  for (const [resource, action, role, ...body] of tables.cells) {
    const packed = byResource[resource] as (typeof byResource)[number];
    const key = JSON.stringify(body);
    let number = packed.numbers.get(key);
    if (number === undefined) packed.numbers.set(key, (number = packed.bodies.push(body) - 1));
    packed.entries.push(action, role, number);
  }
  return byResource.map(({ bodies, entries }) => packCells(bodies, entries));
}

/**
 * Where each definition comes from, as {@link PackedGrantTables}' `definitions` holds it.
 *
 * @example
 * ```ts
 * packedDefinitionPlaces(tables.definitions); // '[["a.permissions.json"],[0,0,12]]'
 * ```
 */
export function packedDefinitionPlaces(definitions: readonly DefinitionSummary[]): string {
  const sources = new Map<string, number>();
  const runs: number[] = [];
  let previous: DefinitionSummary | undefined;
  for (const definition of definitions) {
    const { index, source } = definition;
    if (source !== undefined && !sources.has(source)) sources.set(source, sources.size);
    const number = source === undefined ? -1 : (sources.get(source) as number);
    // A definition that follows the previous one in its file extends its run: a folder of files is a run per file.
    if (previous !== undefined && previous.source === source && previous.index + 1 === index) runs[runs.length - 1] = (runs[runs.length - 1] as number) + 1;
    else runs.push(number, index, 1);
    previous = definition;
  }
  return JSON.stringify([[...sources.keys()], runs]);
}

/** Each resource's declared attributes as the distinct lists and each resource's list number (-1: none). */
function packedAttributes(attributes: readonly (readonly string[] | null)[]): { lists: (readonly string[])[]; numbers: number[] } {
  const numbers = new Map<string, number>();
  const lists: (readonly string[])[] = [];
  return {
    lists,
    numbers: attributes.map((list) => {
      if (list === null) return -1;
      const key = JSON.stringify(list);
      let number = numbers.get(key);
      if (number === undefined) numbers.set(key, (number = lists.push(list) - 1));
      return number;
    }),
  };
}

/**
 * Each resource's declared attributes from their packed form, one array per distinct list (the shape check then
 * checks each list once); a value in any other form is given back as it is, for the shape check to judge (the
 * declared attributes of tables packed before they were interned are a plain list).
 */
function unpackedAttributes(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const { lists, numbers } = value as { lists?: unknown; numbers?: unknown };
  if (!Array.isArray(lists) || !Array.isArray(numbers)) return value;
  const known: readonly unknown[] = lists;
  // A number that names no list gives undefined in its place, which the shape check refuses as not a list.
  return (numbers as readonly unknown[]).map((number): unknown =>
    number === -1 ? null : Number.isInteger(number) && Object.hasOwn(known, number as number) ? known[number as number] : undefined,
  );
}

/**
 * The tables the generated code exports: the header parsed now, the cells and definitions parsed (and checked)
 * only when read. An engine loading them decodes one resource's cells at a time (see {@link resourceCells}).
 * `descriptions` is their text, or a function that imports it: then `definitions` can be read only once
 * {@link loadDefinitionDescriptions} has loaded it (`permit.explain()` does; deciding never needs it). `version`
 * is the tables' version as the compiler computed it (`policyVersion`), which `policyVersionOf` then gives
 * without reading the descriptions.
 *
 * @example
 * ```ts
 * export const grantTables: GrantTables = unpackGrantTables('{"format":1,…}', '[…]', ['210020G100102240141', …], () => import('./descriptions.js'),
 *   policyVersion);
 * ```
 */
export function unpackGrantTables(
  header: string,
  definitions: string,
  cells: readonly string[],
  descriptions: string | (() => Promise<{ readonly definitionDescriptions: unknown }>),
  version?: string,
): GrantTables {
  const parsed = JSON.parse(header) as Record<string, unknown>;
  if (Object.hasOwn(parsed, 'attributes')) parsed['attributes'] = unpackedAttributes(parsed['attributes']);
  return packedTablesFrom(parsed, cells, packedTablesCheck(parsed), definitions, descriptions, version);
}

/**
 * Tables over packed parts, the header already parsed and its check made: the cells and definitions decoded (and
 * checked by `check`) when first read. {@link unpackGrantTables} makes the generated code's with it, the reader of
 * a tenant's compiled custom roles a tenant's.
 *
 * @example
 * ```ts
 * const tables = packedTablesFrom(header, cells, tenantTablesCheck(grantTables, header), places, descriptions, undefined);
 * ```
 */
export function packedTablesFrom(
  parsed: Record<string, unknown>,
  cells: readonly string[],
  check: PackedTablesCheck,
  definitions: string,
  descriptions: string | (() => Promise<{ readonly definitionDescriptions: unknown }>),
  version: string | undefined,
): GrantTables {
  const parts: PackedParts = { header: parsed, cells, check, definitions, descriptions, version };
  let allCells: readonly GrantCell[] | undefined;
  const tables: Record<string, unknown> = {};
  // Keys in the header's order: the tables' JSON, and so their version, is the same as before packing.
  for (const key of Object.keys(parsed)) {
    if (key === 'cells')
      Object.defineProperty(tables, key, {
        enumerable: true,
        get: () => (allCells ??= Object.freeze(cells.flatMap((_, r) => decodedCells(parts, r)))),
      });
    else if (key === 'definitions') Object.defineProperty(tables, key, { enumerable: true, get: () => describedDefinitions(parts) });
    else tables[key] = parsed[key];
  }
  packedParts.set(tables, parts);
  return tables as unknown as GrantTables;
}

/**
 * A part's JSON parsed into `[list, list]` (what the definitions' part is), else a PermissionsUsageError naming the
 * part; what the lists hold is checked by the caller, as a whole.
 */
function twoLists(text: string | undefined, part: string): [readonly unknown[], readonly unknown[]] {
  let value: unknown;
  try {
    value = JSON.parse(text as string);
  } catch {
    // Not JSON, or missing (undefined is not JSON either).
  }
  const [first, second] = Array.isArray(value) ? (value as unknown[]) : [];
  if (!Array.isArray(first) || !Array.isArray(second)) throw notGrantTablesError(`${part} are not two lists of JSON`);
  return [first, second];
}

function decodedCells(parts: PackedParts, resource: number): readonly GrantCell[] {
  const name = String((parts.header['resources'] as unknown[])[resource]);
  const text = parts.cells[resource];
  if (typeof text !== 'string') throw notGrantTablesError(`the cells of ${JSON.stringify(name)} are not a text`);
  let cells: unknown[];
  try {
    // A body number past the bodies leaves its cell short: the check below says where.
    cells = unpackCells(text, resource);
  } catch (error) {
    if (error instanceof PackedTextError) throw notGrantTablesError(`the cells of ${JSON.stringify(name)} are not packed cells: ${error.message}`);
    throw error;
  }
  const problem = parts.check.cellsProblem(cells, name);
  if (problem !== undefined) throw notGrantTablesError(problem);
  return cells as readonly GrantCell[];
}

/** Each definition's index and source, decoded from its runs and checked; the descriptions are not needed. */
function definitionPlaces(parts: PackedParts): readonly DefinitionSummary[] {
  if (parts.places !== undefined) return parts.places;
  const [sources, runs] = twoLists(parts.definitions, 'the definitions');
  const expected = parts.header['definitions'];
  const definitions: unknown[] = [];
  for (let i = 0; i < runs.length; i += 3) {
    const [source, first, count] = [runs[i], runs[i + 1], runs[i + 2]];
    // The count is bounded by the header's before anything is made, so a hostile count costs nothing.
    if (!Number.isInteger(count) || (count as number) < 1 || definitions.length + (count as number) > Number(expected))
      throw notGrantTablesError(`the definitions' run ${i / 3} does not count between 1 and the ${String(expected)} definitions`);
    for (let k = 0; k < (count as number); k++) {
      // The keys in the order the table builder writes them: the tables' JSON, and so their version, stays the same.
      // A source number past the sources gives no string, which the check below refuses.
      definitions.push({
        index: typeof first === 'number' ? first + k : first,
        ...(source === -1 ? {} : { source: Object.hasOwn(sources, source as number) ? sources[source as number] : null }),
      });
    }
  }
  const problem = parts.check.definitionsProblem(definitions);
  if (problem !== undefined) throw notGrantTablesError(problem);
  return (parts.places = definitions as readonly DefinitionSummary[]);
}

/** The definitions with their descriptions: the places, and the descriptions' text once it is at hand. */
function describedDefinitions(parts: PackedParts): readonly DefinitionSummary[] {
  if (parts.summaries !== undefined) return parts.summaries;
  if (typeof parts.descriptions !== 'string')
    throw new PermissionsUsageError(
      'The definitions of these compiled tables are read with their descriptions, which are loaded on demand: ' +
        '`await loadDefinitionDescriptions(grantTables)` first (permit.explain() does).',
    );
  const places = definitionPlaces(parts);
  let descriptions: unknown;
  try {
    descriptions = JSON.parse(parts.descriptions);
  } catch {
    // Not JSON: refused below.
  }
  if (!Array.isArray(descriptions) || descriptions.length !== places.length)
    throw notGrantTablesError(`the descriptions are not a JSON list of ${places.length}`);
  const definitions = places.map((place, i) => (descriptions[i] === null ? place : { ...place, descr: descriptions[i] as unknown }));
  const problem = parts.check.definitionsProblem(definitions);
  if (problem !== undefined) throw notGrantTablesError(problem);
  return (parts.summaries = definitions as readonly DefinitionSummary[]);
}

/**
 * Loads the definitions' descriptions of tables made by {@link unpackGrantTables} with an import of them (once;
 * again after a failed import), so that their `definitions` can be read; resolves at once for any other tables.
 * Rejects with a PermissionsUsageError when what the import gives is not a text of descriptions.
 *
 * @example
 * ```ts
 * await loadDefinitionDescriptions(grantTables);
 * grantTables.definitions[0]?.descr; // 'Employees read their own documents.'
 * ```
 */
export function loadDefinitionDescriptions(tables: GrantTables): Promise<void> {
  const parts = packedParts.get(tables);
  if (parts === undefined) return Promise.resolve();
  const load = parts.descriptions;
  if (typeof load === 'string') return Promise.resolve();
  parts.loading ??= load().then(
    (module) => {
      const text = (module as { definitionDescriptions?: unknown } | null | undefined)?.definitionDescriptions;
      if (typeof text !== 'string') throw notGrantTablesError('the descriptions module exports no text');
      parts.descriptions = text;
    },
    (error: unknown) => {
      delete parts.loading;
      throw error;
    },
  );
  return parts.loading;
}

/**
 * Where definition number `definition` of `tables` comes from (its index and source), and its description when
 * the tables have it at hand — without loading the descriptions of packed tables.
 *
 * @example
 * ```ts
 * definitionSummary(grantTables, 3); // { index: 0, source: 'document.permissions.json' }
 * ```
 */
export function definitionSummary(tables: GrantTables, definition: number): DefinitionSummary | undefined {
  const parts = packedParts.get(tables);
  if (parts === undefined) return tables.definitions[definition];
  if (typeof parts.descriptions === 'string') return describedDefinitions(parts)[definition];
  return definitionPlaces(parts)[definition];
}

/**
 * The problem of packed tables' header (checked when an engine loads them), or undefined; undefined too for
 * tables that are not packed.
 *
 * @example
 * ```ts
 * packedHeaderProblem(grantTables); // undefined, or 'roles[0] is not a name'
 * ```
 */
export function packedHeaderProblem(tables: GrantTables): string | undefined {
  const parts = packedParts.get(tables);
  if (parts === undefined) return undefined;
  // Generated code of an earlier version wrote each resource's cells as JSON: refused when the engine is made, not on
  // the first question about each resource (one character per resource looked at).
  const json = parts.cells.findIndex((text) => typeof text === 'string' && text.startsWith('['));
  if (json !== -1)
    return `the cells of ${JSON.stringify((parts.header['resources'] as unknown[] | undefined)?.[json])} are JSON, as an earlier version wrote them`;
  return parts.check.header;
}

/**
 * The version packed tables were made with (see {@link unpackGrantTables}), or undefined.
 *
 * @example
 * ```ts
 * packedVersion(grantTables); // '3f1c…', the generated policyVersion
 * ```
 */
export function packedVersion(tables: object): string | undefined {
  return packedParts.get(tables)?.version;
}

/**
 * How many cells `tables` have, without decoding packed ones.
 *
 * @example
 * ```ts
 * cellCount(grantTables); // 925
 * ```
 */
export function cellCount(tables: GrantTables): number {
  const parts = packedParts.get(tables);
  return parts === undefined ? tables.cells.length : (parts.header['cells'] as number);
}

/**
 * Whether `tables` are packed (made by {@link unpackGrantTables}): their parts are checked as they are decoded.
 *
 * @example
 * ```ts
 * isPacked(grantTables); // true for the generated code's tables
 * ```
 */
export function isPacked(tables: GrantTables): boolean {
  return packedParts.has(tables);
}

/**
 * The cells of resource number `resource`: of packed tables, decoded and checked now (a PermissionsUsageError
 * when they are malformed); of other tables, found by their order.
 *
 * @example
 * ```ts
 * const { cells, start, end } = resourceCells(tables, 1);
 * for (let i = start; i < end; i++) console.log(cells[i]);
 * ```
 */
export function resourceCells(tables: GrantTables, resource: number): CellRange {
  const parts = packedParts.get(tables);
  if (parts !== undefined) {
    const cells = decodedCells(parts, resource);
    return { cells, start: 0, end: cells.length };
  }
  const { cells } = tables;
  return { cells, start: firstCellFrom(cells, resource), end: firstCellFrom(cells, resource + 1) };
}

/** The index of the first cell of a resource numbered `resource` or more (cells are sorted by resource first). */
function firstCellFrom(cells: readonly GrantCell[], resource: number): number {
  let low = 0;
  let high = cells.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((cells[middle] as GrantCell)[0] < resource) low = middle + 1;
    else high = middle;
  }
  return low;
}
