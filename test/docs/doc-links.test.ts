/**
 * The documentation's links lead somewhere: docs/README.md, the index of the guides, lists every guide, and every
 * relative link or image in the documents a reader opens (README.md, CONTRIBUTING.md, BENCHMARKS.md, docs/*.md and
 * the examples' READMEs) names a file of the repository and, with `#`, a heading of that file as GitHub makes its
 * anchor.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import GithubSlugger from 'github-slugger';
import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { toString } from 'mdast-util-to-string';
import { repoRoot } from '../compiler/helpers.js';
import { userDocuments } from './doc-blocks.js';

/** The documents a reader opens, relative to the repository. */
function readDocuments(): string[] {
  const examples = readdirSync(join(repoRoot, 'examples'))
    .map((name) => `examples/${name}/README.md`)
    .filter((path) => existsSync(join(repoRoot, path)));
  return [...userDocuments(repoRoot), 'CONTRIBUTING.md', 'BENCHMARKS.md', ...examples.sort()];
}

/** Every node of `tree`, depth first. */
function* nodesOf(tree: Nodes): Generator<Nodes> {
  yield tree;
  if ('children' in tree) for (const child of tree.children) yield* nodesOf(child);
}

/** The link and image targets of a Markdown document, with their lines. */
function targetsOf(markdown: string): { readonly url: string; readonly line: number }[] {
  return [...nodesOf(fromMarkdown(markdown))].flatMap((node) =>
    node.type === 'link' || node.type === 'image' || node.type === 'definition' ? [{ url: node.url, line: node.position?.start.line ?? 0 }] : [],
  );
}

const anchors = new Map<string, Set<string>>();

/** The anchors GitHub gives the headings of the Markdown document `path` (read once). */
function anchorsOf(path: string): Set<string> {
  let found = anchors.get(path);
  if (found === undefined) {
    const slugger = new GithubSlugger();
    const tree = fromMarkdown(readFileSync(join(repoRoot, path), 'utf8'));
    found = new Set([...nodesOf(tree)].flatMap((node) => (node.type === 'heading' ? [slugger.slug(toString(node))] : [])));
    anchors.set(path, found);
  }
  return found;
}

/** What is wrong with a relative link `url` of `document`, or undefined when it leads to a file (and heading) of the repository. */
function brokenLink(document: string, url: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return undefined;
  const [path = '', anchor] = url.split('#');
  const target = path === '' ? document : normalize(join(dirname(document), decodeURIComponent(path)));
  if (target.startsWith('..') || !existsSync(join(repoRoot, target))) return `${target} does not exist`;
  if (anchor === undefined || !target.endsWith('.md')) return undefined;
  return anchorsOf(target).has(anchor) ? undefined : `${target} has no heading #${anchor}`;
}

describe('the documentation’s links', () => {
  it('docs/README.md lists every guide of docs/', () => {
    const index = readFileSync(join(repoRoot, 'docs', 'README.md'), 'utf8');
    const listed = new Set(targetsOf(index).map((target) => target.url.split('#')[0]));
    const guides = userDocuments(repoRoot)
      .filter((path) => path.startsWith('docs/') && path !== 'docs/README.md')
      .map((path) => path.slice('docs/'.length));
    expect(guides.length).toBeGreaterThanOrEqual(20);
    expect(guides.filter((guide) => !listed.has(guide))).toEqual([]);
  });

  it('every relative link and image leads to a file of the repository, and an anchor to one of its headings', () => {
    const broken = readDocuments().flatMap((document) =>
      targetsOf(readFileSync(join(repoRoot, document), 'utf8')).flatMap(({ url, line }) => {
        const problem = brokenLink(document, url);
        return problem === undefined ? [] : [`${document}:${line} (${url}): ${problem}`];
      }),
    );
    expect(broken).toEqual([]);
  });
});
