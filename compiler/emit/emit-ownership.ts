/** Emits `ownership.ts`: the interface the application's ownership service implements, one method per hook name. */
import type { HookMethod } from '../compile-model.js';
import { emitTypeScript, type EmitContext, type EmittedFile } from './emit-context.js';

function signature(method: HookMethod): { argsType: string; returnType: string; doc: string } {
  switch (method.kind) {
    case 'isOwner':
      return { argsType: `{ readonly user: TUser; readonly resourceId: ${method.idType} }`, returnType: 'Awaitable<boolean>', doc: 'isOwner hook: does `user` own the record `resourceId`?' };
    case 'listOwned':
      return { argsType: '{ readonly user: TUser }', returnType: `Awaitable<readonly (${method.idType})[]>`, doc: 'listOwned hook: the ids of the records `user` owns.' };
    case 'limitOwned':
      return { argsType: '{ readonly user: TUser }', returnType: 'TFilter', doc: 'limitOwned hook: configures (never executes) a filter of the records `user` owns.' };
  }
}

/**
 * @example
 * ```ts
 * const file = await emitOwnership(context); // export interface PermissionsOwnershipService<TUser, TFilter> { isCreator(…): Awaitable<boolean>; … }
 * ```
 */
export function emitOwnership(context: EmitContext): Promise<EmittedFile> {
  return emitTypeScript(context, 'ownership.ts', (file) => {
    file.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: context.runtimeImport, namedImports: ['Awaitable', 'User'] });
    file.addInterface({
      isExported: true,
      name: 'PermissionsOwnershipService',
      typeParameters: [{ name: 'TUser', constraint: 'User<unknown>', default: 'User' }, { name: 'TFilter', default: 'unknown' }],
      docs: ['The methods that the hook strings of the definitions name. Implement it in the application, next to its data layer; a missing method is a compile error.'],
      methods: context.model.hookMethods.map((method) => {
        const { argsType, returnType, doc } = signature(method);
        return { name: method.name, parameters: [{ name: 'args', type: argsType }], returnType, docs: [doc] };
      }),
    });
  });
}
