/** Emits `permissions.ts`: `createPermissions`, typed by the schema and the ownership interface. */
import { emitTypeScript, type EmitContext, type EmittedFile } from './emit-context.js';

/**
 * @example
 * ```ts
 * const file = await emitPermissions(context); // export function createPermissions(options) { … }
 * ```
 */
export function emitPermissions(context: EmitContext): Promise<EmittedFile> {
  return emitTypeScript(context, 'permissions.ts', (file) => {
    file.addImportDeclaration({
      moduleSpecifier: context.runtimeImport,
      namedImports: [
        'permissionsFromTables',
        { name: 'TypedPermissions', isTypeOnly: true },
        { name: 'TypedPermissionsOptions', isTypeOnly: true },
        { name: 'User', isTypeOnly: true },
      ],
    });
    file.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: './ownership.js', namedImports: ['PermissionsOwnershipService'] });
    file.addImportDeclaration({ moduleSpecifier: './tables.js', namedImports: ['grantTables', 'policyVersion'] });
    file.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: './types.js', namedImports: ['Schema'] });
    file.addTypeAlias({
      isExported: true,
      name: 'CreatePermissionsOptions',
      typeParameters: [{ name: 'TUser', constraint: 'User<unknown>' }, { name: 'TFilter' }],
      type: 'TypedPermissionsOptions<PermissionsOwnershipService<TUser, TFilter>, TUser, TFilter>',
      docs: ['Options of `createPermissions`: the ownership service must implement every hook method.'],
    });
    file.addFunction({
      isExported: true,
      name: 'createPermissions',
      typeParameters: [
        { name: 'TUser', constraint: 'User<unknown>', default: 'User' },
        { name: 'TFilter', default: 'unknown' },
      ],
      parameters: [{ name: 'options', type: 'CreatePermissionsOptions<TUser, TFilter>' }],
      returnType: 'TypedPermissions<Schema, TUser, TFilter>',
      docs: [
        'Loads the precomputed tables (nothing is rebuilt) and binds the hook names to `options.ownership`: the engine, typed by `Schema`.\n\n' +
          '@example\n' +
          '```ts\n' +
          'const permissions = createPermissions({ ownership: new DocumentOwnershipService(db) });\n' +
          "const permit = await permissions.grantPermit({ user, resource: 'document', action: 'read', resourceId: 3 });\n" +
          '```',
      ],
      statements: 'return permissionsFromTables<TUser, TFilter>({ format: 1, version: policyVersion, tables: grantTables }, options).typed<Schema>();',
    });
  });
}
