/**
 * Reads users and their roles from the example database.
 */
import { Inject, Injectable } from '@nestjs/common';
import { sql, type Kysely } from 'kysely';
import type { AppUser } from './app-user.js';
import { EXAMPLE_DATABASE } from './example.constants.js';
import type { ExampleDatabase } from './example-database.js';

/**
 * The users table with their roles, their company and the users they manage.
 *
 * @example
 * ```ts
 * const users = new UsersRepository(db);
 * await users.findUser(7); // { id: 7, roles: ['COMPANY_ADMIN', 'EMPLOYEE_MANAGER'], companyId: 1, managedUserIds: [5, 6] }
 * ```
 */
@Injectable()
export class UsersRepository {
  constructor(@Inject(EXAMPLE_DATABASE) private readonly db: Kysely<ExampleDatabase>) {}

  /**
   * The user with this id: its roles (sorted by name; a user without roles gets `[]`), its company (null for none)
   * and the users it manages directly (ascending) — what the ownership rules read — or `undefined` when there is no
   * such user. One statement: roles and managed users are aggregated beside the user's row.
   *
   * @example
   * ```ts
   * await users.findUser(1); // { id: 1, roles: ['EMPLOYEE'], companyId: 1, managedUserIds: [] }
   * await users.findUser(99); // undefined
   * ```
   */
  async findUser(id: number): Promise<AppUser | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => [
        'users.id',
        'users.companyId',
        eb.fn
          .coalesce(
            eb
              .selectFrom('userRoles')
              .select((sub) => sub.fn.agg<string[]>('array_agg', ['userRoles.role']).as('roles'))
              .whereRef('userRoles.userId', '=', 'users.id'),
            sql<string[]>`'{}'::text[]`,
          )
          .as('roles'),
        eb.fn
          .coalesce(
            eb
              .selectFrom('managers')
              .select((sub) => sub.fn.agg<number[]>('array_agg', ['managers.managedId']).as('managed'))
              .whereRef('managers.managerId', '=', 'users.id'),
            sql<number[]>`'{}'::integer[]`,
          )
          .as('managedUserIds'),
      ])
      .where('users.id', '=', id)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    return { id: row.id, roles: [...row.roles].sort(), companyId: row.companyId, managedUserIds: [...row.managedUserIds].sort((a, b) => a - b) };
  }
}
