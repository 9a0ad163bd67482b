/**
 * The one rule for a resource id, wherever an id enters (a grant query, a path parameter, a GraphQL
 * argument): a resource whose metadata declares `idType: "number"` has canonical safe integers as ids,
 * `"string"` has non-empty strings of bounded length; a resource without a declared type takes either.
 * Text from a request is turned into the declared type here, so that an ownership hook typed
 * `resourceId: number` receives a number without a hand-written projection.
 */
import { PermissionsInvalidIdError } from '../common/errors.js';
import { quoteForMessage } from '../common/printable-text.js';
import { describeValue } from '../common/describe-value.js';
import type { ResourceIdType } from '../tables/grant-tables.js';

export type { ResourceIdType } from '../tables/grant-tables.js';

/**
 * Turns the text of a resource id from a request (a path parameter; a GraphQL argument, numbers written in
 * decimal) into the application's id, for the NestJS guard and the express middleware alike. It may throw
 * an HTTP error (NestJS `BadRequestException`) to refuse the request; returning `undefined` or `null` refuses
 * it with 400 too. Without one, the resource's declared id type projects the text (`'10'` → `10`).
 *
 * @example
 * ```ts
 * const projectResourceId: ProjectResourceId = (raw) => (/^[0-9a-f]{24}$/.test(raw) ? raw : undefined); // 400 for anything else
 * ```
 */
export type ProjectResourceId = (raw: string, context: { readonly resource: string }) => unknown;

/** The longest string id accepted, in UTF-16 code units: longer text is refused before any hook sees it. */
export const MAX_STRING_ID_LENGTH = 256;

/** Decimal integers as people write them: no sign on zero, no leading zeros, no spaces, exponents or hex. */
const CANONICAL_INTEGER = /^(?:0|-?[1-9][0-9]{0,15})$/;

/** An id as a refusal shows it: the text quoted (bounded), a number as written, anything else by its type. */
const shownId = (value: unknown): string =>
  typeof value === 'string' ? quoteForMessage(value, 40) : typeof value === 'number' || typeof value === 'bigint' ? String(value) : describeValue(value);

/** What ids of each type look like, for messages. */
const EXPECTED: Readonly<Record<ResourceIdType | 'any', string>> = {
  number: 'an integer written in decimal without leading zeros, within ±9007199254740991 (such as 42)',
  string: `a non-empty string of at most ${MAX_STRING_ID_LENGTH} characters`,
  any: `a finite number, a bigint, or a non-empty string of at most ${MAX_STRING_ID_LENGTH} characters`,
};

function asNumberId(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value + 0 : undefined; // + 0 turns -0 into 0
  if (typeof value === 'string' && CANONICAL_INTEGER.test(value)) {
    const parsed = Number(value);
    return Number.isSafeInteger(parsed) ? parsed : undefined;
  }
  if (typeof value === 'bigint' && value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(value);
  return undefined;
}

function asStringId(value: unknown): string | undefined {
  if (typeof value === 'string') return value.length > 0 && value.length <= MAX_STRING_ID_LENGTH ? value : undefined;
  // A GraphQL Int argument, or a number from code, for a resource whose ids are strings: its decimal text.
  if ((typeof value === 'number' && Number.isSafeInteger(value)) || typeof value === 'bigint') return String(value);
  return undefined;
}

function asAnyId(value: unknown): unknown {
  if (typeof value === 'string') return value.length > 0 && value.length <= MAX_STRING_ID_LENGTH ? value : undefined;
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint') return value;
  return undefined;
}

/**
 * The id `value` stands for, in the resource's declared type, or `undefined` when it is no id of that
 * type. `number`: a safe integer, or its canonical decimal text (`'42'`; never `'1e1'`, `'0x10'`, `' 1'`,
 * `'01'`, `'-0'`). `string`: a non-empty string of at most {@link MAX_STRING_ID_LENGTH} characters (a
 * safe integer becomes its decimal text). No declared type: a finite number, a bigint or such a string, as given.
 *
 * @example
 * ```ts
 * projectResourceIdOfType('10', 'number'); // 10
 * projectResourceIdOfType('010', 'number'); // undefined
 * projectResourceIdOfType('a1', undefined); // 'a1'
 * ```
 */
export function projectResourceIdOfType(value: unknown, idType: ResourceIdType | undefined): unknown {
  return idType === 'number' ? asNumberId(value) : idType === 'string' ? asStringId(value) : asAnyId(value);
}

/**
 * Like {@link projectResourceIdOfType}, throwing a {@link PermissionsInvalidIdError} (which the
 * integrations answer with 400) when `value` is no id of `resource`.
 *
 * @example
 * ```ts
 * resourceIdOfType('10', 'document', 'number'); // 10
 * resourceIdOfType('1e1', 'document', 'number'); // throws PermissionsInvalidIdError: "1e1" is not an id of document …
 * ```
 */
export function resourceIdOfType(value: unknown, resource: string, idType: ResourceIdType | undefined): unknown {
  const id = projectResourceIdOfType(value, idType);
  if (id === undefined) {
    throw new PermissionsInvalidIdError(resource, `${shownId(value)} is not an id of ${JSON.stringify(resource)}: its ids are ${EXPECTED[idType ?? 'any']}.`);
  }
  return id;
}

/**
 * The id a request names, through the application's projection when it has one (its `undefined` or `null`
 * is a {@link PermissionsInvalidIdError}, never "no id"), else the text itself, which `grantPermit` then
 * projects to the resource's declared id type. The one rule of the integrations.
 *
 * @example
 * ```ts
 * requestResourceId('10', 'document', undefined); // '10' (grantPermit makes it 10 where ids are numbers)
 * requestResourceId('x', 'document', (raw) => (/^\d+$/.test(raw) ? Number(raw) : undefined)); // throws PermissionsInvalidIdError
 * ```
 */
export function requestResourceId(raw: string, resource: string, projection: ProjectResourceId | undefined): unknown {
  if (projection === undefined) return raw;
  const id = projection(raw, { resource });
  if (id === undefined || id === null) throw new PermissionsInvalidIdError(resource, `${shownId(raw)} is not an id of ${JSON.stringify(resource)}.`);
  return id;
}
