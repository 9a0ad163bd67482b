/**
 * Reads users and their roles from the example database.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { Kysely } from 'kysely';
import type { AppUser } from './app-user.js';
import { EXAMPLE_DATABASE } from './example.constants.js';
import type { ExampleDatabase } from './example-database.js';

/**
 * The users table with their roles.
 *
 * @example
 * ```ts
 * const users = new UsersRepository(db);
 * await users.findUser(7); // { id: 7, roles: ['COMPANY_ADMIN', 'EMPLOYEE_MANAGER'] }
 * ```
 */
@Injectable()
export class UsersRepository {
  constructor(@Inject(EXAMPLE_DATABASE) private readonly db: Kysely<ExampleDatabase>) {}

  /**
   * The user with this id and its roles (sorted by name; a user without roles gets `[]`), or
   * `undefined` when there is no such user.
   *
   * @example
   * ```ts
   * await users.findUser(1); // { id: 1, roles: ['EMPLOYEE'] }
   * await users.findUser(99); // undefined
   * ```
   */
  async findUser(id: number): Promise<AppUser | undefined> {
    const rows = await this.db
      .selectFrom('users')
      .leftJoin('userRoles', 'userRoles.userId', 'users.id')
      .select(['users.id', 'userRoles.role'])
      .where('users.id', '=', id)
      .orderBy('userRoles.role')
      .execute();
    const first = rows[0];
    if (first === undefined) return undefined;
    return { id: first.id, roles: rows.flatMap((row) => (row.role === null ? [] : [row.role])) };
  }
}
