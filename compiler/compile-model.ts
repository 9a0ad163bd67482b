/**
 * Definitions folder → validated model: the runtime's zod schema and table builder (never a second
 * copy of either), plus the checks only the compiler can make (declared attributes, hook kinds).
 */
import {
  buildGrantTables,
  parseAttributePattern,
  validateDefinition,
  type GrantTables,
  type LocatedDefinition,
  type ValidDefinition,
} from 'typed-permissions/internal';
import type { CompileProblem } from './compile-problem.js';
import { readDefinitionsFolder, type ReadDefinition, type ResourceMetadata } from './read-definitions.js';
import { positionOf, type ValuePath } from './static-value.js';

/** A hook method the ownership service must have. */
export interface HookMethod {
  readonly name: string;
  readonly kind: 'isOwner' | 'listOwned' | 'limitOwned' | 'ownedAmong';
  /** The TypeScript id type of the resources it serves, e.g. `number` or `string | number`. */
  readonly idType: string;
}

/** Everything the emitters need. */
export interface CompiledModel {
  readonly tables: GrantTables;
  /** Actions granted on each resource (to some role), sorted. */
  readonly resourceActions: ReadonlyMap<string, readonly string[]>;
  /** TypeScript id type per resource. */
  readonly resourceIdTypes: ReadonlyMap<string, string>;
  readonly hookMethods: readonly HookMethod[];
  /** Resources whose `*.resource.json` declares an ownedAmong executor: there, limitOwned needs no isOwner. Sorted. */
  readonly computableResources: readonly string[];
  readonly definitions: readonly { readonly file: string; readonly index: number; readonly definition: ValidDefinition }[];
  readonly warnings: readonly string[];
}

/** The outcome of compiling a folder: a model, or every problem found. */
export type CompileModelResult =
  | { readonly ok: true; readonly model: CompiledModel; readonly files: readonly string[] }
  | { readonly ok: false; readonly problems: readonly CompileProblem[]; readonly files: readonly string[] };

const DEFAULT_ID_TYPE = 'string | number';

function problemAt(
  read: Pick<ReadDefinition, 'file' | 'path' | 'positions'>,
  path: readonly (string | number)[],
  rest: Pick<CompileProblem, 'code' | 'message' | 'fix'>,
): CompileProblem {
  const full: ValuePath = [...read.path, ...path];
  // Take only code, message and fix from `rest`: a problem of the runtime also carries its own path, relative to the definition,
  // which must not replace the path in the file.
  return { file: read.file, ...(positionOf(read.positions, full) ?? {}), path: full, code: rest.code, message: rest.message, fix: rest.fix };
}

function attributeDeclared(path: readonly string[], declared: readonly string[]): boolean {
  if (path.length === 0) return true;
  const dotted = path.join('.');
  return declared.some((attribute) => attribute === dotted || attribute.startsWith(`${dotted}.`) || dotted.startsWith(`${attribute}.`));
}

/**
 * Reads and validates a definitions folder and builds its tables.
 *
 * @example
 * ```ts
 * const result = compileModel('definitions');
 * if (!result.ok) for (const p of result.problems) console.error(formatCompileProblem(p, 'definitions'));
 * ```
 */
