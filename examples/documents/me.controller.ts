/**
 * `GET /me/permissions`: the caller's slice of the permissions, for the browser client. Who calls comes
 * from the `x-user-id` header, like everywhere in the example (no header: the anonymous user; an unknown
 * or malformed id: 401). No permission check: a user may always learn what they themselves may do.
 */
import { Controller, Get, Header, Req } from '@nestjs/common';
import type { PermissionSlice } from '../../runtime/core/index.js';
import { PermissionsService } from '../../runtime/nest/index.js';
import { userFromHeader } from './extract-user.js';
import { UsersRepository } from './users.repository.js';

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

  /** 200 with the slice; 401 for an unknown user. Never cached by the browser: it changes with the user's roles. */
  @Get('permissions')
  @Header('Cache-Control', 'no-store')
  async permissions(@Req() request: unknown): Promise<PermissionSlice> {
    const user = await userFromHeader(this.users)(request);
    return this.permissionsService.permissions.sliceFor(user);
  }
}
