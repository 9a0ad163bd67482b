/** Emits `ownership.ts`: the interface the application's ownership service implements, one method per hook name. */
import type { HookMethod } from '../model/hook-methods.js';
import { emitTypeScript, type EmitContext, type EmittedFile } from './emit-context.js';

/** What every hook's documentation says of `tenant`. */
const TENANT_DOC = '`tenant` is the tenant the permit was decided in, present only when the grant query named one.';

function signature(method: HookMethod): { argsType: string; returnType: string; doc: string } {
  switch (method.kind) {
    case 'isOwner':
      return {
        argsType: `{ readonly user: TUser; readonly tenant?: string; readonly resourceId: ${method.idType} }`,
        returnType: 'Awaitable<boolean>',
        doc: `isOwner hook: does \`user\` own the record \`resourceId\`? ${TENANT_DOC}`,
      };
    case 'listOwned':
      return {
        argsType: '{ readonly user: TUser; readonly tenant?: string }',
        returnType: `Awaitable<readonly (${method.idType})[]>`,
        doc: `listOwned hook: the ids of the records \`user\` owns. ${TENANT_DOC}`,
      };
    case 'limitOwned':
      return {
        argsType: '{ readonly user: TUser; readonly tenant?: string }',
        returnType: 'TFilter',
        doc: `limitOwned hook: configures (never executes) a filter of the records \`user\` owns. ${TENANT_DOC}`,
      };
    case 'ownedAmong':
      return {
        argsType: `{ readonly user: TUser; readonly tenant?: string; readonly filter: TFilter; readonly resourceIds: readonly (${method.idType})[] }`,
        returnType: `Awaitable<readonly (${method.idType})[]>`,
        doc:
          'ownedAmong executor: runs `filter` (what a limitOwned hook returned) over the records `resourceIds` and returns the ids that match, ' +
          `in one query. Its filter type is the limitOwned hooks' (TFilter), so the two must agree. ${TENANT_DOC}`,
      };
  }
}

/**
 * @example
 * ```ts
 * const file = await emitOwnership(context); // export interface PermissionsOwnershipService<TUser, TFilter> { isCreator(…): Awaitable<boolean>; … }
 * ```
 */
export function emitOwnership(context: EmitContext): Promise<EmittedFile> {
  const { hookMethods } = context.model;
  // Only what the methods use is imported or named: consumers compile generated code with noUnusedLocals and noUnusedParameters.
  const usesAwaitable = hookMethods.some((method) => method.kind !== 'limitOwned');
  const unusedTypeParameters = [
    ...(hookMethods.length === 0 ? ['TUser'] : []),
    ...(hookMethods.some((method) => method.kind === 'limitOwned' || method.kind === 'ownedAmong') ? [] : ['TFilter']),
  ];
  return emitTypeScript(context, 'ownership.ts', (file) => {
    file.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: context.runtimeImport, namedImports: [...(usesAwaitable ? ['Awaitable'] : []), 'User'] });
    file.addInterface({
      isExported: true,
      name: 'PermissionsOwnershipService',
      typeParameters: [
        { name: 'TUser', constraint: 'User<unknown>', default: 'User' },
        { name: 'TFilter', default: 'unknown' },
      ],
      // Both type parameters stay (consumers write PermissionsOwnershipService<AppUser, Filter> whatever the definitions hold);
      // when no method uses one, this member-less base names it.
      extends:
        unusedTypeParameters.length === 0
          ? []
          : [`Record<never, ${unusedTypeParameters.length === 1 ? unusedTypeParameters[0] : `[${unusedTypeParameters.join(', ')}]`}>`],
      docs: [
        'The methods that the hook strings of the definitions name. ' +
          'Implement it in the application, next to its data layer; a missing method is a compile error.',
      ],
      methods: hookMethods.map((method) => {
        const { argsType, returnType, doc } = signature(method);
        return { name: method.name, parameters: [{ name: 'args', type: argsType }], returnType, docs: [doc] };
      }),
    });
    if (context.model.ruleUserAttributes.length > 0)
      file.addInterface({
        isExported: true,
        name: 'PermissionsRuleUser',
        docs: [
          "The user's attributes that the ownership rules read (declared in `userAttributes` of the resource files): " +
            'every user the application asks about must carry them; null where it has no value.',
        ],
        properties: context.model.ruleUserAttributes.map(([name, type]) => ({
          name,
          isReadonly: true,
          type: type.endsWith('[]') ? `readonly ${type.slice(0, -2)}[] | null` : `${type} | null`,
        })),
      });
  });
}
