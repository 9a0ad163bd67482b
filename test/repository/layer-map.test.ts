/**
 * The map of the runtime's layers in CONTRIBUTING.md is the one dependency-cruiser checks: the same layers in the
 * same order with the same folders as `.dependency-cruiser.mjs`, and together they cover every folder of the
 * runtime's sources exactly once — a new folder must be placed on the map (and in the rules) before it can exist.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Layer {
  readonly name: string;
  readonly folders: readonly string[];
}

/** The rows of the table under `### Layers` in CONTRIBUTING.md: the layer's name and its folders (code spans). */
function mapOfContributing(): Layer[] {
  const text = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
  const start = text.indexOf('\n### Layers\n');
  if (start === -1) throw new Error('CONTRIBUTING.md has no "### Layers" section');
  const section = text.slice(start + 1, text.indexOf('\n#', start + 2));
  const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Layer |') && !line.startsWith('| ---'));
  return rows.map((row) => {
    const [name = '', folders = ''] = row
      .split('|')
      .slice(1)
      .map((cell) => cell.trim());
    return { name, folders: [...folders.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string) };
  });
}

/** Every folder under runtime/ that holds TypeScript sources (built output and packages left out). */
function sourceFolders(dir = join(root, 'runtime')): string[] {
  const entries = readdirSync(dir, { withFileTypes: true });
  const here = entries.some((entry) => entry.isFile() && entry.name.endsWith('.ts')) ? [relative(root, dir)] : [];
  return [
    ...here,
    ...entries
      .filter((entry) => entry.isDirectory() && !['dist', 'node_modules'].includes(entry.name))
      .flatMap((entry) => sourceFolders(join(dir, entry.name))),
  ];
}

describe("the map of the runtime's layers", () => {
  it('CONTRIBUTING.md shows the layers of .dependency-cruiser.mjs, in order, with the same folders', async () => {
    const config = ((await import(pathToFileURL(join(root, '.dependency-cruiser.mjs')).href)) as { default: { layers: { LAYERS: Layer[] } } }).default;
    const map = mapOfContributing();
    expect(map.length).toBeGreaterThan(0);
    expect(map).toEqual(config.layers.LAYERS.map(({ name, folders }) => ({ name, folders: [...folders] })));
  });

  it("every folder of the runtime is in exactly one layer (a sub-folder in its folder's), and every listed folder exists", () => {
    const listed = mapOfContributing().flatMap((layer) => layer.folders);
    const folders = sourceFolders();
    const owners = (folder: string) => listed.filter((one) => folder === one || folder.startsWith(`${one}/`));
    expect(folders.filter((folder) => owners(folder).length !== 1)).toEqual([]);
    expect(listed.filter((folder) => !folders.includes(folder))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it("every folder and root file of the compiler is in exactly one of the compiler's layers, and CONTRIBUTING.md lists each", async () => {
    const config = ((await import(pathToFileURL(join(root, '.dependency-cruiser.mjs')).href)) as { default: { layers: { COMPILER_LAYERS: Layer[] } } }).default;
    const listed = config.layers.COMPILER_LAYERS.flatMap((layer) => layer.folders);
    const compiler = readdirSync(join(root, 'compiler'), { withFileTypes: true })
      .filter((entry) => (entry.isDirectory() && !['dist', 'node_modules'].includes(entry.name)) || entry.name.endsWith('.ts'))
      .map((entry) => `compiler/${entry.name}`)
      .sort();
    expect([...listed].sort()).toEqual(compiler);
    // The map's compiler block: from its line `compiler/` to the next top-level line; a folder is written `name/`.
    const contributing = readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8');
    const block = contributing.slice(contributing.indexOf('\ncompiler/ '), contributing.indexOf('\nruntime/ '));
    const shown = (path: string) => new RegExp(`[ ,]${path.slice('compiler/'.length).replace('.', '\\.')}${path.endsWith('.ts') ? '' : '/'}[ ,]`).test(block);
    expect(listed.filter((path) => !shown(path))).toEqual([]);
  });
});
