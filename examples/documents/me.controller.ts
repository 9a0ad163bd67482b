/**
 * `GET /me/permissions`: the caller's slice of the permissions, for the browser client. Who calls comes
 * from the `x-user-id` header, like everywhere in the example (no header: the anonymous user; an unknown
 * or malformed id: 401). No permission check: a user may always learn what they themselves may do. The slice is
 * the caller's in the tenant of their company (with its custom roles); a user of no company gets the compiled
 * policy's slice.
 */
import { createHash } from 'node:crypto';
import { Controller, Get, Header, Req, Res, ServiceUnavailableException } from '@nestjs/common';
import { PermissionsTenantRolesError, type PermissionSlice } from '../../runtime/permissions/precompiled.js';
import { PermissionsService } from '../../runtime/nest/index.js';
import { tenantOfUser } from './app-user.js';
import { userFromHeader } from './extract-user.js';
import { UsersRepository } from './users.repository.js';

/** The parts of the response the controller sets. */
interface SliceResponse {
  setHeader(name: string, value: string): unknown;
  status(code: number): unknown;
}

/**
 * @example
 * ```sh
 * curl -H 'x-user-id: 1' http://127.0.0.1:3000/me/permissions
 * # {"format":1,"version":"…","plans":[…],"grants":[["document",[["create",-1,1,[0,0],[0]],…]]]}
 * ```
 */
@Controller('me')
export class MeController {
  constructor(
    private readonly permissionsService: PermissionsService,
    private readonly users: UsersRepository,
  ) {}

  /**
   * 200 with the slice (its ETag is the policy version and a hash of the slice, so a page can revalidate cheaply
   * and a custom role published in the caller's tenant changes it); 304 when the caller's `If-None-Match` is still
   * current; 401 for an unknown user; 503 when the custom roles of the caller's tenant cannot be read now. The
   * `x-permissions-tenant` header names the tenant the slice is of (none: no tenant).
   */
  @Get('permissions')
  @Header('Cache-Control', 'no-cache')
  @Header('Vary', 'x-user-id')
  async permissions(
    @Req() request: { headers: Record<string, string | string[] | undefined> },
    @Res({ passthrough: true }) response: SliceResponse,
  ): Promise<PermissionSlice | undefined> {
    const user = await userFromHeader(this.users)(request);
    const tenant = tenantOfUser(user);
    const permissions = this.permissionsService.permissions;
    try {
      // A slice is cut synchronously: the tenant's custom roles are read first (at once when they are kept).
      if (tenant !== undefined) await permissions.loadTenant(tenant);
    } catch (error) {
      if (error instanceof PermissionsTenantRolesError)
        throw new ServiceUnavailableException(`The custom roles of company ${tenant} cannot be read now; try again.`);
      throw error;
    }
    const slice = permissions.sliceFor(user, { tenant });
    // A tenant's custom roles change its slices without a new policy version: the tag hashes what the slice grants.
    const grants = createHash('sha256').update(JSON.stringify(slice)).digest('hex').slice(0, 16);
    const etag = `"${slice.version}.${grants}"`;
    response.setHeader('ETag', etag);
    response.setHeader('x-permissions-version', slice.version);
    if (tenant !== undefined) response.setHeader('x-permissions-tenant', tenant);
    if (request.headers['if-none-match'] === etag) {
      response.status(304);
      return undefined;
    }
    return slice;
  }
}
