/**
 * Reads a definitions folder: `*.permissions.json` and `*.permissions.ts` (definitions) and
 * `*.resource.json` (per-resource metadata), statically, with the position of every value. Each file
 * is read by its own reader (read-json-file.ts, read-typescript-file.ts); here the folder is listed,
 * bounded, and every file's value sorted into definitions and metadata.
 */
import { readdirSync } from 'node:fs';
import { definitionsOfFileValue, MAX_DEFINITIONS_FILE_LENGTH } from 'typed-permissions/internal';
import type { CompileProblem, ValuePath } from '../problems/compile-problem.js';
import { readJsonFile } from './read-json-file.js';
import { regularFileSize } from './source-file.js';
import { readResourceMetadata, type ResourceMetadata } from './read-resource-metadata.js';
import { unread, wholeFileProblem, type FileRead } from './read-file-result.js';
import { readTypeScriptFile } from './read-typescript-file.js';
import { positionOf, type Positions, type StaticValue } from './value-positions.js';

/** One definition as read from a file, not validated yet. */
export interface ReadDefinition {
  readonly value: unknown;
  /** File name relative to the definitions folder, e.g. `document.permissions.json`. */
  readonly file: string;
  /** Index of the definition in its file. */
  readonly index: number;
  /** Path of the definition inside the file's value (`[3]` or `['definitions', 3]`). */
  readonly path: ValuePath;
  readonly positions: Positions;
}

/** Everything read from a definitions folder. */
export interface ReadResult {
  readonly definitions: readonly ReadDefinition[];
  readonly resources: readonly ResourceMetadata[];
  readonly problems: readonly CompileProblem[];
  /** Every file read, for `--watch` and error messages. */
  readonly files: readonly string[];
  /** Problems the readers met past the most a file lists: counted, not kept. */
  readonly unlisted: number;
}

const DEFINITION_FILE = /\.permissions\.(json|ts)$/;

/**
 * The most bytes the definition and resource files of one folder may hold together: 64 MiB. The folder is
 * measured before any file is read, so a policy far past what the compiler can hold is refused in the time it
 * takes to list it. 1,000 roles × 2,000 resources (about 320,000 grants, which compiles in under 1 GB) take 41 MB.
 */
export const MAX_DEFINITIONS_FOLDER_BYTES = 64 * 1024 * 1024;

/** Limits of {@link readDefinitionsFolder}; tests pass small ones to reach them cheaply. */
export interface ReadLimits {
  /** The most bytes the definition and resource files may hold together ({@link MAX_DEFINITIONS_FOLDER_BYTES}). */
  readonly maxFolderBytes: number;
}
const RESOURCE_FILE = /\.resource\.json$/;

/** Reads one file of the folder (of `bytes` bytes) by its kind, within the size limit; absurd nesting is a problem, not a crash. */
function readFile(directory: string, file: string, bytes: number): FileRead {
  // UTF-8 takes at most 4 bytes a character: a file larger than this is over the limit without reading it.
  if (bytes > MAX_DEFINITIONS_FILE_LENGTH * 4) {
    return unread(
      wholeFileProblem(
        file,
        'syntax-error',
        `The file has ${bytes} bytes, more than the limit of ${MAX_DEFINITIONS_FILE_LENGTH} characters.`,
        'Split the definitions over several files, one per resource.',
      ),
    );
  }
  try {
    return file.endsWith('.json') ? readJsonFile(directory, file) : readTypeScriptFile(directory, file);
  } catch (error) {
    // The TypeScript parser and the literal reader recurse: a RangeError is the stack running out.
    if (!(error instanceof RangeError)) throw error;
    return unread(wholeFileProblem(file, 'invalid-file', 'The file is nested too deeply to read.', 'Definitions are flat objects: remove the nesting.'));
  }
}

/**
 * The definitions a file's value holds and where they stand in it, or `undefined` (with a problem)
 * when it holds none. A JSON file's shape is decided by the runtime's own check (`definitionsOfFileValue`,
 * as `parseDefinitionsJson` decides it); a TypeScript file exports a plain array.
 */
function definitionsOfFile(file: string, read: StaticValue, problems: CompileProblem[]): { list: readonly unknown[]; base: ValuePath } | undefined {
  const where = (path: ValuePath) => ({ file, ...(positionOf(read.positions, path) ?? { line: 1, column: 1 }) });
  if (file.endsWith('.json')) {
    const shape = definitionsOfFileValue(read.value);
    for (const problem of shape.problems)
      problems.push({ ...where(problem.path), path: problem.path, code: 'invalid-file', message: problem.message, fix: problem.fix });
    return shape.definitions === undefined ? undefined : { list: shape.definitions, base: shape.path };
  }
  if (Array.isArray(read.value)) return { list: read.value, base: [] };
  problems.push({ ...where([]), path: [], code: 'invalid-file', message: 'The definitions are not an array.', fix: 'Export an array of definitions.' });
  return undefined;
}

