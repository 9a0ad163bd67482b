/**
 * Definitions folder → validated model: the runtime's zod schema and table builder (never a second
 * copy of either), plus the checks that need the resource files (declared attributes, with the runtime's shared check; hook kinds).
 * The phases: read the folder, index the metadata, validate each definition, build the tables, check
 * what needs the whole policy, check the policy tests against it, and gather what the emitters need.
 */
import {
  buildGrantTables,
  validateDefinition,
  type GrantTables,
  type LocatedDefinition,
  type PolicyTests,
  type UserAttributeType,
  type ValidDefinition,
} from 'typed-permissions/internal';
import type { CompilePhase } from './compile-phase.js';
import type { CompileProblem } from '../problems/compile-problem.js';
import { capProblems, MAX_PROBLEMS_PER_FILE, type UnlistedProblems } from '../problems/problem-cap.js';
import { undeclaredAttributeProblems } from './declared-attributes.js';
import { locationKey, problemAt, sortProblems } from './definition-problem.js';
import { ownershipRuleProblems, ruleUserAttributes } from './ownership-rules.js';
import { collectHookMethods, DEFAULT_ID_TYPE, type HookMethod } from './hook-methods.js';
import { readDefinitionsFolder, type ReadDefinition, type ReadResult } from '../reading/read-definitions.js';
import type { ResourceMetadata } from '../reading/read-resource-metadata.js';
import { policyTestProblems, policyTestsOf, readPolicyTestFiles } from '../policy-tests/read-policy-tests.js';
import { positionOf } from '../reading/value-positions.js';

/** Everything the emitters need. */
export interface CompiledModel {
  readonly tables: GrantTables;
  /** The actions of each resource, sorted: those its `*.resource.json` declares, else those granted on it (to some role). */
  readonly resourceActions: ReadonlyMap<string, readonly string[]>;
  /** TypeScript id type per resource. */
  readonly resourceIdTypes: ReadonlyMap<string, string>;
  readonly hookMethods: readonly HookMethod[];
  /** The user attributes the named ownership rules read, sorted by name; empty when no definition names a rule. */
  readonly ruleUserAttributes: readonly (readonly [name: string, type: UserAttributeType])[];
  /** Resources whose `*.resource.json` declares an ownedAmong executor: there, limitOwned needs no isOwner. Sorted. */
  readonly computableResources: readonly string[];
  readonly definitions: readonly { readonly file: string; readonly index: number; readonly definition: ValidDefinition }[];
  readonly warnings: readonly string[];
  /** The policy tests of the folder (`*.permissions.test.json`), normalized; undefined when it has no test file. */
  readonly tests: PolicyTests | undefined;
}

/** The outcome of compiling a folder: a model, or the problems found (the first ones, and a count of the others). */
export type CompileModelResult =
  | { readonly ok: true; readonly model: CompiledModel; readonly files: readonly string[] }
  | {
      readonly ok: false;
      /** The problems listed: at most `MAX_PROBLEMS_PER_FILE` of a file and `MAX_LISTED_PROBLEMS` in all, sorted. */
      readonly problems: readonly CompileProblem[];
      /** What was found, or not looked for, past those caps. */
      readonly unlisted: UnlistedProblems;
      readonly files: readonly string[];
    };

/** The valid definitions, as the table builder takes them and as the emitters list them. */
interface AcceptedDefinitions {
  readonly located: LocatedDefinition[];
  /** The read definition of each accepted one, by {@link locationKey}. */
  readonly byLocation: Map<string, ReadDefinition>;
  readonly valid: { file: string; index: number; definition: ValidDefinition }[];
  /** Definitions not validated: their file had already reached the most problems a file lists. */
  unchecked: number;
}

/** The metadata of each resource; a second file for the same resource is a problem. */
function indexMetadata(resources: readonly ResourceMetadata[], problems: CompileProblem[]): Map<string, ResourceMetadata> {
  const metadata = new Map<string, ResourceMetadata>();
  for (const resource of resources) {
    const earlier = metadata.get(resource.resource);
    if (earlier === undefined) {
      metadata.set(resource.resource, resource);
      continue;
    }
    problems.push({
      file: resource.file,
      ...(positionOf(resource.positions, ['resource']) ?? {}),
      path: ['resource'],
      code: 'invalid-metadata',
      message: `Resource ${JSON.stringify(resource.resource)} is already described in ${earlier.file}.`,
      fix: 'Keep one metadata file per resource.',
    });
  }
  return metadata;
}

