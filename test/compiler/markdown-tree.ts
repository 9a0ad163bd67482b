/**
 * Reads generated Markdown the way a GFM renderer does (micromark + mdast, the parser behind
 * remark), so tests assert what a reader sees rather than what the text looks like.
 */
import type { Nodes, Root, Table } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';

/** Parses GFM Markdown into an mdast tree. */
export function parseGfm(markdown: string): Root {
  return fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

/** Every node of a tree, depth first. */
export function allNodes(tree: Nodes): Nodes[] {
  const nodes: Nodes[] = [];
  const stack: Nodes[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop() as Nodes;
    nodes.push(node);
    if ('children' in node) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as Nodes);
  }
  return nodes;
}

/** The plain text of a node: text and code as written, without raw HTML. */
export function plainText(node: Nodes): string {
  return toString(node, { includeHtml: false });
}

/**
 * The inline content of a node as tokens `type:value` (`text:: `, `code:*`, `strong:any`,
 * `html:<br>`), so a test can tell one code span holding `a b` from two spans `a` and `b`.
 */
export function inlineTokens(node: Nodes): string[] {
  if (!('children' in node)) return [`${node.type === 'inlineCode' ? 'code' : node.type}:${'value' in node ? node.value : ''}`];
  const tokens: string[] = [];
  for (const child of node.children) {
    if (child.type === 'text' || child.type === 'inlineCode' || child.type === 'html') tokens.push(...inlineTokens(child));
    else tokens.push(`${child.type}:${plainText(child)}`);
  }
  return tokens;
}

/** A table as rows of cells (the header row first), each cell as its node. */
export function tableCells(table: Table): Nodes[][] {
  return table.children.map((row) => row.children);
}
