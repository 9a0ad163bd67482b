/**
 * `GET /me/permissions`: the caller's slice of the permissions, for the browser client. Who calls comes
 * from the `x-user-id` header, like everywhere in the example (no header: the anonymous user; an unknown
 * or malformed id: 401). No permission check: a user may always learn what they themselves may do.
 */
import { createHash } from 'node:crypto';
import { Controller, Get, Header, Req, Res } from '@nestjs/common';
import type { PermissionSlice } from '../../runtime/permissions/index.js';
import { PermissionsService } from '../../runtime/nest/index.js';
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
   * 200 with the slice (its ETag is the policy version and the caller's roles, so a page can revalidate cheaply and
   * tell when the policy changed); 304 when the caller's `If-None-Match` is still current; 401 for an unknown user.
   */
  @Get('permissions')
  @Header('Cache-Control', 'no-cache')
  @Header('Vary', 'x-user-id')
  async permissions(
    @Req() request: { headers: Record<string, string | string[] | undefined> },
    @Res({ passthrough: true }) response: SliceResponse,
  ): Promise<PermissionSlice | undefined> {
    const user = await userFromHeader(this.users)(request);
    const slice = this.permissionsService.permissions.sliceFor(user);
    // The version, and which roles the slice is of (another user's slice has another tag).
    const roles = createHash('sha256')
      .update(JSON.stringify([...new Set(user.roles)].sort()))
      .digest('hex')
      .slice(0, 16);
    const etag = `"${slice.version}.${roles}"`;
    response.setHeader('ETag', etag);
    response.setHeader('x-permissions-version', slice.version);
    if (request.headers['if-none-match'] === etag) {
      response.status(304);
      return undefined;
    }
    return slice;
  }
}