/** Whether the reader already reported a part of `entry` it could not take literally. */
function hasUnreadPart(read: ReadResult, entry: ReadDefinition): boolean {
  return read.problems.some(
    (problem) => problem.code === 'not-static' && problem.file === entry.file && entry.path.every((segment, i) => problem.path[i] === segment),
  );
}

/** How many problems each file has so far. */
function problemsPerFile(problems: readonly CompileProblem[]): Map<string, number> {
  const perFile = new Map<string, number>();
  for (const { file } of problems) perFile.set(file, (perFile.get(file) ?? 0) + 1);
  return perFile;
}

/**
 * Validates each definition with the runtime's schema, and its attributes against the metadata. Once a file has as
 * many problems as a file lists, its further definitions are counted, not validated: a file of a million broken
 * definitions costs no more than its first hundred problems.
 */
function acceptDefinitions(read: ReadResult, metadata: ReadonlyMap<string, ResourceMetadata>, problems: CompileProblem[]): AcceptedDefinitions {
  const accepted: AcceptedDefinitions = { located: [], byLocation: new Map(), valid: [], unchecked: 0 };
  const perFile = problemsPerFile(problems);
  for (const entry of read.definitions) {
    const before = perFile.get(entry.file) ?? 0;
    if (before >= MAX_PROBLEMS_PER_FILE) {
      accepted.unchecked++;
      continue;
    }
    // A part the reader could not take literally is already reported; validating what is left would only add misleading "missing" problems.
    if (hasUnreadPart(read, entry)) continue;
    const found = validateDefinition(entry.value, 'names');
    for (const problem of found) problems.push(problemAt(entry, problem.path, problem));
    perFile.set(entry.file, before + found.length);
    if (found.length > 0) continue;
    const definition = entry.value as ValidDefinition;
    const undeclared = undeclaredAttributeProblems(entry, definition, metadata);
    problems.push(...undeclared);
    perFile.set(entry.file, before + undeclared.length);
    accepted.located.push({ definition, location: { index: entry.index, source: entry.file } });
    accepted.byLocation.set(locationKey(entry.file, entry.index), entry);
    accepted.valid.push({ file: entry.file, index: entry.index, definition });
  }
  return accepted;
}

/**
 * A problem for each metadata file whose resource no definition names — unless a relation of an ownership rule
 * reaches it: such a file describes the records a rule reads (the users of "the creator's company"), not a
 * resource anyone is granted.
 */
function unknownResourceProblems(metadata: ReadonlyMap<string, ResourceMetadata>, tables: GrantTables): CompileProblem[] {
  const related = new Set([...metadata.values()].flatMap((meta) => Object.values(meta.relations ?? {}).map((relation) => relation.resource)));
  return [...metadata.values()]
    .filter((meta) => !tables.resources.includes(meta.resource) && !related.has(meta.resource))
    .map((meta) => ({
      file: meta.file,
      ...(positionOf(meta.positions, ['resource']) ?? {}),
      path: ['resource'],
      code: 'unknown-resource',
      message: `No definition names resource ${JSON.stringify(meta.resource)}.`,
      fix: 'Correct the resource name, or remove the metadata file.',
    }));
}

/** The actions of each resource, sorted: the ones it declares, else the ones granted on it. */
function actionsByResource(tables: GrantTables): Map<string, readonly string[]> {
  const actions = new Map<string, Set<string>>(tables.resources.map((resource) => [resource, new Set()]));
  for (const [resource, action] of tables.cells) actions.get(tables.resources[resource] as string)?.add(tables.actions[action] as string);
  tables.declaredActions?.forEach((declared, resource) => {
    if (declared !== null) actions.set(tables.resources[resource] as string, new Set(declared.map((action) => tables.actions[action] as string)));
  });
  return new Map([...actions].map(([resource, names]) => [resource, [...names].sort()]));
}

