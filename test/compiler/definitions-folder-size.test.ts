/**
 * The definitions folder's size limit: the files' sizes are added up before any file is read, and a folder past
 * the limit is refused at the file that crosses it, with one `too-large` problem — at the limit it is read as
 * usual. The boundary is tested with a small limit on real files; the default (64 MiB) through the command line,
 * on sparse files that take no disk space and are never read.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../compiler/commands/main.js';
import { MAX_DEFINITIONS_FOLDER_BYTES, readDefinitionsFolder } from '../../compiler/reading/read-definitions.js';
import { collectIo, makeTempDir, removeTempDir } from './helpers.js';

let temp: string | undefined;
const at = (...parts: string[]) => join(temp as string, ...parts);

/** A folder of two small definitions files and a resource file; returns its size in bytes. */
function writeSmallFolder(dir: string): number {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'a.permissions.json'), JSON.stringify([{ roles: 'A', resource: 'doc', grant: ['read:any'] }]));
  writeFileSync(join(dir, 'b.permissions.json'), JSON.stringify([{ roles: 'B', resource: 'doc', grant: ['update:any'] }]));
  writeFileSync(join(dir, 'doc.resource.json'), JSON.stringify({ resource: 'doc', idType: 'number' }));
  writeFileSync(join(dir, 'notes.txt'), 'not a definitions file: not counted'.repeat(100));
  return ['a.permissions.json', 'b.permissions.json', 'doc.resource.json'].reduce((sum, file) => sum + statSync(join(dir, file)).size, 0);
}

describe('the definitions folder size limit', () => {
  beforeAll(() => {
    temp = makeTempDir('folder-size');
  });
  afterAll(() => removeTempDir(temp));

  it('is 64 MiB', () => {
    expect(MAX_DEFINITIONS_FOLDER_BYTES).toBe(67_108_864);
  });

  it('reads a folder whose files hold exactly the limit', () => {
    const dir = at('small');
    const bytes = writeSmallFolder(dir);
    const read = readDefinitionsFolder(dir, undefined, { maxFolderBytes: bytes });
    expect(read.problems).toEqual([]);
    expect(read.definitions.map((d) => `${d.file}[${d.index}]`)).toEqual(['a.permissions.json[0]', 'b.permissions.json[0]']);
    expect(read.resources.map((r) => r.resource)).toEqual(['doc']);
  });

  it('refuses a folder one byte past the limit, at the file that crosses it, before reading any file', () => {
    const dir = at('small');
    const bytes = writeSmallFolder(dir);
    const read = readDefinitionsFolder(dir, undefined, { maxFolderBytes: bytes - 1 });
    expect(read.definitions).toEqual([]);
    expect(read.resources).toEqual([]);
    expect(read.files).toEqual(['a.permissions.json', 'b.permissions.json', 'doc.resource.json']);
    expect(read.problems).toEqual([
      {
        file: 'doc.resource.json',
        line: 1,
        column: 1,
        path: [],
        code: 'too-large',
        message:
          `The definition and resource files hold more than the limit of ${bytes - 1} bytes together: ` +
          `the 3 files up to this one (of 3, in name order) hold ${bytes} bytes. Nothing was read.`,
        fix:
          'Make the policy smaller: grant several roles, resources or actions in one definition (role lists, `*`) ' +
          'instead of one definition per grant, or split it into several compiled policies.',
      },
    ]);
  });

  it('names the first file whose running total crosses the limit', () => {
    const dir = at('small');
    writeSmallFolder(dir);
    const first = statSync(join(dir, 'a.permissions.json')).size;
    const read = readDefinitionsFolder(dir, undefined, { maxFolderBytes: first });
    expect(read.problems.map((p) => [p.file, p.code])).toEqual([['b.permissions.json', 'too-large']]);
  });

  it('the command line refuses a folder past the default limit, exit 1, without reading it', async () => {
    const dir = at('huge', 'definitions');
    mkdirSync(dir, { recursive: true });
    // Sparse files: their size is what stat reports, they take no disk space, and their zeros are no JSON —
    // reading either would be a syntax error, not the refusal below.
    const half = MAX_DEFINITIONS_FOLDER_BYTES / 2;
    for (const [file, size] of [
      ['a.permissions.json', half],
      ['b.permissions.json', half + 1],
    ] as const) {
      writeFileSync(join(dir, file), '');
      truncateSync(join(dir, file), size);
    }
    const out = at('huge', 'generated');
    const { logs, errors, io } = collectIo();
    expect(await main(['compile', dir, '--out', out], io)).toBe(1);
    expect(logs).toEqual([]);
    expect(errors.join('\n')).toContain(
      'b.permissions.json:1:1 $ [too-large] The definition and resource files hold more than the limit of 67108864 bytes together: ' +
        'the 2 files up to this one (of 2, in name order) hold 67108865 bytes. Nothing was read.',
    );
  }, 30_000);
});