/** The folder's definition and metadata files, sorted by name (so output is stable), or the problem of listing it. */
function listFolder(directory: string): { files: string[] } | { problem: CompileProblem } {
  try {
    return {
      files: readdirSync(directory)
        .sort()
        .filter((name) => DEFINITION_FILE.test(name) || RESOURCE_FILE.test(name)),
    };
  } catch (error) {
    return {
      problem: {
        // The problem is the folder itself, not a file in it: its place is the folder, which every format prints.
        file: '',
        path: [],
        code: 'invalid-file',
        message: `Cannot read the definitions folder: ${(error as Error).message}.`,
        fix: 'Pass the path of an existing folder of *.permissions.json files as the first argument (without one, ./definitions is read).',
      },
    };
  }
}

/**
 * The size of each listed file, or the problems that keep the folder from being read: every listed entry that is no
 * regular file (all of them at once, not one a compile), and the file at which the running total (in name order)
 * passes `maxFolderBytes`. Only sizes are read, never contents.
 */
function measureFolder(directory: string, files: readonly string[], maxFolderBytes: number): { sizes: number[] } | { problems: CompileProblem[] } {
  const sizes: number[] = [];
  const problems: CompileProblem[] = [];
  let total = 0;
  let counted = 0;
  for (const file of files) {
    const size = regularFileSize(directory, file);
    if ('problem' in size) {
      problems.push(size.problem);
      continue;
    }
    const { bytes } = size;
    sizes.push(bytes);
    total += bytes;
    counted++;
    if (total > maxFolderBytes && total - bytes <= maxFolderBytes) problems.push(tooLargeProblem(file, maxFolderBytes, counted, files.length, total));
  }
  return problems.length > 0 ? { problems } : { sizes };
}

/** The problem of the file at which the folder's running total, `total` bytes over `counted` files, passes `maxFolderBytes`. */
function tooLargeProblem(file: string, maxFolderBytes: number, counted: number, listed: number, total: number): CompileProblem {
  return wholeFileProblem(
    file,
    'too-large',
    `The definition and resource files hold more than the limit of ${maxFolderBytes} bytes together: ` +
      `the ${counted} files up to this one (of ${listed}, in name order) hold ${total} bytes. Nothing was read.`,
    'Make the policy smaller: grant several roles, resources or actions in one definition (role lists, `*`) ' +
      'instead of one definition per grant, or split it into several compiled policies.',
  );
}

/**
 * Reads every definition and metadata file of `directory` (sorted by name, so output is stable); `onListed` is told
 * how many there are before they are read. Their sizes are measured first: a folder holding more than
 * `limits.maxFolderBytes` is refused with one `too-large` problem at the file that crosses it, and one with entries
 * that are no regular files with a problem at each, before any file is read.
 *
 * @example
 * ```ts
 * const { definitions, resources, problems } = readDefinitionsFolder('definitions');
 * ```
 */
export function readDefinitionsFolder(
  directory: string,
  onListed?: (files: number) => void,
  limits: ReadLimits = { maxFolderBytes: MAX_DEFINITIONS_FOLDER_BYTES },
): ReadResult {
  const problems: CompileProblem[] = [];
  const definitions: ReadDefinition[] = [];
  const resources: ResourceMetadata[] = [];
  const listed = listFolder(directory);
  if ('problem' in listed) return { definitions, resources, files: [], problems: [listed.problem], unlisted: 0 };
  onListed?.(listed.files.length);
  const measured = measureFolder(directory, listed.files, limits.maxFolderBytes);
  if ('problems' in measured) return { definitions, resources, files: listed.files, problems: measured.problems, unlisted: 0 };
  let unlisted = 0;
  for (const [i, file] of listed.files.entries()) {
    const { read, problems: fileProblems, unlisted: fileUnlisted } = readFile(directory, file, measured.sizes[i] as number);
    problems.push(...fileProblems);
    unlisted += fileUnlisted ?? 0;
    if (read === undefined) continue;
    if (RESOURCE_FILE.test(file)) {
      const metadata = readResourceMetadata(file, read, problems);
      if (metadata !== undefined) resources.push(metadata);
      continue;
    }
    const found = definitionsOfFile(file, read, problems);
    found?.list.forEach((value, index) => definitions.push({ value, file, index, path: [...found.base, index], positions: read.positions }));
  }
  return { definitions, resources, problems, files: listed.files, unlisted };
}
