/**
 * What the compiler reads of a definitions folder's files before parsing them: a regular file of UTF-8 text. A
 * dangling link, a link loop, a folder, a named pipe or a device named like a definitions or test file is a problem
 * at that file (never a stack trace, never a hang, never a read without end); a byte that is no part of a UTF-8
 * character is refused at its line and column (read as U+FFFD, two roles differing there became one).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileModel } from '../../compiler/model/compile-model.js';
import { readDefinitionsFolder } from '../../compiler/reading/read-definitions.js';
import { readPolicyTestFiles } from '../../compiler/policy-tests/read-policy-tests.js';
import { makeTempDir, removeTempDir } from './helpers.js';

let temp: string | undefined;
const REPLACE_IT = 'Definitions and tests are regular files: replace it with one, or remove it from the folder.';

/** A folder with one good definitions file and `odd`, made by `make` at `name`. */
function folderWith(folder: string, name: string, make: (path: string) => void): string {
  const dir = join(temp as string, folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'a.permissions.json'), JSON.stringify([{ roles: 'A', resource: 'doc', grant: ['read:any'] }]));
  make(join(dir, name));
  return dir;
}

const problemsOf = (dir: string) => readDefinitionsFolder(dir).problems.map(({ file, code, message, fix }) => ({ file, code, message, fix }));

