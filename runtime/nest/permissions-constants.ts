/**
 * Injection tokens and request keys of the NestJS integration.
 */

/**
 * The injection token under which the application provides its ownership service: the object whose
 * methods the hook strings of the definitions name (`isOwner: 'isCreator'` → `ownership.isCreator`).
 * It may be provided in any module of the application; the permissions module looks it up across
 * the whole application at start.
 *
 * @example
 * ```ts
 * @Module({
 *   providers: [{ provide: PERMISSIONS_OWNERSHIP_SERVICE_TOKEN, useClass: DocumentOwnershipService }],
 * })
 * export class DocumentsModule {}
 * ```
 */
export const PERMISSIONS_OWNERSHIP_SERVICE_TOKEN = 'PERMISSIONS_OWNERSHIP_SERVICE_TOKEN';

/**
 * The request property under which the permissions guard stores the Permit it obtained. `@GetPermit()`
 * reads it; interceptors and filters may read it too. A symbol, so that it never collides with the
 * application's own request properties and never shows up in logged or serialised requests.
 *
 * @example
 * ```ts
 * const permit = (context.switchToHttp().getRequest() as Record<symbol, unknown>)[PERMIT_REQUEST_KEY];
 * ```
 */
export const PERMIT_REQUEST_KEY: unique symbol = Symbol('typed-permissions:permit');
