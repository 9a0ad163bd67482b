/**
 * Every code block a user reads works as shown (README.md and docs/*.md). The documentation suites share the work,
 * so that jest runs them on both workers:
 *
 * - `sh` and `console` blocks run against the packed tarballs in a throwaway project outside this repository, each
 *   document in a terminal and a copy of the project of its own (test/docs/doc-checks.ts says how): README.md in
 *   docs-readme.test.ts, the guides {@link DOCUMENT_SUITES} names in their suites, and every other document here;
 * - `ts` blocks type-check with TypeScript 6 and with TypeScript 7 in docs-typescript.test.ts;
 * - `json` blocks parse (here);
 * - a block marked `<!-- example: examples/<project>/<file> -->` is that file of a project under examples/, whole and
 *   exact (here; the project's own test installs, builds, starts and asks it); it is not run or type-checked.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { repoRoot } from '../compiler/helpers.js';
import { docBlocks, userDocuments, type DocBlock } from './doc-blocks.js';
import { describeDocumentBlocks, DOCUMENT_SUITES, otherDocuments, where } from './doc-checks.js';

const documents = userDocuments(repoRoot);
const allBlocks: DocBlock[] = documents.flatMap((file) => docBlocks(repoRoot, file));
/** The blocks checked by the documentation suites; those that quote an example project are checked against its files instead. */
const blocks = allBlocks.filter((block) => block.example === undefined);

describe('the documentation’s code blocks', () => {
  it('are found: every user document has some, and every block is of a language the check knows', () => {
    expect(documents.length).toBeGreaterThan(5);
    const unknown = blocks.filter((block) => !['sh', 'ts', 'console', 'json', 'text', 'graphql', 'http', 'yaml'].includes(block.lang)).map(where);
    expect(unknown).toEqual([]);
  });

  it('blocks that quote an example project are its files, exactly', () => {
    const differences = allBlocks
      .filter((block) => block.example !== undefined)
      .flatMap((block) => {
        const path = join(repoRoot, block.example as string);
        const file = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
        return file?.trimEnd() === block.code.trimEnd()
          ? []
          : [`${where(block)} quotes ${block.example} ${file === undefined ? '(no such file)' : 'inexactly'}`];
      });
    expect(differences).toEqual([]);
  });

  it('json blocks parse', () => {
    const broken = blocks
      .filter((block) => block.lang === 'json')
      .flatMap((block) => {
        try {
          JSON.parse(block.code);
          return [];
        } catch (error) {
          return [`${where(block)}: ${(error as Error).message}`];
        }
      });
    expect(broken).toEqual([]);
  });

  it('every user document is run by exactly one documentation suite, and every suite DOCUMENT_SUITES names exists', () => {
    const named = Object.values(DOCUMENT_SUITES).flat();
    expect([...named, ...otherDocuments()].sort()).toEqual([...documents].sort());
    expect(Object.keys(DOCUMENT_SUITES).filter((file) => !readdirSync(join(repoRoot, 'test', 'docs')).includes(file))).toEqual([]);
  });
});

describe('the documents no other documentation suite runs', () => {
  describeDocumentBlocks(otherDocuments());
});
