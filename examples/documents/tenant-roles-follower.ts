/**
 * Follows the tenants' custom roles while the app runs: each company is a tenant, and the roles it defines for
 * itself (published with `npx typed-permissions tenant publish`) take effect in that company without a restart.
 */
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PermissionsService } from '../../runtime/nest/index.js';
import type { FollowedTenantRoles } from '../../runtime/permissions/precompiled.js';
import type { TenantRolesSource } from '../../runtime/live/index.js';

/** The Nest injection token of the example's source of tenants' custom roles (a `TenantRolesSource`, or undefined for none). */
export const TENANT_ROLES_SOURCE = 'TENANT_ROLES_SOURCE';

/**
 * Starts following the source when the app has started, and stops when it closes. Without a source, questions in
 * a tenant use the compiled policy's roles only.
 *
 * @example
 * ```ts
 * @Module({ providers: [TenantRolesFollower, { provide: TENANT_ROLES_SOURCE, useValue: fileTenantRoles('tenant-roles') }] })
 * class TenantsModule {}
 * ```
 */
@Injectable()
export class TenantRolesFollower implements OnApplicationBootstrap, OnApplicationShutdown {
  private followed: FollowedTenantRoles | undefined;

  constructor(
    private readonly permissionsService: PermissionsService,
    @Inject(TENANT_ROLES_SOURCE) private readonly source: TenantRolesSource | undefined,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.source === undefined) return;
    this.followed = await this.permissionsService.permissions.followTenantRoles(this.source, {
      onError: (error) =>
        console.warn(`tenant roles from ${this.source?.description ?? 'the source'}: ${error instanceof Error ? error.message : String(error)}`),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.followed?.close();
    this.followed = undefined;
  }
}
