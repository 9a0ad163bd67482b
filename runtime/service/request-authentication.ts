/**
 * Who is asking: a request's `Authorization: Bearer <token>` checked against the accepted tokens, or — only on a
 * service that allows it, which listens on loopback — no token at all. The answer is the key the request's rate
 * limit is counted under; a refusal is a 401 problem that says what to send.
 */
import type { BearerTokens } from './bearer-tokens.js';
import { ServiceProblem } from './problem-details.js';

/** The `www-authenticate` challenge of a request without a token. */
const CHALLENGE = 'Bearer realm="typed-permissions"';

/** The rate-limit key of requests without a token (only on a service that allows them). */
export const ANONYMOUS_KEY = 'anonymous';

/**
 * The rate-limit key of a request whose `Authorization` header is `header`: the key of its token, or
 * {@link ANONYMOUS_KEY} where requests without one are allowed. Throws a 401 ServiceProblem otherwise.
 *
 * @example
 * ```ts
 * const key = authenticate(request.headers.authorization, tokens, false); // 'token:3f1c…', or throws
 * ```
 */
export function authenticate(header: string | undefined, tokens: BearerTokens, allowAnonymous: boolean): string {
  if (header === undefined || header === '') {
    if (allowAnonymous) return ANONYMOUS_KEY;
    throw new ServiceProblem('unauthorized', 'This service needs a bearer token: send the header Authorization: Bearer <token>.', {
      'www-authenticate': CHALLENGE,
    });
  }
  const match = /^bearer[ ]+([^\s]+)[ ]*$/i.exec(header);
  if (match === null)
    throw new ServiceProblem('unauthorized', 'The Authorization header must be Bearer <token>.', {
      'www-authenticate': `${CHALLENGE}, error="invalid_request"`,
    });
  const key = tokens.verify(match[1] as string);
  if (key === undefined)
    throw new ServiceProblem('unauthorized', 'The bearer token is not accepted by this service.', {
      'www-authenticate': `${CHALLENGE}, error="invalid_token"`,
    });
  return key;
}