export function compileModel(directory: string): CompileModelResult {
  const read = readDefinitionsFolder(directory);
  const problems: CompileProblem[] = [...read.problems];
  const metadata = new Map<string, ResourceMetadata>();
  for (const resource of read.resources) {
    const earlier = metadata.get(resource.resource);
    if (earlier !== undefined) {
      problems.push({
        file: resource.file,
        ...(positionOf(resource.positions, ['resource']) ?? {}),
        path: ['resource'],
        code: 'invalid-metadata',
        message: `Resource ${JSON.stringify(resource.resource)} is already described in ${earlier.file}.`,
        fix: 'Keep one metadata file per resource.',
      });
    } else metadata.set(resource.resource, resource);
  }

  const located: LocatedDefinition[] = [];
  const byLocation = new Map<string, ReadDefinition>();
  const valid: { file: string; index: number; definition: ValidDefinition }[] = [];
  for (const entry of read.definitions) {
    // A part the reader could not take literally is already reported; validating what is left would only add misleading "missing" problems.
    if (
      read.problems.some(
        (problem) => problem.code === 'not-static' && problem.file === entry.file && entry.path.every((segment, i) => problem.path[i] === segment),
      )
    )
      continue;
    const found = validateDefinition(entry.value, 'names');
    for (const problem of found) problems.push(problemAt(entry, problem.path, problem));
    if (found.length > 0) continue;
    const definition = entry.value as ValidDefinition;
    const declared = definition.resource === '*' ? undefined : metadata.get(definition.resource)?.attributes;
    if (declared !== undefined && !Array.isArray(definition.grant)) {
      for (const [key, patterns] of Object.entries(definition.grant as Record<string, readonly string[]>)) {
        patterns.forEach((pattern, i) => {
          const parsed = parseAttributePattern(pattern);
          if ('path' in parsed && !attributeDeclared(parsed.path, declared)) {
            problems.push(
              problemAt(entry, ['grant', key, i], {
                code: 'unknown-attribute',
                message: `Attribute ${JSON.stringify(pattern)} is not an attribute of ${definition.resource} (declared: ${declared.join(', ')}).`,
                fix: `Correct the spelling, or add it to "attributes" in ${metadata.get(definition.resource)?.file}.`,
              }),
            );
          }
        });
      }
    }
    located.push({ definition, location: { index: entry.index, source: entry.file } });
    byLocation.set(`${entry.file}\u0000${entry.index}`, entry);
    valid.push({ file: entry.file, index: entry.index, definition });
  }

  const executors = new Map([...metadata.values()].flatMap((meta) => (meta.ownedAmong === undefined ? [] : [[meta.resource, meta.ownedAmong] as const])));
  const idTypes = new Map([...metadata.values()].map((meta) => [meta.resource, meta.idType] as const));
  const built = buildGrantTables(located, { ownedAmong: executors, idTypes });
  for (const problem of built.problems) {
    const entry = byLocation.get(`${problem.source}\u0000${problem.index}`) as ReadDefinition;
    problems.push(problemAt(entry, problem.path, problem));
  }
  const { tables } = built;
  for (const resource of metadata.keys()) {
    if (!tables.resources.includes(resource)) {
      const meta = metadata.get(resource) as ResourceMetadata;
      problems.push({
        file: meta.file,
        ...(positionOf(meta.positions, ['resource']) ?? {}),
        path: ['resource'],
        code: 'unknown-resource',
        message: `No definition names resource ${JSON.stringify(resource)}.`,
        fix: 'Correct the resource name, or remove the metadata file.',
      });
    }
  }

  const resourceIdTypes = new Map(tables.resources.map((resource) => [resource, metadata.get(resource)?.idType ?? DEFAULT_ID_TYPE]));
  const hookKinds = new Map<string, { kind: HookMethod['kind']; idTypes: Set<string>; where: string }>();
  for (const meta of metadata.values()) {
    if (meta.ownedAmong === undefined) continue;
    const known = hookKinds.get(meta.ownedAmong);
    if (known !== undefined && known.kind !== 'ownedAmong') continue; // reported below, where the other kind is used
    const record = known ?? { kind: 'ownedAmong' as const, idTypes: new Set<string>(), where: meta.file };
    for (const type of (resourceIdTypes.get(meta.resource) ?? DEFAULT_ID_TYPE).split(' | ')) record.idTypes.add(type);
    hookKinds.set(meta.ownedAmong, record);
  }
  for (const { definition, location } of located) {
    const entry = byLocation.get(`${location.source}\u0000${location.index}`) as ReadDefinition;
    const resources = definition.resource === '*' ? tables.resources : [definition.resource];
    for (const kind of ['isOwner', 'listOwned', 'limitOwned'] as const) {
      const name = definition[kind];
      if (typeof name !== 'string') continue;
      const known = hookKinds.get(name);
      if (known !== undefined && known.kind !== kind) {
        problems.push(
          problemAt(entry, [kind], {
            code: 'hook-kind-conflict',
            message: `Method ${JSON.stringify(name)} is used as ${kind} here but as ${known.kind} in ${known.where}; one method cannot be both.`,
            fix: 'Give each hook kind its own method name.',
          }),
        );
        continue;
      }
      const record = known ?? { kind, idTypes: new Set<string>(), where: `${entry.file} definition ${entry.index}` };
      for (const resource of resources) for (const type of (resourceIdTypes.get(resource) ?? DEFAULT_ID_TYPE).split(' | ')) record.idTypes.add(type);
      hookKinds.set(name, record);
    }
  }

  if (problems.length > 0) return { ok: false, problems: sortProblems(problems), files: read.files };

  const resourceActions = new Map<string, Set<string>>(tables.resources.map((resource) => [resource, new Set()]));
  for (const [resource, action] of tables.cells) resourceActions.get(tables.resources[resource] as string)?.add(tables.actions[action] as string);
  const hookMethods = [...hookKinds]
    .map(([name, { kind, idTypes }]) => ({ name, kind, idType: [...idTypes].sort().reverse().join(' | ') || DEFAULT_ID_TYPE }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    ok: true,
    files: read.files,
    model: {
      tables,
      resourceActions: new Map([...resourceActions].map(([resource, actions]) => [resource, [...actions].sort()])),
      resourceIdTypes,
      hookMethods,
      computableResources: [...executors.keys()].filter((resource) => tables.resources.includes(resource)).sort(),
      definitions: valid,
      warnings: built.warnings,
    },
  };
}

function sortProblems(problems: CompileProblem[]): CompileProblem[] {
  return problems
    .map((problem, order) => ({ problem, order }))
    .sort((a, b) =>
      a.problem.file < b.problem.file
        ? -1
        : a.problem.file > b.problem.file
          ? 1
          : (a.problem.line ?? 0) - (b.problem.line ?? 0) || (a.problem.column ?? 0) - (b.problem.column ?? 0) || a.order - b.order,
    )
    .map(({ problem }) => problem);
}
