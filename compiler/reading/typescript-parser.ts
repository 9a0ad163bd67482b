/**
 * TypeScript's parser (through ts-morph, which the emitter uses too), loaded when a `*.permissions.ts` file is first
 * read. Loading it takes most of a command's start (about 0.7 s of 1.2 s for `typed-permissions test`), and JSON
 * definitions never need it. The readers are synchronous, as the whole compile is, so it is required, not imported.
 */
import { createRequire } from 'node:module';
import type { ts } from 'ts-morph';

/** TypeScript's `ts` namespace, as {@link typescriptParser} loads it. */
export type TypeScript = typeof ts;

let loaded: TypeScript | undefined;

/**
 * The `ts` namespace of TypeScript, required once.
 *
 * @example
 * ```ts
 * const ts = typescriptParser();
 * const sourceFile = ts.createSourceFile('a.permissions.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
 * ```
 */
export function typescriptParser(): TypeScript {
  return (loaded ??= (createRequire(import.meta.url)('ts-morph') as { ts: TypeScript }).ts);
}
