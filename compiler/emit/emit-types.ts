/** Emits `types.ts`: the literal unions of roles, resources and actions, and the one schema type (actions and id type per resource). */
import { emitTypeScript, literalUnion, propertyName, type EmitContext, type EmittedFile } from './emit-context.js';

/**
 * @example
 * ```ts
 * const file = await emitTypes(context); // export type Role = 'COMPANY_ADMIN' | 'EMPLOYEE' | …
 * ```
 */
export function emitTypes(context: EmitContext): Promise<EmittedFile> {
  const { tables, resourceActions, resourceIdTypes } = context.model;
  const actionsOf = (resource: string) => resourceActions.get(resource) ?? [];
  return emitTypeScript(context, 'types.ts', (file) => {
    file.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: context.runtimeImport, namedImports: ['PermissionDefinition', 'User'] });
    file.addTypeAlias({ isExported: true, name: 'Role', type: literalUnion(tables.roles), docs: ['Every role named in the definitions.'] });
    file.addTypeAlias({
      isExported: true,
      name: 'PolicyUser',
      typeParameters: [{ name: 'TId', default: 'string | number' }],
      type: 'User<TId, Role>',
      docs: [
        "A user whose roles are the definitions' roles: a misspelt role is a compile error, and TypeScript names the role " +
          "meant (`roles: ['EDITRO']`: Did you mean '\"EDITOR\"'?). Extend it with your users' fields: " +
          '`interface AppUser extends PolicyUser<number> { readonly name: string }`. Where roles are data that changes ' +
          "while the application runs (a live policy that adds roles), use typed-permissions' `User` instead.",
      ],
    });
    file.addTypeAlias({ isExported: true, name: 'Resource', type: literalUnion(tables.resources), docs: ['Every resource named in the definitions.'] });
    const schemaResources = tables.resources.map((resource) => {
      const id = resourceIdTypes.get(resource) ?? 'string | number';
      return `readonly ${propertyName(resource)}: { readonly actions: ${literalUnion(actionsOf(resource))}; readonly id: ${id} }`;
    });
    file.addInterface({
      isExported: true,
      name: 'Schema',
      docs: [
        'The schema of the definitions: per resource, its actions (those its `*.resource.json` declares, else those granted on it to at ' +
          'least one role; any other action is a compile error) and its id type (from its `*.resource.json`; `string | number` when ' +
          'undeclared). It types `createPermissions`, the NestJS ' +
          "decorators (`typedPermissions<Schema>()`), express's `permit()` and the browser client (`createClient<Schema>(slice)`).",
      ],
      properties: [{ name: 'resources', isReadonly: true, type: `{ ${schemaResources.join('; ')} }` }],
    });
    file.addTypeAlias({
      isExported: true,
      name: 'ActionOf',
      typeParameters: [{ name: 'R', constraint: 'Resource' }],
      type: "Schema['resources'][R]['actions']",
      docs: ["The actions of one resource: `ActionOf<'document'>`."],
    });
    file.addTypeAlias({
      isExported: true,
      name: 'Action',
      type: literalUnion([...new Set(tables.resources.flatMap(actionsOf))].sort()),
      docs: ['Every action of some resource.'],
    });
    file.addTypeAlias({
      isExported: true,
      name: 'ResourceIdOf',
      typeParameters: [{ name: 'R', constraint: 'Resource' }],
      type: "Schema['resources'][R]['id']",
      docs: ["The id type of one resource: `ResourceIdOf<'document'>`."],
    });
    const { computableResources } = context.model;
    file.addTypeAlias({
      isExported: true,
      name: 'ComputableResource',
      // '*' covers every resource: it is computable only when every one of them is.
      type: literalUnion(
        computableResources.length > 0 && computableResources.length === tables.resources.length ? [...computableResources, '*'] : computableResources,
      ),
      docs: ['The resources whose ownership can be computed from limitOwned (their `*.resource.json` declares ownedAmong): there, isOwner is optional.'],
    });
    file.addTypeAlias({
      isExported: true,
      name: 'KnownPermissionDefinition',
      typeParameters: [
        { name: 'TUser', default: 'any' },
        { name: 'TId', default: 'any' },
        { name: 'TFilter', default: 'any' },
      ],
      type: 'PermissionDefinition<Role, Resource, Action, TUser, TId, TFilter, ComputableResource>',
      docs: [
        'A PermissionDefinition restricted to the names the definitions already use (for definitions written in code). ' +
          'limitOwned without isOwner compiles only for the resources that declare an ownedAmong executor.',
      ],
    });
  });
}