/**
 * Reads and validates a definitions folder and builds its tables, telling `progress` as each phase starts.
 *
 * @example
 * ```ts
 * const result = compileModel('definitions');
 * if (!result.ok) for (const line of problemReport(result, 'definitions')) console.error(line);
 * ```
 */
export function compileModel(directory: string, progress?: (phase: CompilePhase) => void): CompileModelResult {
  const read = readDefinitionsFolder(directory, (files) => progress?.({ name: 'reading', count: files }));
  progress?.({ name: 'checking', count: read.definitions.length });
  const problems: CompileProblem[] = [...read.problems];
  const metadata = indexMetadata(read.resources, problems);
  problems.push(...ownershipRuleProblems(metadata));
  const { located, byLocation, valid, unchecked } = acceptDefinitions(read, metadata, problems);

  const executors = new Map([...metadata.values()].flatMap((meta) => (meta.ownedAmong === undefined ? [] : [[meta.resource, meta.ownedAmong] as const])));
  // A resource only ownership rules reach (through a relation) describes records rules read: no setting of it is a grant's.
  const named = new Set(located.map(({ definition }) => definition.resource));
  const related = new Set([...metadata.values()].flatMap((meta) => Object.values(meta.relations ?? {}).map((relation) => relation.resource)));
  const idTypes = new Map(
    [...metadata.values()].filter((meta) => named.has(meta.resource) || !related.has(meta.resource)).map((meta) => [meta.resource, meta.idType] as const),
  );
  const actions = new Map(
    [...metadata.values()].flatMap((meta) =>
      meta.actions === undefined ? [] : [[meta.resource, { actions: meta.actions, declaredIn: `"actions" in ${meta.file}` }] as const],
    ),
  );
  const attributes = new Map([...metadata.values()].flatMap((meta) => (meta.attributes === undefined ? [] : [[meta.resource, meta.attributes] as const])));
  const ownershipRules = new Map(
    [...metadata.values()].map(
      (meta) =>
        [
          meta.resource,
          {
            rules: meta.ownership ?? {},
            userAttributes: meta.userAttributes ?? {},
            relations: meta.relations ?? {},
            tenantIdType: meta.tenantIdType,
            idType: meta.idType,
          },
        ] as const,
    ),
  );
  const built = buildGrantTables(located, {
    ownedAmong: executors,
    idTypes,
    actions,
    attributes,
    ownershipRules,
    progress: (name, count) => progress?.({ name, count }),
  });
  for (const problem of built.problems)
    problems.push(problemAt(byLocation.get(locationKey(problem.source, problem.index)) as ReadDefinition, problem.path, problem));
  const { tables } = built;
  problems.push(...unknownResourceProblems(metadata, tables));

  const resourceIdTypes = new Map(tables.resources.map((resource) => [resource, metadata.get(resource)?.idType ?? DEFAULT_ID_TYPE]));
  const hookMethods = collectHookMethods({ metadata, located, byLocation, resources: tables.resources, resourceIdTypes }, problems);
  const userAttributes = ruleUserAttributes(tables, metadata, problems);

  // What tests name is checked against the tables only when the definitions are valid: partial tables would make every name look unknown.
  const tests = readPolicyTestFiles(directory);
  const definitionsValid = problems.length === 0;
  problems.push(...tests.problems);
  problems.push(...policyTestProblems(tests, definitionsValid ? tables : undefined));
  const files = [...read.files, ...tests.names].sort();
  if (problems.length > 0) {
    const capped = capProblems(sortProblems(problems));
    const unlisted = { problems: read.unlisted + tests.unlisted + capped.unlisted, definitions: unchecked };
    return { ok: false, problems: capped.listed, unlisted, files };
  }
  return {
    ok: true,
    files,
    model: {
      tables,
      resourceActions: actionsByResource(tables),
      resourceIdTypes,
      hookMethods,
      ruleUserAttributes: userAttributes,
      computableResources: [...executors.keys()].filter((resource) => tables.resources.includes(resource)).sort(),
      definitions: valid,
      warnings: built.warnings,
      tests: policyTestsOf(tests),
    },
  };
}
