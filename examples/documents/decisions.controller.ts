/**
 * `GET /decisions`: the last decisions of the permissions library, newest first, from the example's decision
 * log. Guarded like every route: `list` on the `decision` resource, which only SUPER_ADMIN is granted
 * (definitions/decision.permissions.json); everyone else gets 403.
 */
import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import type { Permit } from '../../runtime/permissions/index.js';
import { GetPermit } from '../../runtime/nest/index.js';
import type { AppUser } from './app-user.js';
import { DecisionLogWriter, MAX_LISTED_DECISIONS } from './decision-log.writer.js';
import { Action, createPermissionsGuard } from './example-permissions.js';

const DecisionsGuard = createPermissionsGuard({ resource: 'decision' });

/**
 * @example
 * ```sh
 * curl -H 'x-user-id: 5' 'http://127.0.0.1:3000/decisions?limit=2'
 * # [{"callId":"…","time":"…","user":{"id":5,"roles":["SUPER_ADMIN"]},"resource":"decision","action":"list",…},…]
 * ```
 */
@Controller('decisions')
@UseGuards(DecisionsGuard)
export class DecisionsController {
  constructor(private readonly log: DecisionLogWriter) {}

  /** 200 with the last `limit` decisions (default 20, at most 100); 403 unless the caller may list decisions. */
  @Get()
  @Action('decision')
  async list(@GetPermit() permit: Permit<AppUser, string>, @Query('limit') limit?: string): Promise<object[]> {
    const count = limit !== undefined && /^\d{1,3}$/.test(limit) ? Number(limit) : 20;
    return permit.filterPick(await this.log.last(Math.min(count, MAX_LISTED_DECISIONS)));
  }
}
