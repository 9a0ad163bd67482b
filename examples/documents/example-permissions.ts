/** The typed Nest helpers of the example app, bound to the generated resource actions: an undeclared resource or action does not compile. */
import type { Schema } from '../../generated/index.js';
import { typedPermissions } from '../../runtime/nest/index.js';

export const { createPermissionsGuard, Action, Permission } = typedPermissions<Schema>();

/** The guard of the document controllers: resource `document`, id from the `id` path parameter. */
export const DocumentsGuard = createPermissionsGuard({ resource: 'document' });
