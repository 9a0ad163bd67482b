/**
 * Reads the policy tests of a definitions folder: every `*.permissions.test.json`, strict JSON within the size
 * limit of a definitions file, checked against the test file format (test-file-schema.ts) and normalized — every
 * map present, each test with its line and column — for the runner and the policy bundle. What the tests name
 * is checked against the compiled tables by the runtime's own check, each problem placed at its line and column.
 */
import { readdirSync } from 'node:fs';
import { regularFileSize, utf8FileText } from '../reading/source-file.js';
import {
  MAX_DEFINITIONS_FILE_LENGTH,
  policyTestReferenceProblems,
  policyTestsShapeProblems,
  type GrantTables,
  type PolicyTestCase,
  type PolicyTestFile,
  type PolicyTests,
} from 'typed-permissions/internal';
import type { CompileProblem } from '../problems/compile-problem.js';
import { readJsonText } from '../reading/read-json-file.js';
import { wholeFileProblem, type FileRead } from '../reading/read-file-result.js';
import { positionOf, type Positions } from '../reading/value-positions.js';
import { testFileProblems } from './test-file-schema.js';

/** The name of a policy test file. */
export const TEST_FILE = /\.permissions\.test\.json$/;

/** One test file read: its normalized tests and where every value of it stands. */
export interface ReadTestFile {
  readonly tests: PolicyTestFile;
  readonly positions: Positions;
}

/** The test files of a folder: those that could be read, every file's name, and the problems met. */
export interface ReadPolicyTests {
  readonly files: readonly ReadTestFile[];
  readonly names: readonly string[];
  readonly problems: readonly CompileProblem[];
  /** Problems the reader met past the most a file lists: counted, not kept. */
  readonly unlisted: number;
}

const SPLIT = 'Split the tests over several files.';

/** Reads one test file within the size limit; absurd nesting is a problem, not a crash. */
function readTestFile(directory: string, file: string): FileRead {
  const size = regularFileSize(directory, file);
  if ('problem' in size) return { read: undefined, problems: [size.problem] };
  const { bytes } = size;
  // UTF-8 takes at most 4 bytes a character: a file larger than this is over the limit without reading it.
  if (bytes > MAX_DEFINITIONS_FILE_LENGTH * 4)
    return {
      read: undefined,
      problems: [wholeFileProblem(file, 'too-large', `The file has ${bytes} bytes, more than the limit of ${MAX_DEFINITIONS_FILE_LENGTH} characters.`, SPLIT)],
    };
  const read = utf8FileText(directory, file);
  if ('problem' in read) return { read: undefined, problems: [read.problem] };
  const { text } = read;
  const length = text.startsWith('\ufeff') ? text.length - 1 : text.length;
  if (length > MAX_DEFINITIONS_FILE_LENGTH)
    return {
      read: undefined,
      problems: [wholeFileProblem(file, 'too-large', `The file has ${length} characters, more than the limit of ${MAX_DEFINITIONS_FILE_LENGTH}.`, SPLIT)],
    };
  try {
    return readJsonText(file, text);
  } catch (error) {
    // The position reader recurses: a RangeError is the stack running out.
    if (!(error instanceof RangeError)) throw error;
    return {
      read: undefined,
      problems: [wholeFileProblem(file, 'invalid-file', 'The file is nested too deeply to read.', 'Records of tests are plain objects: remove the nesting.')],
    };
  }
}

/** The value of a file whose format is right. */
interface TestFileValue {
  readonly users: PolicyTestFile['users'];
  readonly ownership?: PolicyTestFile['ownership'];
  readonly records?: PolicyTestFile['records'];
  readonly tenants?: PolicyTestFile['tenants'];
  readonly tests: readonly Omit<PolicyTestCase, 'line' | 'column'>[];
}

/**
 * The normalized tests of a file: the maps as read (JSON.parse made them, so a user called "__proto__" is a plain key),
 * each test in one field order, with its place.
 */
