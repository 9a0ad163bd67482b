/**
 * Answers 503 Service Unavailable, with Retry-After, when a request failed because the database
 * could not be reached — also when that failure surfaced through an ownership hook (a
 * PermissionsHookError whose cause is the connection error); over GraphQL, a SERVICE_UNAVAILABLE error.
 * Every other error keeps Nest's default answer (HttpExceptions as they are, anything else 500).
 */
import { Catch, ServiceUnavailableException, type ArgumentsHost } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';

/**
 * Codes of a database that is down, restarting or unreachable: Node's socket errors and PostgreSQL's
 * SQLSTATE classes 08 (connection exception) and 57P (operator intervention).
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
]);
/** Messages of `pg` (and PGlite) for a connection that is gone, which carry no code. */
const UNAVAILABLE_MESSAGES = [/^Connection terminated/, /^timeout exceeded when trying to connect/i, /PGlite is closed/i];

/**
 * Whether `error`, or an error in its `cause` chain, says that the database could not be reached.
 *
 * @example
 * ```ts
 * isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })); // true
 * ```
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 8; depth += 1) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
    current = cause;
  }
  return false;
}

/**
 * @example
 * ```ts
 * @Module({ providers: [{ provide: APP_FILTER, useClass: DatabaseUnavailableFilter }] })
 * export class AppModule {}
 * ```
 */
@Catch()
export class DatabaseUnavailableFilter extends BaseExceptionFilter {
  override catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType<string>() === 'graphql') {
      // A GraphQL error is an entry of the response body, not a status: give the outage its own error
      // (SERVICE_UNAVAILABLE through formatGraphQLError); returning nothing lets Nest rethrow anything else.
      if (isDatabaseUnavailable(exception)) throw new ServiceUnavailableException('The database is unavailable; try again shortly.');
      return;
    }
    if (host.getType() !== 'http' || !isDatabaseUnavailable(exception)) return super.catch(exception, host);
    const response = host
      .switchToHttp()
      .getResponse<{ headersSent: boolean; setHeader(name: string, value: string): void; status(code: number): { json(body: unknown): void } }>();
    if (response.headersSent) return super.catch(exception, host);
    response.setHeader('Retry-After', '5');
    response.status(503).json({ statusCode: 503, error: 'Service Unavailable', message: 'The database is unavailable; try again shortly.' });
  }
}
