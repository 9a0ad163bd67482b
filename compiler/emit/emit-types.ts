/** Emits `types.ts`: the literal unions of roles, resources and actions, the id types, and the schema type. */
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
    file.addImportDeclaration({ isTypeOnly: true, moduleSpecifier: context.runtimeImport, namedImports: ['PermissionDefinition'] });
    file.addTypeAlias({ isExported: true, name: 'Role', type: literalUnion(tables.roles), docs: ['Every role named in the definitions.'] });
    file.addTypeAlias({ isExported: true, name: 'Resource', type: literalUnion(tables.resources), docs: ['Every resource named in the definitions.'] });
    file.addInterface({
      isExported: true,
      name: 'ResourceActions',
      docs: ['The actions granted on each resource (to at least one role). Any other action on that resource is a compile error.'],
      properties: tables.resources.map((resource) => ({ name: propertyName(resource), isReadonly: true, type: literalUnion(actionsOf(resource)) })),
    });
    file.addTypeAlias({
      isExported: true,
      name: 'ActionOf',
      typeParameters: [{ name: 'R', constraint: 'Resource' }],
      type: 'ResourceActions[R]',
      docs: ["The actions of one resource: `ActionOf<'document'>`."],
    });
    file.addTypeAlias({
      isExported: true,
      name: 'Action',
      type: literalUnion([...new Set(tables.resources.flatMap(actionsOf))].sort()),
      docs: ['Every action granted on some resource.'],
    });
    file.addInterface({
      isExported: true,
      name: 'ResourceIds',
      docs: ['The id type of each resource, from its `*.resource.json` metadata (`string | number` when undeclared).'],
      properties: tables.resources.map((resource) => ({
        name: propertyName(resource),
        isReadonly: true,
        type: resourceIdTypes.get(resource) ?? 'string | number',
      })),
    });
    file.addTypeAlias({
      isExported: true,
      name: 'ResourceIdOf',
      typeParameters: [{ name: 'R', constraint: 'Resource' }],
      type: 'ResourceIds[R]',
      docs: ['The id type of one resource.'],
    });
    const schemaResources = tables.resources.map((resource) => {
      const resourceLiteral = literalUnion([resource]);
      return `readonly ${propertyName(resource)}: { readonly actions: ActionOf<${resourceLiteral}>; readonly id: ResourceIdOf<${resourceLiteral}> }`;
    });
    file.addInterface({
      isExported: true,
      name: 'PermissionsSchemaOfDefinitions',
      docs: ['The schema that types `createPermissions().grantPermit`.'],
      properties: [
        {
          name: 'resources',
          isReadonly: true,
          type: `{ ${schemaResources.join('; ')} }`,
        },
      ],
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