function normalize(file: string, value: TestFileValue, positions: Positions): PolicyTestFile {
  const tests = value.tests.map(({ user, action, resource, resourceId, expect, attributes, tenant }, i): PolicyTestCase => {
    const { line, column } = positionOf(positions, ['tests', i]) ?? { line: 1, column: 1 };
    return {
      user,
      action,
      resource,
      ...(resourceId === undefined ? {} : { resourceId }),
      expect,
      ...(attributes === undefined ? {} : { attributes }),
      ...(tenant === undefined ? {} : { tenant }),
      line,
      column,
    };
  });
  return {
    file,
    users: value.users,
    ownership: value.ownership ?? {},
    records: value.records ?? {},
    ...(value.tenants === undefined ? {} : { tenants: value.tenants }),
    tests,
  };
}

/**
 * Reads every `*.permissions.test.json` of `directory` (sorted by name).
 *
 * @example
 * ```ts
 * const { files, problems } = readPolicyTestFiles('definitions');
 * ```
 */
export function readPolicyTestFiles(directory: string): ReadPolicyTests {
  let names: string[];
  try {
    names = readdirSync(directory)
      .filter((name) => TEST_FILE.test(name))
      .sort();
  } catch {
    // The definitions reader reports a folder it cannot list.
    return { files: [], names: [], problems: [], unlisted: 0 };
  }
  const files: ReadTestFile[] = [];
  const problems: CompileProblem[] = [];
  let unlisted = 0;
  for (const file of names) {
    const { read, problems: readProblems, unlisted: readUnlisted } = readTestFile(directory, file);
    problems.push(...readProblems);
    unlisted += readUnlisted ?? 0;
    if (read === undefined) continue;
    const formatProblems = testFileProblems(read.value);
    for (const { path, message, fix } of formatProblems)
      problems.push({ file, ...(positionOf(read.positions, path) ?? { line: 1, column: 1 }), path, code: 'invalid-test-file', message, fix });
    if (formatProblems.length === 0 && readProblems.length === 0)
      files.push({ tests: normalize(file, read.value as TestFileValue, read.positions), positions: read.positions });
  }
  return { files, names, problems, unlisted };
}

/**
 * The tests of the files read, as a policy carries them, or undefined when the folder has no test file.
 *
 * @example
 * ```ts
 * const tests = policyTestsOf(readPolicyTestFiles('definitions')); // { format: 1, files: [...] }
 * ```
 */
export function policyTestsOf(read: ReadPolicyTests): PolicyTests | undefined {
  return read.names.length === 0 ? undefined : { format: 1, files: read.files.map((file) => file.tests) };
}

/**
 * The problems of the tests read — limits, names and record ids, and, given the tables of their policy, what they
 * name — each at its line and column.
 *
 * @example
 * ```ts
 * problems.push(...policyTestProblems(readPolicyTestFiles('definitions'), model.tables));
 * ```
 */
export function policyTestProblems(read: ReadPolicyTests, tables: GrantTables | undefined): CompileProblem[] {
  // No file could be read (or there is none): each one's problems are reported already, and there is no policy's worth of tests to check.
  if (read.files.length === 0) return [];
  const positions = new Map(read.files.map((file) => [file.tests.file, file.positions]));
  const tests: PolicyTests = { format: 1, files: read.files.map((file) => file.tests) };
  // The format is checked already: every reference can be checked beside what the shape check finds, except the
  // custom roles of tenants past their limit, which would cost the building the limit bounds.
  const shape = policyTestsShapeProblems(tests);
  const tenantsPastLimit = shape.some((problem) => problem.code === 'too-large' && problem.path[0] === 'tenants');
  const references = tables === undefined ? [] : policyTestReferenceProblems(tests, tables, tenantsPastLimit ? new Map() : undefined);
  const problems = [...shape, ...references];
  return problems.map(({ file, path, code, message, fix }) => {
    const at = positions.get(file);
    return { file, ...((at === undefined ? undefined : positionOf(at, path)) ?? { line: 1, column: 1 }), path, code, message, fix };
  });
}
