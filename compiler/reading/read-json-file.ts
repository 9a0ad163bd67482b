/**
 * Reads a JSON file of a definitions folder (`*.permissions.json`, `*.resource.json`). It is accepted
 * or refused by the runtime's own strict reader (`parseStrictJson`), so that a file the compiler
 * accepts also loads at run time; the runtime's JSON scanner then tells where each value stands and
 * finds keys written twice, which `JSON.parse` cannot see. No TypeScript is loaded for JSON.
 */
import { parseStrictJson, scanJson } from 'typed-permissions/internal';
import { readFrom, unread, wholeFileProblem, type FileRead } from './read-file-result.js';
import { utf8FileText } from './source-file.js';
import { duplicateKeyProblem, OffsetPositions, type Place, type StaticValueProblem } from './value-positions.js';
import { CappedList, MAX_PROBLEMS_PER_FILE } from '../problems/problem-cap.js';

/**
 * The deepest nesting of arrays and objects a JSON file the compiler reads may have: 64 levels. Real files stay far
 * below it (a definition's attributes are 5 levels deep, an ownership rule of 8 levels of `all`/`any` about 20, a
 * policy test's record 4 plus what the record holds); a deeper file is refused before anything else reads it.
 */
export const MAX_JSON_NESTING = 64;

/**
 * Reads `file` of `directory` as strict JSON, with the position of every value.
 *
 * @example
 * ```ts
 * const { read, problems } = readJsonFile('definitions', 'document.permissions.json');
 * ```
 */
export function readJsonFile(directory: string, file: string): FileRead {
  const read = utf8FileText(directory, file);
  return 'problem' in read ? unread(read.problem) : readJsonText(file, read.text);
}

/**
 * Reads `text`, the content of `file`, as strict JSON, with the position of every value. A key written twice is a
 * problem at its second place; the value is `JSON.parse`'s (the last one counts, as at run time), and so are the
 * positions of what it holds.
 *
 * @example
 * ```ts
 * const { read, problems } = readJsonText('documents.permissions.test.json', '{ "users": {}, "tests": [] }');
 * ```
 */
export function readJsonText(file: string, text: string): FileRead {
  const parsed = parseStrictJson(text);
  if (!parsed.ok) {
    const { line, column, description, fix } = parsed.issue;
    return { read: undefined, problems: [{ file, line, column, path: [], code: 'syntax-error', message: `Syntax error: ${description}.`, fix }] };
  }
  const positions = new OffsetPositions(parsed.text);
  // A file of a million keys written twice is a million problems: the first are kept, the others counted.
  const problems = new CappedList<StaticValueProblem>(MAX_PROBLEMS_PER_FILE);
  // The places of the value being read and of its ancestors: places[i] is that of the path's first i parts.
  const places: Place[] = [];
  // Each object's keys so far, by where the object starts.
  const keysOf = new Map<number, Set<string>>();
  let tooDeep = false;
  // The text is JSON (JSON.parse took it): the scan finds no mistake, only places.
  scanJson(parsed.text, {
    value: (path, offset) => {
      if (path.length > MAX_JSON_NESTING) {
        tooDeep = true;
        return;
      }
      places.length = path.length;
      const parent = places[path.length - 1];
      places.push(parent === undefined ? positions.placeRoot(offset) : positions.place(parent, path[path.length - 1] as string | number, offset));
    },
    key: (path, offset, objectOffset) => {
      // A key past the limit belongs to a file refused as a whole: nothing of it is kept.
      if (path.length > MAX_JSON_NESTING) return;
      const key = path[path.length - 1] as string;
      let keys = keysOf.get(objectOffset);
      if (keys === undefined) keysOf.set(objectOffset, (keys = new Set()));
      if (keys.has(key)) problems.push(duplicateKeyProblem([...path], positions.at(offset)));
      else keys.add(key);
    },
  });
  if (tooDeep) {
    return unread(
      wholeFileProblem(
        file,
        'invalid-file',
        `The file nests arrays and objects more than ${MAX_JSON_NESTING} levels deep; no definitions, resource, test or custom roles file does.`,
        'Remove the nesting: definitions, resources and tests are shallow objects.',
      ),
    );
  }
  return readFrom(file, { value: parsed.value, positions, problems: problems.kept, unlisted: problems.unlisted });
}
