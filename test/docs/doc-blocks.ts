/**
 * The code blocks of the user documentation (README.md and docs/*.md), read with mdast: each with its language,
 * the file and line it starts on, and what an HTML comment right before it says (invisible when the Markdown is
 * rendered): `<!-- context: … -->`, declarations a fragment relies on, or `<!-- example: examples/express/src/app.ts -->`,
 * the file of a project under examples/ that the block quotes whole (that project's own test installs, builds and
 * runs it; the documentation test checks the quote is exact).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RootContent } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';

/** One fenced code block. */
export interface DocBlock {
  /** The document, relative to the repository: `docs/nestjs.md`. */
  readonly file: string;
  /** The line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  readonly code: string;
  /** The text of a `<!-- context: … -->` comment on the line before the fence, or ''. */
  readonly context: string;
  /** The path of an `<!-- example: … -->` comment on the line before the fence (relative to the repository), or undefined. */
  readonly example: string | undefined;
}

const CONTEXT = /^<!--\s*context:([\s\S]*?)-->$/;
const EXAMPLE = /^<!--\s*example:\s*(examples\/[^\s]+)\s*-->$/;

/**
 * The code blocks of one Markdown document, in order.
 *
 * @example
 * ```ts
 * docBlocks(repoRoot, 'README.md').filter((block) => block.lang === 'ts');
 * ```
 */
export function docBlocks(root: string, file: string): DocBlock[] {
  const tree = fromMarkdown(readFileSync(join(root, file), 'utf8'));
  const blocks: DocBlock[] = [];
  let previous: RootContent | undefined;
  for (const node of tree.children) {
    if (node.type === 'code') {
      const code = node;
      const html = previous?.type === 'html' ? previous.value.trim() : '';
      const comment = CONTEXT.exec(html);
      const example = EXAMPLE.exec(html);
      const adjacent = previous?.position !== undefined && code.position !== undefined && code.position.start.line - previous.position.end.line === 1;
      blocks.push({
        file,
        line: code.position?.start.line ?? 0,
        lang: code.lang ?? '',
        code: code.value,
        context: comment !== null && adjacent ? (comment[1] ?? '').trim() : '',
        example: example !== null && adjacent ? example[1] : undefined,
      });
    }
    previous = node;
  }
  return blocks;
}

/**
 * The documents users read: README.md and every docs/*.md (CONTRIBUTING.md is about this repository, not for users).
 *
 * @example
 * ```ts
 * userDocuments(repoRoot); // ['README.md', 'docs/README.md', 'docs/decision-log.md', …]
 * ```
 */
export function userDocuments(root: string): string[] {
  const guides = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...guides];
}

/** A `console` block: each command (after `$ `) with the output the document shows for it. */
export interface ConsoleStep {
  readonly command: string;
  readonly output: string;
}

/**
 * The commands and shown outputs of a `console` block.
 *
 * @example
 * ```ts
 * consoleSteps('$ echo hi\nhi'); // [{ command: 'echo hi', output: 'hi' }]
 * ```
 */
export function consoleSteps(code: string): ConsoleStep[] {
  const steps: { command: string; output: string[] }[] = [];
  for (const line of code.split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), output: [] });
    else steps[steps.length - 1]?.output.push(line);
  }
  return steps.map((step) => ({ command: step.command, output: step.output.join('\n').trimEnd() }));
}

/**
 * Output as the documents show it: policy versions (64 hexadecimal digits) as `<version>`, durations as `<ms>`,
 * trailing spaces and blank lines at the end dropped.
 *
 * @example
 * ```ts
 * shownOutput('wrote 1 file in 325 ms'); // 'wrote 1 file in <ms> ms'
 * ```
 */
export function shownOutput(text: string): string {
  return text
    .replace(/\b[0-9a-f]{64}\b/g, '<version>')
    .replace(/\bin \d+(?:\.\d+)? ms\b/g, 'in <ms> ms')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .trimEnd();
}
