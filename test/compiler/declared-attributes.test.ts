/**
 * `"attributes"` in a `*.resource.json`, through the compiler: the compiled tables (and the generated code's packed
 * tables) carry each resource's declared attributes, sorted and each once, null for a resource that declares none,
 * and no `attributes` at all when none declares any; a grant naming another attribute is an `unknown-attribute`
 * problem at the pattern, with the message and fix of the runtime's shared check.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compile } from '../../compiler/compile.js';
import { compileModel } from '../../compiler/model/compile-model.js';
import { formatCompileProblem } from '../../compiler/problems/compile-problem.js';
import type { GrantTables } from '../../runtime/permissions/index.js';
import { makeTempDir, removeTempDir, tablesFromGenerated } from './helpers.js';

const DEFINITIONS = `[
  { "roles": ["EDITOR"], "resource": "article", "grant": { "read:any": ["*", "!secret"], "update:any": ["title", "address.city"] } },
  { "roles": ["READER"], "resource": "note", "grant": { "read:any": ["*", "!anything"] } }
]
`;

describe('"attributes" of a *.resource.json', () => {
  let folder: string | undefined;
  beforeAll(() => {
    folder = makeTempDir('declared-attributes');
  });
  afterAll(() => removeTempDir(folder));

  /** Writes `definitions/` afresh: `article.permissions.json` (DEFINITIONS unless given) and, when given, `article.resource.json`. */
  const write = (metadata: string | undefined, definitions = DEFINITIONS): string => {
    const dir = join(folder as string, 'definitions');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    writeFileSync(join(dir, 'article.permissions.json'), definitions);
    if (metadata !== undefined) writeFileSync(join(dir, 'article.resource.json'), metadata);
    return dir;
  };
  const compiledTables = (dir: string): GrantTables => {
    const compiled = compileModel(dir);
    if (!compiled.ok) throw new Error(compiled.problems.map((problem) => formatCompileProblem(problem, 'definitions')).join('\n'));
    return compiled.model.tables;
  };
  const metadataWith = (attributes: string) => `{ "resource": "article", "idType": "number", "attributes": ${attributes} }`;

  it('a resource that declares attributes has them in the tables, sorted and each once; one that declares none has null', () => {
    const tables = compiledTables(write(metadataWith('["title", "secret", "id", "address.city", "title"]')));
    expect(tables.resources).toEqual(['article', 'note']);
    expect(tables.attributes).toEqual([['address.city', 'id', 'secret', 'title'], null]);
  });

  it('an empty declaration is kept as an empty list: the resource has no attribute a grant may name', () => {
    const tables = compiledTables(write(metadataWith('[]'), '[{ "roles": ["EDITOR"], "resource": "article", "grant": { "read:any": ["*"] } }]'));
    expect(tables.attributes).toEqual([[]]);
  });

  it('without any declared attributes the tables have no attributes, metadata file or not', () => {
    expect('attributes' in compiledTables(write('{ "resource": "article", "idType": "number" }'))).toBe(false);
    expect('attributes' in compiledTables(write(undefined))).toBe(false);
  });

  it("a grant naming an undeclared attribute is unknown-attribute at the pattern, with the shared check's message and fix", () => {
    const dir = write(metadataWith('["id", "title", "secret"]'));
    const compiled = compileModel(dir);
    expect(compiled.ok).toBe(false);
    expect(compiled.ok ? [] : compiled.problems.map((problem) => formatCompileProblem(problem, 'definitions'))).toEqual([
      'definitions/article.permissions.json:2:114 $[0].grant["update:any"][1] [unknown-attribute] Attribute "address.city" is not an attribute of ' +
        'article (declared: id, title, secret). Fix: Correct the spelling, or add it to "attributes" in article.resource.json.',
    ]);
  });

  it("the generated code's packed tables carry them, and its version is that of the tables with them", async () => {
    const dir = write(metadataWith('["title", "secret", "id", "address.city"]'));
    const outDir = join(folder as string, 'generated');
    const result = await compile({ definitionsDir: dir, outDir });
    expect(result.ok).toBe(true);
    const tables = tablesFromGenerated(join(outDir, 'tables.ts')) as GrantTables;
    expect(tables.attributes).toEqual([['address.city', 'id', 'secret', 'title'], null]);
    expect(tables).toEqual(compiledTables(dir));
  }, 60_000);
});
