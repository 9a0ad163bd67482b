/**
 * Grant tables packed for loading on demand, the form the generated code holds: a small header (names, plans,
 * hooks, ownership groups), each resource's cells as their own JSON text, and the definitions' summaries as
 * another. Importing the generated code parses the header only; an engine decodes a resource's cells the first
 * time a decision needs them, and checks them then, so loading does not grow with the policy.
 */
import { PermissionsUsageError } from '../common/errors.js';
import type { DefinitionSummary, GrantCell, GrantTables } from './grant-tables.js';
import { packedTablesCheck } from './table-shape.js';

/**
 * What the compiler emits for {@link unpackGrantTables}: JSON texts, compact because parsing the module that holds
 * them costs in proportion to their length.
 */
export interface PackedGrantTables {
  /** The tables' JSON with `cells` and `definitions` replaced by their counts (in the same place, so key order is kept). */
  readonly header: string;
  /**
   * The definitions' summaries: `[sources, rows]`, the distinct source names and, per definition, three entries:
   * its index, the number of its source in `sources` (-1: none) and its description (null: none).
   */
  readonly definitions: string;
  /**
   * Per resource (same order as `resources`), its cells: `[bodies, entries]`, the distinct
   * `[anyPlan, own, owners, sources]` of its cells and, per cell in the tables' order, three entries: its action,
   * its role and the number of its body.
   */
  readonly cells: readonly string[];
}

/** A resource's cells: `cells[start]` to `cells[end - 1]`. */
export interface CellRange {
  readonly cells: readonly GrantCell[];
  readonly start: number;
  readonly end: number;
}

interface PackedParts {
  readonly header: Record<string, unknown>;
  readonly cells: readonly string[];
  readonly check: ReturnType<typeof packedTablesCheck>;
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
  return new PermissionsUsageError(
    `These are not grant tables of this version of typed-permissions (${problem}); run \`npx typed-permissions compile\` again.`,
  );
}

/**
 * Packs tables for the generated code: one JSON text per resource's cells. The cells stay in their order
 * (sorted by resource, action and role), so unpacking gives tables equal to these, key for key.
 *
 * @example
 * ```ts
 * const packed = packGrantTables(tables);
 * packed.header; // '{"format":1,…,"cells":25,"definitions":12}'
 * packed.cells[0]; // '[[[0,[],[],[0,8]],[0,[],[],[8]]],[2,4,0,3,4,1]]': the bodies, then (action, role, body) per cell
 * ```
 */
export function packGrantTables(tables: GrantTables): PackedGrantTables {
  const byResource = tables.resources.map(() => ({ bodies: new Map<string, number>(), entries: [] as number[] }));
  for (const [resource, action, role, ...body] of tables.cells) {
    const packed = byResource[resource] as (typeof byResource)[number];
    const key = JSON.stringify(body);
    let number = packed.bodies.get(key);
    if (number === undefined) packed.bodies.set(key, (number = packed.bodies.size));
    packed.entries.push(action, role, number);
  }
  const header = Object.fromEntries(
    Object.entries(tables).map(([key, value]) => [key, key === 'cells' || key === 'definitions' ? (value as readonly unknown[]).length : value]),
  );
  const sources = new Map<string, number>();
  const rows = tables.definitions.flatMap(({ index, source, descr }) => {
    if (source !== undefined && !sources.has(source)) sources.set(source, sources.size);
    return [index, source === undefined ? -1 : (sources.get(source) as number), descr ?? null];
  });
  return {
    header: JSON.stringify(header),
    definitions: JSON.stringify([[...sources.keys()], rows]),
    cells: byResource.map(({ bodies, entries }) => `[[${[...bodies.keys()].join(',')}],${JSON.stringify(entries)}]`),
  };
}

/**
 * The tables the generated code exports: the header parsed now, the cells and definitions parsed (and checked)
 * only when read. An engine loading them decodes one resource's cells at a time (see {@link resourceCells}).
 *
 * @example
 * ```ts
 * export const grantTables: GrantTables = unpackGrantTables('{"format":1,…}', '[…]', ['[[0,2,4,0,[],[],[0,8]]]', …]);
 * ```
 */
export function unpackGrantTables(header: string, definitions: string, cells: readonly string[]): GrantTables {
  const parsed = JSON.parse(header) as Record<string, unknown>;
  const check = packedTablesCheck(parsed);
  const parts: PackedParts = { header: parsed, cells, check };
  let allCells: readonly GrantCell[] | undefined;
  let summaries: readonly DefinitionSummary[] | undefined;
  const tables: Record<string, unknown> = {};
  // Keys in the header's order: the tables' JSON, and so their version, is the same as before packing.
  for (const key of Object.keys(parsed)) {
    if (key === 'cells')
      Object.defineProperty(tables, key, {
        enumerable: true,
        get: () => (allCells ??= Object.freeze(cells.flatMap((_, r) => decodedCells(parts, r)))),
      });
    else if (key === 'definitions') Object.defineProperty(tables, key, { enumerable: true, get: () => (summaries ??= decodedDefinitions(parts, definitions)) });
    else tables[key] = parsed[key];
  }
  packedParts.set(tables, parts);
  return tables as unknown as GrantTables;
}

/**
 * A part's JSON parsed into `[list, list]` (what both kinds of part are), else a PermissionsUsageError naming the
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
  const [bodies, entries] = twoLists(parts.cells[resource], `the cells of ${JSON.stringify(name)}`);
  const cells: unknown[] = [];
  for (let i = 0; i < entries.length; i += 3) {
    const body = bodies[entries[i + 2] as number];
    // A missing body, or one that is not a list, leaves the cell short: the check below says where.
    cells.push([resource, entries[i], entries[i + 1], ...(Array.isArray(body) ? (body as unknown[]) : [])]);
  }
  const problem = parts.check.cellsProblem(cells, name);
  if (problem !== undefined) throw notGrantTablesError(problem);
  return cells as readonly GrantCell[];
}

function decodedDefinitions(parts: PackedParts, text: string): readonly DefinitionSummary[] {
  const [sources, rows] = twoLists(text, 'the definitions');
  const definitions: unknown[] = [];
  for (let i = 0; i < rows.length; i += 3) {
    const source = rows[i + 1] as number;
    // The keys in the order the table builder writes them: the tables' JSON, and so their version, stays the same.
    // A source number past the sources gives no string, which the check below refuses.
    definitions.push({
      index: rows[i],
      ...(source === -1 ? {} : { source: Object.hasOwn(sources, source) ? sources[source] : null }),
      ...(rows[i + 2] === null ? {} : { descr: rows[i + 2] }),
    });
  }
  const problem = parts.check.definitionsProblem(definitions);
  if (problem !== undefined) throw notGrantTablesError(problem);
  return definitions as readonly DefinitionSummary[];
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
  return packedParts.get(tables)?.check.header;
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
