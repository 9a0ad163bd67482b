/** Emits `index.ts`, the entry file: everything the other emitted modules export. */
import { emitTypeScript, type EmitContext, type EmittedFile } from './emit-context.js';

/**
 * @example
 * ```ts
 * const file = await emitIndex(context, ['ownership.ts', 'permissions.ts', 'tables.ts', 'types.ts']);
 * ```
 */
export function emitIndex(context: EmitContext, modules: readonly string[]): Promise<EmittedFile> {
  return emitTypeScript(context, 'index.ts', (file) => {
    for (const module of [...modules].sort()) file.addExportDeclaration({ moduleSpecifier: `./${module.replace(/\.ts$/, '.js')}` });
  });
}