describe('files of a definitions folder that are no regular file of UTF-8 text', () => {
  beforeAll(() => {
    temp = makeTempDir('file-kinds');
  });
  afterAll(() => removeTempDir(temp));

  it.each([
    ['a folder', 'folder', (path: string) => mkdirSync(path), 'The file is a folder, not a regular file.'],
    [
      'a named pipe (reading it would wait for ever)',
      'pipe',
      (path: string) => execFileSync('mkfifo', [path]),
      'The file is a named pipe (FIFO), not a regular file.',
    ],
    [
      'a device (reading it would never end)',
      'device',
      (path: string) => symlinkSync('/dev/zero', path),
      'The file is a character device, not a regular file.',
    ],
  ])('%s named like a definitions file is a problem at it', (_what, folder, make, message) => {
    const dir = folderWith(folder, 'z.permissions.json', make);
    expect(problemsOf(dir)).toEqual([{ file: 'z.permissions.json', code: 'invalid-file', message, fix: REPLACE_IT }]);
  });

  it('a dangling link and a link loop are problems at them, saying why', () => {
    const dangling = folderWith('dangling', 'z.permissions.json', (path) => symlinkSync('nowhere', path));
    expect(problemsOf(dangling)).toEqual([
      {
        file: 'z.permissions.json',
        code: 'invalid-file',
        message: `The file cannot be read: ENOENT: no such file or directory, stat '${join(dangling, 'z.permissions.json')}'.`,
        fix: REPLACE_IT,
      },
    ]);
    const loop = folderWith('loop', 'x.resource.json', (path) => {
      symlinkSync('y.resource.json', path);
      symlinkSync('x.resource.json', join(path, '..', 'y.resource.json'));
    });
    expect(problemsOf(loop).map(({ file, message }) => [file, message.startsWith('The file cannot be read: ELOOP')])).toEqual([
      // Both links of the loop are entries of the folder: each is a problem.
      ['x.resource.json', true],
      ['y.resource.json', true],
    ]);
  });

  it('every entry that is no regular file is a problem in the same compile, and nothing is read', () => {
    const dir = folderWith('several', 'b.permissions.json', (path) => mkdirSync(path));
    symlinkSync('nowhere', join(dir, 'c.resource.json'));
    symlinkSync('d.permissions.ts', join(dir, 'd.permissions.ts'));
    symlinkSync('/dev/zero', join(dir, 'f.permissions.json'));
    const read = readDefinitionsFolder(dir);
    expect(read.definitions).toEqual([]);
    expect(read.problems.map(({ file, code, message }) => ({ file, code, message: message.replace(/, stat .*$/, '') }))).toEqual([
      { file: 'b.permissions.json', code: 'invalid-file', message: 'The file is a folder, not a regular file.' },
      { file: 'c.resource.json', code: 'invalid-file', message: 'The file cannot be read: ENOENT: no such file or directory' },
      { file: 'd.permissions.ts', code: 'invalid-file', message: 'The file cannot be read: ELOOP: too many symbolic links encountered' },
      { file: 'f.permissions.json', code: 'invalid-file', message: 'The file is a character device, not a regular file.' },
    ]);
  });

  it('a byte that is no part of a UTF-8 character is a syntax error at its line and column, in JSON and TypeScript files', () => {
    const dir = folderWith('utf8', 'b.permissions.json', (path) =>
      writeFileSync(
        path,
        Buffer.concat([Buffer.from('[\n  { "roles": ["ADMIN'), Buffer.from([0xff]), Buffer.from('"], "resource": "doc", "grant": ["read:any"] }\n]')]),
      ),
    );
    writeFileSync(join(dir, 'c.permissions.ts'), Buffer.concat([Buffer.from("export default [{ roles: ['é"), Buffer.from([0xc3]), Buffer.from("'] }];")]));
    const read = readDefinitionsFolder(dir);
    expect(read.problems.map(({ file, line, column, code, message }) => ({ file, line, column, code, message }))).toEqual([
      {
        file: 'b.permissions.json',
        line: 2,
        column: 21,
        code: 'syntax-error',
        message: 'The file is not UTF-8 text: a byte at line 2, column 21 is no part of a UTF-8 character.',
      },
      {
        file: 'c.permissions.ts',
        line: 1,
        column: 29,
        code: 'syntax-error',
        message: 'The file is not UTF-8 text: a byte at line 1, column 29 is no part of a UTF-8 character.',
      },
    ]);
  });

  it('a byte order mark is no column: line 1 reads the same with or without one, in every message', () => {
    const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
    const files: Record<string, Buffer> = {
      'a.permissions.json': Buffer.concat([Buffer.from('[{ "roles": ["A'), Buffer.from([0xff]), Buffer.from('"], "resource": "r", "grant": ["read"] }]')]),
      'b.permissions.ts': Buffer.from('export default [{ roles: ["A"], resource: "r", grant: ["read:mine"] }];'),
      'c.permissions.ts': Buffer.from('export default [{ roles: ["A"] resource: "r" }];'),
      'd.permissions.ts': Buffer.from('export let definitions = [];'),
      'e.permissions.ts': Buffer.from('export default [{ roles: ["A"], resource: "r", grant: [...x] }];'),
    };
    const placesOf = (name: string, withMark: boolean): string[] => {
      const dir = join(temp as string, name);
      mkdirSync(dir);
      for (const [file, bytes] of Object.entries(files)) writeFileSync(join(dir, file), withMark ? Buffer.concat([BOM, bytes]) : bytes);
      const result = compileModel(dir);
      return result.ok ? [] : result.problems.map(({ file, line, column, code }) => `${file}:${line}:${column} ${code}`);
    };
    const expected = [
      'a.permissions.json:1:16 syntax-error',
      'b.permissions.ts:1:56 bad-possession',
      'c.permissions.ts:1:32 syntax-error',
      'd.permissions.ts:1:12 unsupported-export',
      'e.permissions.ts:1:56 not-static',
    ];
    expect(placesOf('without-mark', false)).toEqual(expected);
    expect(placesOf('with-mark', true)).toEqual(expected);
  });

  it('policy test files are held to the same: a folder or a device is a problem at it', () => {
    const dir = folderWith('tests', 'x.permissions.test.json', (path) => mkdirSync(path));
    symlinkSync('/dev/zero', join(dir, 'y.permissions.test.json'));
    expect(readPolicyTestFiles(dir).problems.map(({ file, message }) => [file, message])).toEqual([
      ['x.permissions.test.json', 'The file is a folder, not a regular file.'],
      ['y.permissions.test.json', 'The file is a character device, not a regular file.'],
    ]);
  });
});
