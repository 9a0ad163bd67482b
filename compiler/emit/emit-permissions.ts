/** Emits `permissions.ts`: `createPermissions`, typed by the schema and the ownership interface. */
import { emitTypeScript, type EmitContext, type EmittedFile } from './emit-context.js';

/**
 * @example
 * ```ts
 * const file = await emitPermissions(context); // export function createPermissions(options) { … }
 * ```
 */
export function emitPermissions(context: EmitContext): Promise<EmittedFile> {
  const rules = context.model.ruleUserAttributes.length > 0;
  const hooks = context.model.hookMethods.length > 0;
  // A policy whose ownership is only rules needs no ownership service; its users carry what the rules read.
  const userType = rules ? 'User<unknown> & PermissionsRuleUser' : 'User<unknown>';
  const options = rules
    ? `Omit<TypedPermissionsOptions<PermissionsOwnershipService<TUser, TFilter>, TUser, TFilter>, 'ownership'> & {\n` +
      `  readonly ownership${hooks ? '' : '?'}: PermissionsOwnershipService<TUser, TFilter>;\n` +
      '  readonly ownershipRules: OwnershipRuleSource<TFilter>;\n}'
    : 'TypedPermissionsOptions<PermissionsOwnershipService<TUser, TFilter>, TUser, TFilter>';
  return emitTypeScript(context, 'permissions.ts', (file) => {
    file.addImportDeclaration({
      moduleSpecifier: context.runtimeImport,
      namedImports: [
        'permissionsFromTables',
        ...(rules ? [{ name: 'OwnershipRuleSource', isTypeOnly: true }] : []),
        { name: 'TypedPermissions', isTypeOnly: true },
        { name: 'TypedPermissionsOptions', isTypeOnly: true },
        { name: 'User', isTypeOnly: true },
      ],
    });
    file.addImportDeclaration({
      isTypeOnly: true,
      moduleSpecifier: './ownership.js',
      namedImports: ['PermissionsOwnershipService', ...(rules ? ['PermissionsRuleUser'] : [])],
    });
    file.addImportDeclaration({ moduleSpecifier: './tables.js', namedImports: ['grantTables', 'policyVersion'] });
    file.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: './types.js', namedImports: ['Schema'] });
    file.addTypeAlias({
      isExported: true,
      name: 'CreatePermissionsOptions',
      typeParameters: [{ name: 'TUser', constraint: userType }, { name: 'TFilter' }],
      type: options,
      docs: [
        rules
          ? `Options of \`createPermissions\`: the source of the records the ownership rules read` +
            `${hooks ? ', and the ownership service, which must implement every hook method' : ''}.`
          : 'Options of `createPermissions`: the ownership service must implement every hook method.',
      ],
    });
    const example = rules
      ? 'const permissions = createPermissions({ ownershipRules: memoryOwnership({ document: documents, user: users }) });\n'
      : 'const permissions = createPermissions({ ownership: new DocumentOwnershipService(db) });\n';
    file.addFunction({
      isExported: true,
      name: 'createPermissions',
      typeParameters: [
        { name: 'TUser', constraint: userType, default: rules ? 'User & PermissionsRuleUser' : 'User' },
        { name: 'TFilter', default: 'unknown' },
      ],
      parameters: [{ name: 'options', type: 'CreatePermissionsOptions<TUser, TFilter>' }],
      returnType: 'TypedPermissions<Schema, TUser, TFilter>',
      docs: [
        'Loads the precomputed tables (nothing is rebuilt) and binds the hook names to `options.ownership`' +
          `${rules ? ' and the ownership rules to `options.ownershipRules`' : ''}: the engine, typed by \`Schema\`.\n\n` +
          '@example\n' +
          '```ts\n' +
          example +
          "const permit = await permissions.grantPermit({ user, resource: 'document', action: 'read', resourceId: 3 });\n" +
          '```',
      ],
      statements: 'return permissionsFromTables<TUser, TFilter>({ format: 1, version: policyVersion, tables: grantTables }, options).typed<Schema>();',
    });
  });
}
